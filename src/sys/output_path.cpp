#include "mpiwrite/sys/output_path.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/file_namer.hpp"

namespace mpiwrite {

namespace {

constexpr int kMaxLinks = 40;  // the kernel's limit (ELOOP)

std::string describe(int error) { return std::generic_category().message(error); }

// `named` is the output as the user gave it, with its option: "--output r.json", "--csv r.csv".
[[noreturn]] void refuse(const std::string& named, const std::string& why) {
  throw UsageError(fmt::format("{}: {}", named, why));
}

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

// procfs and sysfs hold kernel interfaces: their links name kernel objects (/proc/self/fd/1
// -> "pipe:[123]"), and their files can be written but never replaced by another file.
bool on_kernel_fs(const std::string& dir) {
  struct statfs info {};
  return ::statfs(dir.c_str(), &info) == 0 &&
         (info.f_type == PROC_SUPER_MAGIC || info.f_type == SYSFS_MAGIC);
}

// Where a symbolic link leads, as a path usable from the working directory.
std::string link_target(const std::string& given, const std::string& link) {
  std::string target(PATH_MAX, '\0');
  const ssize_t length = ::readlink(link.c_str(), target.data(), target.size());
  if (length < 0) refuse(given, describe(errno));
  target.resize(static_cast<std::size_t>(length));
  return target.starts_with('/') ? target : parent_of(link) + "/" + target;
}

OutputTarget::Kind kind_of(mode_t mode, const std::string& file) {
  using Kind = OutputTarget::Kind;
  if (S_ISDIR(mode)) return Kind::Directory;
  if (S_ISSOCK(mode)) return Kind::Socket;
  if (S_ISREG(mode) && !on_kernel_fs(parent_of(file))) return Kind::Regular;
  return Kind::Special;
}

// stat() and the path's identity, if it exists (following links).
std::optional<struct stat> stat_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  return info;
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// The absolute path with every symbolic link and "." / ".." resolved, as far as the path
// exists; the rest is appended as written. Without a trailing '/'.
std::optional<std::string> resolved(const std::string& path) {
  std::error_code error;
  // absolute first: weakly_canonical leaves a relative path none of which exists relative.
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  if (error) return std::nullopt;
  std::string result = std::filesystem::weakly_canonical(absolute, error).string();
  if (error || result.empty()) return std::nullopt;
  while (result.size() > 1 && result.ends_with('/')) result.pop_back();
  return result;
}

// The two paths name the same place: the same inode when both exist (any spelling, bind
// mounts included), otherwise the same resolved path.
bool same_place(const std::string& a, const std::string& b) {
  const auto sa = stat_of(a), sb = stat_of(b);
  if (sa && sb) return same_file(*sa, *sb);
  const auto ra = resolved(a), rb = resolved(b);
  return ra && rb && *ra == *rb;
}

// The directory a new file (or the temporary file of a replacement) is created in.
void require_directory(const std::string& given, const std::string& dir) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) {
    if (errno == ENOENT) {
      refuse(given,
             fmt::format("its directory {} does not exist (mpiwrite does not create it)", dir));
    }
    if (errno == ENOTDIR) refuse(given, "a part of its path is not a directory");
    refuse(given, fmt::format("{}: {}", dir, describe(errno)));
  }
  if (!S_ISDIR(info.st_mode)) refuse(given, "a part of its path is not a directory");
  if (on_kernel_fs(dir)) refuse(given, fmt::format("no file can be created in {}", dir));
  if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
    if (errno == EROFS) refuse(given, fmt::format("{} is on a read-only file system", dir));
    if (errno == EACCES) refuse(given, fmt::format("no permission to create a file in {}", dir));
    refuse(given, fmt::format("{}: {}", dir, describe(errno)));
  }
}

// A device, FIFO or kernel file written in place.
void require_writable(const std::string& given, const std::string& file) {
  if (::faccessat(AT_FDCWD, file.c_str(), W_OK, AT_EACCESS) != 0) {
    if (errno == EROFS) refuse(given, "it is on a read-only file system");
    if (errno == EACCES) refuse(given, "no permission to write to it");
    refuse(given, describe(errno));
  }
}

