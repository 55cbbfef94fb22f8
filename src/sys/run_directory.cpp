#include "mpiwrite/sys/run_directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/sys/file_directories.hpp"
#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/system_facts.hpp"

namespace mpiwrite {

namespace {

std::string absolute_path(const std::string& path) {
  std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr),
                                                       &std::free);
  if (!resolved) throw IoError(errno, path, "resolve path");
  return resolved.get();
}

}  // namespace

namespace {

struct CloseDir {
  void operator()(DIR* d) const { ::closedir(d); }
};

// Calls visit(name, info) for every entry of `dir` that `pattern` generates for an index in
// [1, files]; `info` is the entry itself (never what a link points to). Stops when visit
// returns false.
template <typename Visit>
void for_each_target(const std::string& dir, const FilePattern& pattern, std::uint64_t files,
                     Visit&& visit) {
  std::unique_ptr<DIR, CloseDir> stream(::opendir(dir.c_str()));
  if (!stream) throw IoError(errno, dir, "open directory");
  while (const dirent* entry = ::readdir(stream.get())) {
    if (!generates(pattern, entry->d_name, files)) continue;
    struct stat info {};
    if (::fstatat(::dirfd(stream.get()), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) continue;  // removed while we looked
      throw IoError(errno, dir + "/" + entry->d_name, "stat");
    }
    if (!visit(entry->d_name, info)) return;
  }
}

std::string_view kind_of(const struct stat& info) {
  if (S_ISLNK(info.st_mode)) return "a symbolic link";
  if (S_ISDIR(info.st_mode)) return "a directory";
  if (S_ISFIFO(info.st_mode)) return "a FIFO";
  if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) return "a device";
  if (S_ISSOCK(info.st_mode)) return "a socket";
  return "not a regular file";
}

// What a plain run finds in an existing DIR among the names it would write.
void check_existing_names(const RunConfig& config, const std::string& dir) {
  const FilePattern pattern = parse_pattern(config.pattern);
  if (!config.overwrite) {
    for_each_target(dir, pattern, config.files, [&](const char* name, const struct stat&) -> bool {
      throw UsageError(fmt::format(
          "{}/{} already exists and this run would create it; mpiwrite never overwrites a file "
          "it did not create. Pass --overwrite to rewrite such files, or choose another --dir",
          dir, name));
    });
    return;
  }
  for_each_target(
      dir, pattern, config.files, [&](const char* name, const struct stat& info) -> bool {
        if (!S_ISREG(info.st_mode)) {
          throw UsageError(
              fmt::format("{}/{} is {}: --overwrite rewrites regular files only, and "
                          "mpiwrite never writes through a link or into a device",
                          dir, name, kind_of(info)));
        }
        if (info.st_nlink > 1) {
          throw UsageError(
              fmt::format("{}/{} has {} hard links: --overwrite would change the file "
                          "under its other names too",
                          dir, name, info.st_nlink));
        }
        if (config.cleanup) {
          throw UsageError(
              fmt::format("{}/{} was not created by this run: --overwrite would rewrite it, but "
                          "--cleanup removes "
                          "only what this run created. Drop --cleanup, or choose another --dir",
                          dir, name));
        }
        return true;
      });
}

