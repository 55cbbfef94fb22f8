#pragma once
// RAII file descriptor and the few system-call wrappers the writers need. Failures throw
// IoError carrying the path and errno.

#include <cstddef>
#include <string>
#include <utility>

struct statx;  // <sys/stat.h>'s, for sys::statx

namespace mpiwrite {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  ~UniqueFd();

  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }  // the caller owns it now
  explicit operator bool() const { return fd_ >= 0; }
  // Closes now and reports close()'s error, which on NFS and full disks can be the first
  // sign that data was lost. Returns 0 or the errno value.
  int close();

 private:
  int fd_ = -1;
};

// Direct system calls for the per-file hot path. glibc's openat/write/close/fsync are
// cancellation points: in a multi-threaded process (every MPI rank is one) each call is wrapped
// in enabling and disabling asynchronous cancellation. mpiwrite never cancels a thread, so it
// enters the kernel directly; the system calls themselves are the same. -1 and errno on failure.
namespace sys {
int openat(int dir_fd, const char* name, int flags, unsigned mode);
long write(int fd, const char* data, std::size_t size);
int close(int fd);
int fsync(int fd);
// The other phases' per-item calls (stat, read, remove, the tree's mkdir and rmdir).
int statx(int dir_fd, const char* name, int flags, unsigned mask, struct ::statx* buffer);
long read(int fd, char* data, std::size_t size);
int unlinkat(int dir_fd, const char* name, int flags);
int mkdirat(int dir_fd, const char* name, unsigned mode);
}  // namespace sys

// Writes all `size` bytes, retrying on EINTR and partial writes. Returns 0 or an errno value
// (ENOSPC for a write that made no progress).
int write_all(int fd, const char* data, std::size_t size);

// --overwrite: opens `name` in `dir_fd` for writing as a regular file of its own, and empties
// it. Not O_TRUNC, which would empty whatever stands at the name (a hard link to a file
// outside --dir, planted during the run) before anything could be checked: open (creating it
// if missing; O_NOFOLLOW refuses a link, O_NONBLOCK keeps a FIFO from blocking), fstat, then
// ftruncate. Returns the descriptor; -1 and errno for a failed system call; -1 and errno 0
// when the name is not a regular file with a single link (closed again, left untouched).
int open_for_overwrite(int dir_fd, const char* name, bool cloexec);
inline constexpr const char* kNotOwnFile =
    "not a regular file of its own (a hard link, FIFO or device put there during the run); "
    "--overwrite never writes through it";

// Removes `name` in `dir_fd` if it is still the file open as `fd` (same device and inode), so
// a failed file is removed but never something put at its name since; fd < 0 (already
// closed, or a direct descriptor of io_uring): removes the name only if it is a regular file
// with one link (a link, FIFO, device or directory put there stays). Errors are ignored: this
// is the clean-up of a failure.
void unlink_if_same(int dir_fd, const char* name, int fd);

// Opens a directory for openat(); throws IoError.
UniqueFd open_directory(const std::string& path);

}  // namespace mpiwrite