void require_usable(const std::string& given, const OutputTarget& t) {
  using Kind = OutputTarget::Kind;
  const std::string where =
      t.through_link ? fmt::format(" (where its links lead: {})", t.file) : "";
  switch (t.kind) {
    case Kind::Directory:
      refuse(given, "is a directory" + where);
    case Kind::Socket:
      refuse(given, "is a socket" + where);
    case Kind::Absent:
    case Kind::Regular:
      require_directory(given, parent_of(t.file));
      return;
    case Kind::Special:
      require_writable(given, t.file);
      return;
    case Kind::ProcLink: {
      const auto info = stat_of(t.file);
      if (!info) refuse(given, describe(errno));
      if (S_ISDIR(info->st_mode)) refuse(given, "is a directory");
      if (S_ISSOCK(info->st_mode)) refuse(given, "is a socket");
      require_writable(given, t.file);
      return;
    }
  }
}

// With a layout, -o (or standard output) may not be, or be inside, a directory of the layout:
// the report would replace a data file, or could not be written at all after the run.
void refuse_layout_directory(const RunConfig& c, const std::string& given, const std::string& at,
                             const std::string& inside) {
  if (!has_layout_directories(c)) return;
  const std::string below = at.substr(inside.size() + 1);
  const std::string first = below.substr(0, below.find('/'));
  if (!is_layout_directory_name(first)) return;
  if (first == below) {
    refuse(given, fmt::format("is {}, a directory this run may create for --layout or "
                              "--files-per-dir in --dir {}",
                              first, c.dir));
  }
  refuse(given, fmt::format("is inside {}, a directory of --layout or --files-per-dir in --dir "
                            "{}, where this run writes its files",
                            first, c.dir));
}

struct FutureDir {
  std::string path;  // as given
  bool created;      // absent now: mpiwrite creates it (and --cleanup removes it)
};

// --dir as the run will have it, or nothing when prepare_directory will refuse it anyway.
std::optional<FutureDir> future_dir(const std::string& dir) {
  struct stat info {};
  if (::stat(dir.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode)) return std::nullopt;
    return FutureDir{dir, false};
  }
  if (errno != ENOENT || ::lstat(dir.c_str(), &info) == 0) return std::nullopt;  // dangling link
  return FutureDir{dir, true};
}

// The directory `t` is replaced in, opened now; nothing when it is written in place.
HeldOutputDirectory hold(const OutputTarget& t) {
  if (!t.replaced()) return {};
  return hold_directory_for(parent_of(t.file), base_of(t.file));
}

}  // namespace