// The same in every directory of a layout (without a layout, in DIR alone): a plain run
// creates each layout directory, so none may exist; --overwrite writes into those that are
// real directories. Only for a plain run (sweeps and comparisons write into fresh scratch
// directories), whose one point `plan` is.
void check_existing_targets(const RunConfig& config, const std::string& dir,
                            const PointPlan& plan) {
  const DirectoryLayout& layout = plan.layout;
  const int ranks = plan.spec.ranks;
  if (layout.flat()) return check_existing_names(config, dir);
  // Whether a name exists is read from its parent's listing, never looked up: on a network
  // file system a lookup of a missing name leaves a negative entry in this client's cache,
  // and a rank on this node then failed to open the directory another node's rank made
  // (ENOENT on GlusterFS, found in CI).
  std::map<std::string, std::set<std::string>> listings;
  std::set<std::string> present{dir};  // found to exist (a layout lists parents first)
  auto listed = [&](const std::string& parent, const std::string& name) {
    if (present.count(parent) == 0) return false;  // its parent is missing: so is it
    auto [at, fresh] = listings.try_emplace(parent);
    if (fresh) {
      std::unique_ptr<DIR, CloseDir> stream(::opendir(parent.c_str()));
      if (!stream) throw IoError(errno, parent, "open directory");
      while (const dirent* entry = ::readdir(stream.get())) at->second.insert(entry->d_name);
    }
    return at->second.count(name) != 0;
  };
  for (int rank = 0; rank < ranks; ++rank) {
    for (const std::string& relative : layout.rank_directories(rank)) {
      const std::string path = dir + '/' + relative;
      const std::size_t slash = path.rfind('/');
      if (!listed(path.substr(0, slash), path.substr(slash + 1))) continue;
      present.insert(path);
      struct stat info {};
      if (::lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT) continue;
        throw IoError(errno, path, "stat");
      }
      if (!config.overwrite) {
        throw UsageError(fmt::format(
            "{} already exists and this run would create it as a directory of --layout; "
            "mpiwrite never writes into what it did not create. Pass --overwrite to rewrite "
            "the files in it, or choose another --dir",
            path));
      }
      if (!S_ISDIR(info.st_mode)) {
        throw UsageError(
            fmt::format("{} is {}: --overwrite writes only into real directories, "
                        "and mpiwrite never writes through a link",
                        path, kind_of(info)));
      }
      check_existing_names(config, path);
    }
  }
}

}  // namespace

bool check_directory(const RunConfig& config, const std::vector<PointPlan>& plans) {
  const std::string& dir = config.dir;
  struct stat info {};
  if (::lstat(dir.c_str(), &info) == 0 && S_ISLNK(info.st_mode) &&
      ::stat(dir.c_str(), &info) != 0) {
    throw UsageError(fmt::format("--dir {} is a dangling symbolic link", dir));
  }
  if (::stat(dir.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode)) throw UsageError(fmt::format("--dir {} is not a directory", dir));
  } else if (errno == ENOENT) {
    std::filesystem::path missing = std::filesystem::path(dir).lexically_normal();
    if (missing.filename().empty()) missing = missing.parent_path();  // "d/" names d
    const std::string parent = missing.parent_path().string();
    const std::string checked = parent.empty() ? "." : parent;
    struct stat parent_info {};
    if (::stat(checked.c_str(), &parent_info) != 0 && errno == ENOENT) {
      throw UsageError(
          fmt::format("--dir {}: its parent directory does not exist (mpiwrite "
                      "creates --dir but not its parents)",
                      dir));
    }
    if (::access(checked.c_str(), W_OK | X_OK) != 0) throw IoError(errno, dir, "create directory");
    return true;
  } else if (errno == ENOTDIR) {
    throw UsageError(fmt::format("--dir {}: a part of its path is not a directory", dir));
  } else {
    throw IoError(errno, dir, "stat");
  }
  if (run_kind(config) == RunKind::Run) {
    check_existing_targets(config, absolute_path(dir), plans.front());
  }
  return false;
}

