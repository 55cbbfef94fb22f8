#include "mpiwrite/run_directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdlib>
#include <filesystem>
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
void check_existing_targets(const RunConfig& config, const std::string& dir) {
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
  for_each_target(dir, pattern, config.files, [&](const char* name, const struct stat& info) -> bool {
    if (!S_ISREG(info.st_mode)) {
      throw UsageError(fmt::format("{}/{} is {}: --overwrite rewrites regular files only, and "
                                   "mpiwrite never writes through a link or into a device",
                                   dir, name, kind_of(info)));
    }
    if (info.st_nlink > 1) {
      throw UsageError(fmt::format("{}/{} has {} hard links: --overwrite would change the file "
                                   "under its other names too", dir, name, info.st_nlink));
    }
    if (config.cleanup) {
      throw UsageError(fmt::format(
          "{}/{} was not created by this run: --overwrite would rewrite it, but --cleanup removes "
          "only what this run created. Drop --cleanup, or choose another --dir", dir, name));
    }
    return true;
  });
}

}  // namespace

bool check_directory(const RunConfig& config) {
  const std::string& dir = config.dir;
  struct stat info {};
  if (::lstat(dir.c_str(), &info) == 0 && S_ISLNK(info.st_mode) && ::stat(dir.c_str(), &info) != 0) {
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
      throw UsageError(fmt::format("--dir {}: its parent directory does not exist (mpiwrite "
                                   "creates --dir but not its parents)", dir));
    }
    if (::access(checked.c_str(), W_OK | X_OK) != 0) throw IoError(errno, dir, "create directory");
    return true;
  } else if (errno == ENOTDIR) {
    throw UsageError(fmt::format("--dir {}: a part of its path is not a directory", dir));
  } else {
    throw IoError(errno, dir, "stat");
  }
  if (run_kind(config) == RunKind::Run) check_existing_targets(config, absolute_path(dir));
  return false;
}

PreparedDirectory prepare_directory(const RunConfig& config) {
  PreparedDirectory prepared;
  if (check_directory(config)) {
    if (::mkdir(config.dir.c_str(), 0755) != 0) {
      if (errno == ENOENT) {
        throw UsageError(fmt::format("--dir {}: its parent directory does not exist (mpiwrite "
                                     "creates --dir but not its parents)", config.dir));
      }
      throw IoError(errno, config.dir, "create directory");
    }
    prepared.created = true;
  }
  prepared.path = absolute_path(config.dir);
  prepared.filesystem = filesystem_type(prepared.path);
  return prepared;
}

void make_directory(const std::string& path, unsigned mode) {
  if (::mkdir(path.c_str(), mode) != 0) throw IoError(errno, path, "create directory");
}

namespace {

bool stopped(const std::atomic<int>* stop) {
  return stop != nullptr && stop->load(std::memory_order_relaxed) != 0;
}

// Unlinks one name; true if it was there. A name already gone is skipped.
bool unlink_name(int dir_fd, const std::string& dir, const char* name) {
  if (::unlinkat(dir_fd, name, 0) == 0) return true;
  if (errno != ENOENT) throw IoError(errno, dir + "/" + name, "remove");
  return false;
}

}  // namespace

std::uint64_t remove_files(const std::string& dir, const FilePattern& pattern,
                           const Progression& files, const std::atomic<int>* stop) {
  const UniqueFd dir_fd = open_directory(dir);
  FileNamer namer(pattern);
  std::uint64_t removed = 0;
  for (std::uint64_t i = 0; i < files.count && !stopped(stop); ++i) {
    if (unlink_name(dir_fd.get(), dir, namer.name(files.at(i)))) ++removed;
  }
  return removed;
}

std::uint64_t remove_created(const std::string& dir, const FilePattern& pattern,
                             const CreatedFiles& created, const std::atomic<int>* stop) {
  if (created.taken.empty()) return 0;
  const UniqueFd dir_fd = open_directory(dir);
  FileNamer namer(pattern);
  std::uint64_t removed = 0;
  for (const Progression& part : created.taken) {
    for (std::uint64_t i = 0; i < part.count && !stopped(stop); ++i) {
      const std::uint64_t index = part.at(i);
      if (created.excluded(index)) continue;
      if (unlink_name(dir_fd.get(), dir, namer.name(index))) ++removed;
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

// ".mpiwrite-<hex>-<hex>.trash": the scratch root of run id <hex>-<hex>, given up.
bool is_trash_name(std::string_view name) {
  if (!name.starts_with(kScratchPrefix) || !name.ends_with(kTrashSuffix)) return false;
  const std::string_view id =
      name.substr(kScratchPrefix.size(), name.size() - kScratchPrefix.size() - kTrashSuffix.size());
  const std::size_t dash = id.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash + 1 == id.size()) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!(hex || i == dash)) return false;
  }
  return true;
}
}  // namespace

std::string trash_path(const std::string& scratch_root) {
  return scratch_root + std::string(kTrashSuffix);
}

std::vector<std::string> find_trash(const std::string& dir) {
  std::vector<std::string> found;
  std::unique_ptr<DIR, CloseDir> stream(::opendir(dir.c_str()));
  if (!stream) return found;  // nothing to tidy is no reason to fail a run
  while (const dirent* entry = ::readdir(stream.get())) {
    if (!is_trash_name(entry->d_name)) continue;
    struct stat info {};
    // A real scratch root is a directory of this user's with mode 0700 (make_scratch_directory):
    // anything else that merely has the name is left alone.
    if (::fstatat(::dirfd(stream.get()), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISDIR(info.st_mode) && info.st_uid == ::geteuid() && (info.st_mode & 07777) == 0700) {
      found.push_back(dir + "/" + entry->d_name);
    }
  }
  return found;
}

}  // namespace mpiwrite
