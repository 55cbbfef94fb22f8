#include "mpiwrite/sys/posix_file.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string_view>

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

std::string filesystem_name(unsigned long magic) {
  switch (magic) {
    case 0xEF53: return "ext4";  // ext2/3/4 share the magic
    case 0x01021994: return "tmpfs";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x6969: return "nfs";
    case 0x0BD00BD0: return "lustre";
    case 0x47504653: return "gpfs";
    case 0x19830326: return "beegfs";
    case 0x00C36400: return "ceph";
    case 0x2FC12FC1: return "zfs";
    case 0x794C7630: return "overlayfs";
    case 0x65735546: return "fuse";
    case 0x73717368: return "squashfs";
    case 0x858458F6: return "ramfs";
    default: return fmt::format("0x{:x}", magic);
  }
}

std::string filesystem_type(const std::string& path) {
  struct statfs info {};
  if (::statfs(path.c_str(), &info) != 0) throw IoError(errno, path, "statfs");
  return filesystem_name(static_cast<unsigned long>(info.f_type));
}

}  // namespace mpiwrite

namespace mpiwrite {

long peak_rss_kib() {
  struct rusage usage {};
  return ::getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : 0;
}

std::string kernel_boot_id() {
  std::string id;
  // A test aid: emulated hosts (network namespaces) share one kernel, so only this makes
  // their ranks measure clock offsets, which are then known to be 0.
  const char* by_host = std::getenv("MPIWRITE_CLOCK_BY_HOST");
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  if (!(by_host && *by_host == '1') && in && std::getline(in, id) && !id.empty()) return id;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return std::string("host:") + host;
}

int launcher_binding() {
  const char* policy = std::getenv("OMPI_MCA_hwloc_base_binding_policy");
  if (policy && std::string_view(policy) == "none") return 0;
  const char* bound = std::getenv("OMPI_MCA_orte_bound_at_launch");
  if ((bound && std::string_view(bound) == "1") || policy) return 1;
  return -1;
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

}  // namespace mpiwrite