PreparedDirectory prepare_directory(const RunConfig& config, const std::vector<PointPlan>& plans) {
  PreparedDirectory prepared;
  if (check_directory(config, plans)) {
    if (::mkdir(config.dir.c_str(), 0755) != 0) {
      if (errno == ENOENT) {
        throw UsageError(
            fmt::format("--dir {}: its parent directory does not exist (mpiwrite "
                        "creates --dir but not its parents)",
                        config.dir));
      }
      throw IoError(errno, config.dir, "create directory");
    }
    prepared.created = true;
  }
  prepared.path = absolute_path(config.dir);
  // Held from here on: every later step works relative to this descriptor (held_directory.hpp).
  // The resolved path's last component is not a link; O_NOFOLLOW refuses one put there since.
  prepared.fd =
      UniqueFd(::open(prepared.path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!prepared.fd) throw IoError(errno, prepared.path, "open directory");
  prepared.identity = identity_of(prepared.fd.get(), prepared.path);
  prepared.filesystem = filesystem_type(prepared.path);
  return prepared;
}

void make_directory(const std::string& path, unsigned mode) {
  if (::mkdir(path.c_str(), mode) != 0) throw IoError(errno, path, "create directory");
}

UniqueFd make_directory_at(int parent_fd, const std::string& name, const std::string& path,
                           unsigned mode) {
  if (::mkdirat(parent_fd, name.c_str(), mode) != 0) {
    throw IoError(errno, path, "create directory");
  }
  UniqueFd fd(::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) throw IoError(errno, path, "open directory");
  return fd;
}

namespace {

bool stopped(const std::atomic<int>* stop) {
  return stop != nullptr && stop->load(std::memory_order_relaxed) != 0;
}

// The directory of file `index`, or none if it is gone (so is the file).
std::optional<FileDirectories::Handle> directory_of(FileDirectories& directories,
                                                    std::uint64_t index) {
  try {
    return directories.acquire(index);
  } catch (const IoError& e) {
    if (e.code().value() == ENOENT) return std::nullopt;
    throw;
  }
}

// Unlinks one name; true if it was there. A name already gone is skipped.
bool unlink_name(int dir_fd, const std::string& dir, const char* name) {
  if (::unlinkat(dir_fd, name, 0) == 0) return true;
  if (errno != ENOENT) throw IoError(errno, dir + "/" + name, "remove");
  return false;
}

}  // namespace

std::uint64_t remove_files(const DirectoryAt& dir, const FilePattern& pattern,
                           const Progression& files, const std::atomic<int>* stop,
                           bool regular_only, const DirectoryLayout* layout, ProgressTick* tick) {
  const UniqueFd dir_fd = open_at(dir);
  FileDirectories directories(dir_fd.get(), dir.path, layout);
  FileNamer namer(pattern);
  std::uint64_t removed = 0;
  for (std::uint64_t i = 0; i < files.count && !stopped(stop); ++i) {
    if (tick != nullptr) tick->add();
    const std::uint64_t index = files.at(i);
    const char* name = namer.name(index);
    const std::optional<FileDirectories::Handle> in = directory_of(directories, index);
    if (!in) continue;
    if (regular_only) {
      struct stat info {};
      if (::fstatat(in->fd, name, &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode) ||
          info.st_nlink != 1) {
        directories.release(*in);
        continue;
      }
    }
    if (unlink_name(in->fd, directories.path(*in), name)) ++removed;
    directories.release(*in);
  }
  return removed;
}

std::uint64_t remove_created(const DirectoryAt& dir, const FilePattern& pattern,
                             const CreatedFiles& created, const std::atomic<int>* stop,
                             const DirectoryLayout* layout, ProgressTick* tick) {
  if (created.taken.empty()) return 0;
  const UniqueFd dir_fd = open_at(dir);
  FileDirectories directories(dir_fd.get(), dir.path, layout);
  FileNamer namer(pattern);
  std::uint64_t removed = 0;
  for (const Progression& part : created.taken) {
    for (std::uint64_t i = 0; i < part.count && !stopped(stop); ++i) {
      if (tick != nullptr) tick->add();
      const std::uint64_t index = part.at(i);
      if (created.excluded(index)) continue;
      const std::optional<FileDirectories::Handle> in = directory_of(directories, index);
      if (!in) continue;
      if (unlink_name(in->fd, directories.path(*in), namer.name(index))) ++removed;
      directories.release(*in);
    }
  }
  return removed;
}

void remove_directory(const std::string& path) {
  if (::rmdir(path.c_str()) != 0) throw IoError(errno, path, "remove directory");
}

namespace {
constexpr std::string_view kTrashSuffix = ".trash";
constexpr std::string_view kScratchPrefix = ".mpiwrite-";

// "<hex>-<hex>", a run id.
bool is_run_id(std::string_view id) {
  const std::size_t dash = id.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 == id.size()) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!(hex || i == dash)) return false;
  }
  return true;
}