HeldOutputDirectory hold_directory_for(const std::string& dir_path, const std::string& name) {
  HeldOutputDirectory held;
  held.fd = UniqueFd(::open(dir_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  // A directory the user may write and search but not list (-wx) takes a report as before:
  // held by O_PATH then, which serves openat and renameat (its fsync is skipped: EBADF).
  if (!held.fd && errno == EACCES) {
    held.fd = UniqueFd(::open(dir_path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  }
  if (!held.fd) throw IoError(errno, dir_path, "open directory");
  held.identity = identity_of(held.fd.get(), dir_path);
  held.path = dir_path;
  held.name = name;
  return held;
}

HeldOutputDirectory hold_parent_of(const std::string& dir, const DirectoryIdentity& identity) {
  HeldOutputDirectory held = hold_directory_for(parent_of(dir), "");
  expect_same_directory(held.fd.get(), base_of(dir), identity, dir);
  return held;
}

HeldOutputDirectory hold_output_directory(const std::string& file) {
  return hold(follow_output(file));
}

void expect_output_directory(const HeldOutputDirectory& held, const std::string& what) {
  if (!held.held()) return;
  // By the path, following its links, as it was opened: a directory reached through a link
  // the user made is still theirs; one renamed, removed or put behind a new link is not.
  struct stat info {};
  if (::stat(held.path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
      DirectoryIdentity{info.st_dev, info.st_ino} == held.identity) {
    return;
  }
  throw std::runtime_error(fmt::format(
      "{}: its directory {} is no longer the directory it named when the run began (renamed, "
      "removed or replaced during the run); the report was written into the directory it named "
      "when the run began, wherever that is now",
      what, held.path));
}

OutputTarget follow_output(const std::string& file) {
  return follow_output_named(file, "--output " + file);
}

OutputTarget follow_output_named(const std::string& file, const std::string& given) {
  OutputTarget t;
  t.file = file;
  for (int hop = 0; hop <= kMaxLinks; ++hop) {
    struct stat info {};
    if (::lstat(t.file.c_str(), &info) != 0) {
      if (errno == ENOTDIR) refuse(given, "a part of its path is not a directory");
      if (errno != ENOENT) refuse(given, describe(errno));
      if (t.file.ends_with('/'))
        refuse(given, fmt::format("{} names a directory that does not exist", t.file));
      t.kind = OutputTarget::Kind::Absent;
      return t;
    }
    if (!S_ISLNK(info.st_mode)) {
      t.kind = kind_of(info.st_mode, t.file);
      return t;
    }
    t.through_link = true;
    if (on_kernel_fs(parent_of(t.file))) {
      t.kind = OutputTarget::Kind::ProcLink;
      return t;
    }
    t.file = link_target(given, t.file);
  }
  refuse(given, describe(ELOOP));
}

void check_standard_output(const RunConfig& c) {
  struct stat out {};
  if (::fstat(STDOUT_FILENO, &out) != 0 || !S_ISREG(out.st_mode)) return;
  std::error_code error;
  const std::filesystem::path file = std::filesystem::read_symlink("/proc/self/fd/1", error);
  if (error || !file.is_absolute()) return;
  const auto dir = future_dir(c.dir);
  if (!dir) return;
  const auto at = resolved(file.string()), inside = resolved(dir->path);
  if (at && inside && at->starts_with(*inside + "/") && has_layout_directories(c)) {
    const std::string below = at->substr(inside->size() + 1);
    if (is_layout_directory_name(below.substr(0, below.find('/')))) {
      throw UsageError(
          fmt::format("standard output is {}, inside a directory of --layout or "
                      "--files-per-dir where this run writes its files (--dir {}): "
                      "the report would be written into it",
                      file.string(), c.dir));
    }
  }
  if (!same_place(parent_of(file.string()), dir->path)) return;
  if (generates(parse_pattern(c.pattern), base_of(file.string()), c.files)) {
    throw UsageError(
        fmt::format("standard output is {}, a file this run writes (--dir {}, "
                    "--pattern {}): the report would be written into it",
                    file.string(), c.dir, c.pattern));
  }
}

HeldOutputDirectory check_output_path(const RunConfig& c) {
  if (c.output.empty()) return {};
  return check_output_path(c, ReportOutput{c.format, c.output, "--output"});
}

HeldOutputDirectory check_output_path(const RunConfig& c, const ReportOutput& output) {
  const std::string given = output.option + " " + output.path;
  const OutputTarget t = follow_output_named(output.path, given);
  // The file standard output already writes to gets the report once, through standard output
  // (report_output.hpp): nothing to open at the end. Another format there would be the
  // replaced file's, while standard output goes on writing the old one: refused.
  struct stat out_info {};
  const auto info = stat_of(t.file);
  if (info && ::fstat(STDOUT_FILENO, &out_info) == 0 && same_file(*info, out_info)) {
    if (output.format == c.format || !S_ISREG(info->st_mode)) return {};
    refuse(given, fmt::format("is standard output's file, which gets the {} report",
                              to_string(c.format)));
  }

  // A /proc link (/dev/fd/3) to a regular file is checked as the path the kernel gives for it,
  // so that it cannot name a data file either.
  std::string file = t.file;
  bool checkable = t.kind != OutputTarget::Kind::ProcLink;
  if (!checkable && info && S_ISREG(info->st_mode)) {
    std::error_code error;
    const std::filesystem::path points_to = std::filesystem::read_symlink(t.file, error);
    checkable = !error && points_to.is_absolute();
    if (checkable) file = points_to.string();
  }
  if (const auto dir = future_dir(c.dir); dir && checkable) {
    if (same_place(file, dir->path)) refuse(given, fmt::format("is --dir {} itself", c.dir));
    const std::string parent = parent_of(file);
    const bool in_dir = same_place(parent, dir->path);
    if (in_dir && generates(parse_pattern(c.pattern), base_of(file), c.files)) {
      refuse(given, fmt::format("is {}, a file this run writes (--dir {}, --pattern {}); the "
                                "report would replace it",
                                base_of(file), c.dir, c.pattern));
    }
    const auto at = resolved(file), inside = resolved(dir->path);
    if (at && inside && at->starts_with(*inside + "/"))
      refuse_layout_directory(c, given, *at, *inside);
    if (dir->created && c.cleanup && at && inside && at->starts_with(*inside + "/")) {
      refuse(given, fmt::format("is inside --dir {}, which mpiwrite creates and --cleanup "
                                "removes before the report is written",
                                c.dir));
    }
    if (dir->created && in_dir) {  // mpiwrite creates --dir (writable) before the report
      HeldOutputDirectory later;
      later.deferred = t.replaced();
      return later;
    }
  }
  require_usable(given, t);
  try {
    return hold(t);
  } catch (const IoError& e) {  // checked usable just now: a directory that went since
    refuse(given, e.what());
  }
}

}  // namespace mpiwrite
