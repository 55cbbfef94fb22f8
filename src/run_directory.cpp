#include "mpiwrite/run_directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>

#include "mpiwrite/errors.hpp"
#include "mpiwrite/points.hpp"
#include "mpiwrite/posix_file.hpp"

namespace mpiwrite {

namespace {

std::string absolute_path(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr),
                                                       &std::free);
  if (!resolved) throw IoError(errno, path, "resolve path");
  return resolved.get();
}

// Does `name` spell pattern(i) for some i in [1, files]? Leading zeros never do.
bool is_target_name(std::string_view name, const FilePattern& p, std::uint64_t files) {
  if (name.size() <= p.prefix.size() + p.suffix.size()) return false;
  if (!name.starts_with(p.prefix) || !name.ends_with(p.suffix)) return false;
  const std::string_view digits =
      name.substr(p.prefix.size(), name.size() - p.prefix.size() - p.suffix.size());
  if (digits.front() == '0') return false;
  std::uint64_t index = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  return error == std::errc{} && end == digits.data() + digits.size() && index >= 1 &&
         index <= files;
}

}  // namespace

PreparedDirectory prepare_directory(const RunConfig& config) {
  PreparedDirectory prepared;
  const std::string& dir = config.dir;
  struct stat info {};
  if (::lstat(dir.c_str(), &info) == 0 && S_ISLNK(info.st_mode) && ::stat(dir.c_str(), &info) != 0) {
    throw UsageError(fmt::format("--dir {} is a dangling symbolic link", dir));
  }
  if (::stat(dir.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode)) throw UsageError(fmt::format("--dir {} is not a directory", dir));
  } else if (errno == ENOENT) {
    if (::mkdir(dir.c_str(), 0755) != 0) {
      if (errno == ENOENT) {
        throw UsageError(fmt::format("--dir {}: its parent directory does not exist (mpiwrite "
                                     "creates --dir but not its parents)", dir));
      }
      throw IoError(errno, dir, "create directory");
    }
    prepared.created = true;
  } else if (errno == ENOTDIR) {
    throw UsageError(fmt::format("--dir {}: a part of its path is not a directory", dir));
  } else {
    throw IoError(errno, dir, "stat");
  }
  prepared.path = absolute_path(config.dir);
  prepared.filesystem = filesystem_type(prepared.path);
  if (!config.overwrite && !prepared.created && run_kind(config) == RunKind::Run) {
    const FilePattern pattern = parse_pattern(config.pattern);
    if (auto name = find_existing_target(prepared.path, pattern, config.files)) {
      throw UsageError(fmt::format(
          "{}/{} already exists and this run would create it; mpiwrite never overwrites a file "
          "it did not create. Pass --overwrite to rewrite such files, or choose another --dir",
          prepared.path, *name));
    }
  }
  return prepared;
}

std::optional<std::string> find_existing_target(const std::string& dir,
                                                const FilePattern& pattern,
                                                std::uint64_t files) {
  struct CloseDir {
    void operator()(DIR* d) const { ::closedir(d); }
  };
  std::unique_ptr<DIR, CloseDir> stream(::opendir(dir.c_str()));
  if (!stream) throw IoError(errno, dir, "open directory");
  while (const dirent* entry = ::readdir(stream.get())) {
    if (is_target_name(entry->d_name, pattern, files)) return std::string(entry->d_name);
  }
  return std::nullopt;
}

void make_directory(const std::string& path) {
  if (::mkdir(path.c_str(), 0755) != 0) throw IoError(errno, path, "create directory");
}

std::uint64_t remove_files(const std::string& dir, const FilePattern& pattern,
                           const Progression& files) {
  const UniqueFd dir_fd = open_directory(dir);
  FileNamer namer(pattern);
  std::uint64_t removed = 0;
  for (std::uint64_t i = 0; i < files.count; ++i) {
    const char* name = namer.name(files.at(i));
    if (::unlinkat(dir_fd.get(), name, 0) == 0) {
      ++removed;
    } else if (errno != ENOENT) {
      throw IoError(errno, dir + "/" + name, "remove");
    }
  }
  return removed;
}

void remove_directory(const std::string& path) {
  if (::rmdir(path.c_str()) != 0) throw IoError(errno, path, "remove directory");
}

}  // namespace mpiwrite