// ".mpiwrite-<run id>.trash": a scratch root given up.
bool is_trash_name(std::string_view name) {
  if (!name.starts_with(kScratchPrefix) || !name.ends_with(kTrashSuffix)) return false;
  return is_run_id(name.substr(kScratchPrefix.size(),
                               name.size() - kScratchPrefix.size() - kTrashSuffix.size()));
}

// ".mpiwrite-<run id>": a scratch root, in use or abandoned.
bool is_root_name(std::string_view name) {
  return name.starts_with(kScratchPrefix) && is_run_id(name.substr(kScratchPrefix.size()));
}

constexpr const char* kLockName = ".lock";

// A process that has exited but not been reaped yet (state Z in /proc/PID/stat).
bool is_zombie(long pid) {
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t paren = text.rfind(')');  // the command name may hold spaces and parens
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

// "host pid" of this process, as the lock file holds it.
std::string lock_owner() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return fmt::format("{} {}\n", host, ::getpid());
}

// Whether the run that made `root` is gone: its lock file names this host and a process that
// no longer exists, and the lock can be taken now. Both, because some file systems lock only
// within a node (Lustre's localflock) and a pid alone can be reused; a root made on another
// host is never judged from here.
bool abandoned(int dir_fd, const char* root) {
  const UniqueFd root_fd(::openat(dir_fd, root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!root_fd) return false;
  const UniqueFd lock(::openat(root_fd.get(), kLockName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!lock) return false;
  char text[300] = {};
  const ssize_t n = ::read(lock.get(), text, sizeof text - 1);
  if (n <= 0) return false;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string_view owner(text, static_cast<std::size_t>(n));
  const std::size_t space = owner.rfind(' ');
  if (space == std::string_view::npos || owner.substr(0, space) != host) return false;
  long pid = 0;
  const std::string_view digits = owner.substr(space + 1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  if (error != std::errc{} || pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) == 0 ? !is_zombie(pid) : errno != ESRCH) return false;
  return ::flock(lock.get(), LOCK_EX | LOCK_NB) == 0;
}
}  // namespace

UniqueFd lock_scratch_root(int root_fd) {
  UniqueFd fd(
      ::openat(root_fd, kLockName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  const std::string owner = lock_owner();
  if (fd && (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0 ||
             write_all(fd.get(), owner.data(), owner.size()) != 0)) {
    ::unlinkat(root_fd, kLockName,
               0);  // no lock: without a lock file the root never looks abandoned
    return UniqueFd();
  }
  return fd;
}

void unlock_scratch_root(int root_fd, UniqueFd& lock) {
  if (!lock) return;
  ::unlinkat(root_fd, kLockName, 0);
  lock = UniqueFd();
}

std::string trash_path(const std::string& scratch_root) {
  return scratch_root + std::string(kTrashSuffix);
}

std::vector<std::string> find_trash(const std::string& dir) {
  std::vector<std::string> found;
  std::unique_ptr<DIR, CloseDir> stream(::opendir(dir.c_str()));
  if (!stream) return found;  // nothing to tidy is no reason to fail a run
  const int dir_fd = ::dirfd(stream.get());
  while (const dirent* entry = ::readdir(stream.get())) {
    const bool trash = is_trash_name(entry->d_name);
    if (!trash && !is_root_name(entry->d_name)) continue;
    // A real scratch root is a directory of this user's with mode 0700 (make_scratch_directory):
    // anything else that merely has the name is left alone.
    struct stat info {};
    if (::fstatat(dir_fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR(info.st_mode) || info.st_uid != ::geteuid() || (info.st_mode & 07777) != 0700) {
      continue;
    }
    const std::string path = dir + "/" + entry->d_name;
    if (trash) {
      found.push_back(path);
    } else if (abandoned(dir_fd, entry->d_name)) {
      const std::string renamed = trash_path(path);
      if (::rename(path.c_str(), renamed.c_str()) == 0) found.push_back(renamed);
    }
  }
  std::sort(found.begin(), found.end());  // readdir may show a renamed root again
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

}  // namespace mpiwrite
