// Creating and removing a layout's directories (layout_directories.hpp). Every directory is
// reached from the run directory one component at a time, each opened with O_NOFOLLOW, and
// made or removed with mkdirat / unlinkat(AT_REMOVEDIR) in its parent's descriptor: a layout
// directory swapped for a symbolic link meanwhile is refused, never followed out of the run
// directory (a path string would be walked through the link).
#include "mpiwrite/sys/layout_directories.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <optional>
#include <string_view>
#include <thread>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {
namespace {

std::string join(const std::string& base, const std::string& dir) {
  return dir.empty() ? base : base + '/' + dir;
}

// The parent directory of the layout directories, opened without following a link, and
// kept while consecutive directories share it ("rank0/d000", "rank0/d001", ...).
class Parents {
 public:
  explicit Parents(const DirectoryAt& base) : base_(base.path), base_fd_(open_at(base)) {}

  // The descriptor of `dir`'s parent and `dir`'s last component. Throws IoError naming the
  // parent (errno ENOENT when it is gone).
  int parent_of(const std::string& dir, std::string& name) {
    const std::size_t slash = dir.rfind('/');
    const std::string parent = slash == std::string::npos ? std::string() : dir.substr(0, slash);
    name = slash == std::string::npos ? dir : dir.substr(slash + 1);
    if (parent.empty()) return base_fd_.get();
    if (!open_ || parent != parent_) {
      open_ = false;
      parent_fd_ = open_beneath(parent);
      parent_ = parent;
      open_ = true;
    }
    return parent_fd_.get();
  }

 private:
  UniqueFd open_beneath(const std::string& relative) const {
    UniqueFd fd = open_directory_beneath(base_fd_.get(), relative);
    if (!fd) throw IoError(errno, join(base_, relative), "open directory");
    return fd;
  }

  std::string base_;
  UniqueFd base_fd_;
  std::string parent_;
  UniqueFd parent_fd_;
  bool open_ = false;
};

bool stopped(const std::atomic<int>* stop) {
  return stop != nullptr && stop->load(std::memory_order_relaxed) != 0;
}

bool is_real_directory(int parent_fd, const std::string& name) {
  struct stat st {};
  return ::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

// A layout directory exists once every rank has agreed it made its own. Yet on a network file
// system one made by another node's rank can be missing here for a moment: on GlusterFS (FUSE,
// two clients) a rank's open of a directory the other node had just made failed with ENOENT
// in 2 of 5 cluster.netfs runs, the cause not found (not a negative entry of this client's
// cache: nothing there had looked the name up).
UniqueFd open_component(int parent, const std::string& name, bool wait_for_missing) {
  const int attempts = wait_for_missing ? 200 : 1;
  for (int attempt = 1;; ++attempt) {
    UniqueFd fd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (fd || errno != ENOENT || attempt == attempts) return fd;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

UniqueFd open_directory_beneath(int base_fd, std::string_view relative, bool wait_for_missing) {
  UniqueFd current;
  while (!relative.empty()) {
    const std::size_t slash = relative.find('/');
    const std::string component(relative.substr(0, slash));
    relative = slash == std::string_view::npos ? std::string_view() : relative.substr(slash + 1);
    UniqueFd next = open_component(current ? current.get() : base_fd, component, wait_for_missing);
    if (!next) return next;  // errno from openat
    current = std::move(next);
  }
  return current;
}

void make_layout_directories(const DirectoryAt& base, const std::vector<std::string>& dirs,
                             std::vector<std::string>& made, bool existing_ok,
                             const std::atomic<int>* stop) {
  if (dirs.empty()) return;
  Parents parents(base);
  std::string name;
  for (const std::string& dir : dirs) {
    if (stopped(stop)) return;  // 10^6 directories take minutes: a signal must not wait
    const int parent = parents.parent_of(dir, name);
    if (::mkdirat(parent, name.c_str(), 0755) == 0) {
      made.push_back(dir);
      continue;
    }
    const int error = errno;
    if (error == EEXIST && existing_ok && is_real_directory(parent, name)) continue;
    throw IoError(error, join(base.path, dir), "create directory");
  }
}

std::uint64_t remove_layout_directories(const DirectoryAt& base,
                                        const std::vector<std::string>& made,
                                        const std::atomic<int>* stop, bool keep_nonempty) {
  if (made.empty()) return 0;
  std::uint64_t removed = 0;
  std::optional<IoError> first;
  // Every one is tried: one that cannot go (it holds something not ours) keeps only itself
  // and its parents.
  auto note = [&](const IoError& e) {
    if (!first) first = e;
  };
  std::optional<Parents> parents;
  try {
    parents.emplace(base);
  } catch (const IoError& e) {
    if (e.code().value() == ENOENT) return 0;  // the run directory is gone, and all in it
    throw;
  }
  std::string name;
  for (auto dir = made.rbegin(); dir != made.rend() && !stopped(stop); ++dir) {
    int parent = -1;
    try {
      parent = parents->parent_of(*dir, name);
    } catch (const IoError& e) {
      if (e.code().value() != ENOENT) note(e);  // gone: so is this one
      continue;
    }
    if (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0) {
      ++removed;
      continue;
    }
    const int error = errno;
    if (error == ENOENT) continue;
    if (keep_nonempty && (error == ENOTEMPTY || error == EEXIST)) continue;  // kept, as asked
    note(IoError(error, join(base.path, *dir), "remove directory"));
  }
  if (first) throw *first;
  return removed;
}

}  // namespace mpiwrite
