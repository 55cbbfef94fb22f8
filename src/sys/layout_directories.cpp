// Creating and removing a layout's directories (layout_directories.hpp).
#include "mpiwrite/sys/layout_directories.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

std::string join(const std::string& base, const std::string& dir) {
  return dir.empty() ? base : base + '/' + dir;
}

bool is_real_directory(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

void make_layout_directories(const std::string& base, const std::vector<std::string>& dirs,
                             std::vector<std::string>& made, bool existing_ok) {
  for (const std::string& dir : dirs) {
    const std::string path = join(base, dir);
    if (::mkdir(path.c_str(), 0755) == 0) {
      made.push_back(dir);
      continue;
    }
    const int error = errno;
    if (error == EEXIST && existing_ok && is_real_directory(path)) continue;
    throw IoError(error, path, "create directory");
  }
}

std::uint64_t remove_layout_directories(const std::string& base,
                                        const std::vector<std::string>& made) {
  std::uint64_t removed = 0;
  for (auto dir = made.rbegin(); dir != made.rend(); ++dir) {
    const std::string path = join(base, *dir);
    if (::rmdir(path.c_str()) == 0) {
      ++removed;
      continue;
    }
    const int error = errno;
    if (error != ENOENT) throw IoError(error, path, "remove directory");
  }
  return removed;
}

}  // namespace mpiwrite
