#include "mpiwrite/sys/posix_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {

namespace sys {

int openat(int dir_fd, const char* name, int flags, unsigned mode) {
  return static_cast<int>(::syscall(SYS_openat, dir_fd, name, flags, mode));
}

long write(int fd, const char* data, std::size_t size) {
  return ::syscall(SYS_write, fd, data, size);
}

int close(int fd) { return static_cast<int>(::syscall(SYS_close, fd)); }

int fsync(int fd) { return static_cast<int>(::syscall(SYS_fsync, fd)); }

// glibc's statx, not the bare system call: it is no cancellation point, and on a kernel
// without statx (before 4.11, still on some clusters) glibc answers ENOSYS with fstatat.
int statx(int dir_fd, const char* name, int flags, unsigned mask, struct ::statx* buffer) {
  return ::statx(dir_fd, name, flags, mask, buffer);
}

long read(int fd, char* data, std::size_t size) { return ::syscall(SYS_read, fd, data, size); }

int unlinkat(int dir_fd, const char* name, int flags) {
  return static_cast<int>(::syscall(SYS_unlinkat, dir_fd, name, flags));
}

int mkdirat(int dir_fd, const char* name, unsigned mode) {
  return static_cast<int>(::syscall(SYS_mkdirat, dir_fd, name, mode));
}

}  // namespace sys

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) sys::close(fd_);
}

int UniqueFd::close() {
  const int fd = std::exchange(fd_, -1);
  // close() is not retried on EINTR: on Linux the descriptor is released either way.
  return fd >= 0 && sys::close(fd) != 0 ? errno : 0;
}

int write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const long written = sys::write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (written == 0) return ENOSPC;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return 0;
}

int open_for_overwrite(int dir_fd, const char* name, bool cloexec) {
  const int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | (cloexec ? O_CLOEXEC : 0);
  UniqueFd fd(sys::openat(dir_fd, name, flags, 0644));
  if (!fd) return -1;
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return -1;
  if (!S_ISREG(info.st_mode) || info.st_nlink != 1) {
    errno = 0;
    return -1;
  }
  if (::ftruncate(fd.get(), 0) != 0) return -1;
  return fd.release();  // O_NONBLOCK stays: Linux ignores it for regular files
}

void unlink_if_same(int dir_fd, const char* name, int fd) {
  struct stat at_name {};
  if (::fstatat(dir_fd, name, &at_name, AT_SYMLINK_NOFOLLOW) != 0) return;
  if (fd >= 0) {
    struct stat open_file {};
    if (::fstat(fd, &open_file) != 0 || open_file.st_dev != at_name.st_dev ||
        open_file.st_ino != at_name.st_ino) {
      return;
    }
  } else if (!S_ISREG(at_name.st_mode) || at_name.st_nlink != 1) {
    return;  // not the file this run wrote, whatever it is
  }
  ::unlinkat(dir_fd, name, 0);
}

UniqueFd open_directory(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd) throw IoError(errno, path, "open directory");
  return fd;
}

}  // namespace mpiwrite
