#include "mpiwrite/sys/report_output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <stdexcept>
#include <vector>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/interrupt.hpp"
#include "mpiwrite/sys/output_path.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

namespace {

constexpr const char* kStandardOutput = "standard output";

bool writes_to_stdout(const std::ostream& out) { return out.rdbuf() == std::cout.rdbuf(); }

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The temporary file of a replacement, in the directory open as `dir_fd`: removed unless it was
// renamed over the target.
class TemporaryFile {
 public:
  TemporaryFile(const std::string& given, int dir_fd) : dir_fd_(dir_fd) {
    // A short fixed name, so a long FILE still leaves room; O_EXCL never reuses a name.
    for (int attempt = 0; !fd_; ++attempt) {
      name_ = fmt::format(".mpiwrite-report-{}-{}.tmp", ::getpid(), attempt);
      fd_ = UniqueFd(::openat(dir_fd_, name_.c_str(),
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
      if (!fd_ && (errno != EEXIST || attempt == 100)) {
        throw IoError(errno, given, "create a temporary file");
      }
    }
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    if (!name_.empty()) ::unlinkat(dir_fd_, name_.c_str(), 0);
  }
  int fd() const { return fd_.get(); }
  int close() { return fd_.close(); }
  const std::string& name() const { return name_; }
  void keep() { name_.clear(); }  // renamed: nothing to remove

 private:
  int dir_fd_;
  std::string name_;
  UniqueFd fd_;
};

void check(int error, const std::string& given, const char* operation) {
  if (error != 0) throw IoError(error, given, operation);
}

int errno_unless(bool ok) { return ok ? 0 : errno; }

// Like a shell's `> FILE`: the device, FIFO or file `name` leads to in the directory open as
// `dir_fd` (AT_FDCWD: `name` is a path), truncated if it is one.
// Opens what stands at `name` for writing in place. A FIFO with no reader would block the
// open, and SIGINT, SIGTERM and SIGHUP restart it (SA_RESTART): the run then never ended but
// by SIGKILL. So the open does not block (O_NONBLOCK: ENXIO while no reader is there), is
// tried again every 10 ms until a reader comes or a signal does, and the descriptor blocks
// again once open.
UniqueFd open_in_place(const std::string& given, int dir_fd, const std::string& name) {
  const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
  for (;;) {
    UniqueFd fd(::openat(dir_fd, name.c_str(), flags | O_NONBLOCK, 0644));
    if (fd) {
      const int status = ::fcntl(fd.get(), F_GETFL);
      if (status < 0 || ::fcntl(fd.get(), F_SETFL, status & ~O_NONBLOCK) != 0) {
        throw IoError(errno, given, "open");
      }
      return fd;
    }
    if (errno != ENXIO) throw IoError(errno, given, "open");
    if (const int signal = interrupt_signal().load(); signal != 0) {
      throw IoError(EINTR, given,
                    fmt::format("open (no reader of the FIFO came before signal {})", signal));
    }
    ::usleep(10'000);
  }
}

void write_in_place(const std::string& given, int dir_fd, const std::string& name,
                    const std::string& text) {
  UniqueFd fd = open_in_place(given, dir_fd, name);
  check(write_all(fd.get(), text.data(), text.size()), given, "write");
  struct stat info {};
  if (::fstat(fd.get(), &info) == 0 && S_ISREG(info.st_mode)) {
    check(errno_unless(::fsync(fd.get()) == 0), given, "fsync");
  }
  check(fd.close(), given, "close");
}

// `name` in the directory open as `dir_fd` replaced by a file holding `text`: the temporary
// file, the rename and the directory's fsync all go through the descriptor, never a path.
void replace_file(const std::string& given, int dir_fd, const std::string& name,
                  const std::string& text) {
  struct stat old {};
  const bool existing = ::fstatat(dir_fd, name.c_str(), &old, 0) == 0 && S_ISREG(old.st_mode);
  TemporaryFile temporary(given, dir_fd);
  check(write_all(temporary.fd(), text.data(), text.size()), given, "write");
  if (existing) {
    // Root replacing another user's report must not take it over (chown first: it clears
    // set-id bits, which the chmod then restores as they were).
    if (::geteuid() == 0 && (old.st_uid != ::geteuid() || old.st_gid != ::getegid())) {
      check(errno_unless(::fchown(temporary.fd(), old.st_uid, old.st_gid) == 0), given, "chown");
    }
    check(errno_unless(::fchmod(temporary.fd(), old.st_mode & 07777) == 0), given, "chmod");
  }
  check(errno_unless(::fsync(temporary.fd()) == 0), given, "fsync");
  check(temporary.close(), given, "close");
  if (::renameat(dir_fd, temporary.name().c_str(), dir_fd, name.c_str()) != 0) {
    // A sticky directory (/tmp) refuses to replace another user's file that the user may
    // still write: then write it in place, as a shell's `>` would, rather than lose the report.
    const int error = errno;
    if (existing && (error == EPERM || error == EACCES) &&
        ::faccessat(dir_fd, name.c_str(), W_OK, 0) == 0) {
      return write_in_place(given, dir_fd, name, text);  // the temporary file goes with `temporary`
    }
    check(error, given, "rename");
  }
  temporary.keep();
  // The rename itself is durable once the directory is synced; some file systems cannot
  // (EINVAL), which leaves the rename as durable as they make it; a directory held by O_PATH
  // (one the user cannot list) cannot be synced (EBADF).
  if (::fsync(dir_fd) != 0 && errno != EINVAL && errno != EBADF) {
    throw IoError(errno, given, "fsync directory");
  }
}

// The same, in the directory `target`'s path leads to now (nothing held: a unit test, a tool).
void replace_file(const std::string& given, const std::string& target, const std::string& text) {
  const UniqueFd dir(::open(directory_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir) throw IoError(errno, given, "create a temporary file");
  replace_file(given, dir.get(), target.substr(target.find_last_of('/') + 1), text);
}

// In the held directory: a regular file or nothing at the name is replaced; anything else put
// there since the check (a FIFO, a device, a link) is written in place, never replaced.
void write_into_held(const std::string& given, const HeldOutputDirectory& held,
                     const std::string& text) {
  struct stat now {};
  const int fd = held.fd.get();
  if (::fstatat(fd, held.name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 || S_ISREG(now.st_mode)) {
    replace_file(given, fd, held.name, text);
  } else if (S_ISDIR(now.st_mode)) {
    throw IoError(EISDIR, given, "open");
  } else {
    write_in_place(given, fd, held.name, text);
  }
}

bool is_stdout_file(const std::string& path) {
  struct stat file {
  }, out{};
  return ::stat(path.c_str(), &file) == 0 && ::fstat(STDOUT_FILENO, &out) == 0 &&
         file.st_dev == out.st_dev && file.st_ino == out.st_ino;
}

}  // namespace

void write_standard_output(const std::string& text, std::ostream& out) {
  if (writes_to_stdout(out)) {
    std::cout.flush();  // anything iostreams still hold goes first
    check(write_all(STDOUT_FILENO, text.data(), text.size()), kStandardOutput, "write");
    return;
  }
  out << text << std::flush;
  if (!out) throw IoError(EIO, kStandardOutput, "write");
}

void write_output_file(const std::string& file, const std::string& text,
                       const HeldOutputDirectory& held, const std::string& option) {
  if (held.held()) {
    write_into_held(file, held, text);
    expect_output_directory(held, option + " " + file);
    return;
  }
  OutputTarget target;
  try {
    target = follow_output(file);
  } catch (
      const UsageError& e) {  // checked before the run; whatever changed since is an I/O failure
    throw std::runtime_error(e.what());
  }
  using Kind = OutputTarget::Kind;
  if (target.kind == Kind::Directory) throw IoError(EISDIR, file, "open");
  if (target.kind == Kind::Socket) throw IoError(ENXIO, file, "open");
  if (target.replaced()) {
    replace_file(file, target.file, text);
  } else {
    write_in_place(file, AT_FDCWD, target.file, text);
  }
}

void publish_report_files(const std::vector<ReportFile>& files,
                          const std::string& standard_output_text, std::ostream& out) {
  std::vector<std::string> failures;
  const auto attempt = [&](auto&& write) {
    try {
      write();
    } catch (const std::exception& e) {
      failures.emplace_back(e.what());
    }
  };
  // The files first: standard output may be a pipe that nobody drains any more (a launcher
  // that got a signal), and a write there can block until the job is killed.
  for (const ReportFile& f : files) {
    if (f.same_as_standard_output && writes_to_stdout(out) && is_stdout_file(f.file)) continue;
    const HeldOutputDirectory none;
    attempt([&] { write_output_file(f.file, *f.text, f.held ? *f.held : none, f.option); });
  }
  attempt([&] { write_standard_output(standard_output_text, out); });
  if (!failures.empty()) throw std::runtime_error(fmt::format("{}", fmt::join(failures, "; ")));
}

void publish_report_text(const std::string& text, std::ostream& out, const std::string& file,
                         const HeldOutputDirectory& held) {
  std::vector<ReportFile> files;
  if (!file.empty()) files.push_back({file, "-o", &text, &held, true});
  publish_report_files(files, text, out);
}

void write_new_file(const std::string& path, const std::string& text, int dir_fd) {
  const std::size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  const int fd =
      dir_fd >= 0 ? ::openat(dir_fd, name.c_str(), flags, 0644) : ::open(path.c_str(), flags, 0644);
  if (fd < 0) throw IoError(errno, path, "open");
  UniqueFd file(fd);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(file.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(errno, path, "write");
    done += static_cast<std::size_t>(n);
  }
  if (const int error = file.close(); error != 0) throw IoError(error, path, "close");
}

}  // namespace mpiwrite
