#include "mpiwrite/sys/system_facts.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string_view>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/launcher_binding.hpp"

namespace mpiwrite {

std::string filesystem_name(unsigned long magic) {
  switch (magic) {
    case 0xEF53:
      return "ext4";  // ext2/3/4 share the magic
    case 0x01021994:
      return "tmpfs";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0x6969:
      return "nfs";
    case 0x0BD00BD0:
      return "lustre";
    case 0x47504653:
      return "gpfs";
    case 0x19830326:
      return "beegfs";
    case 0x00C36400:
      return "ceph";
    case 0x2FC12FC1:
      return "zfs";
    case 0x794C7630:
      return "overlayfs";
    case 0x65735546:
      return "fuse";
    case 0x73717368:
      return "squashfs";
    case 0x858458F6:
      return "ramfs";
    default:
      return fmt::format("0x{:x}", magic);
  }
}

std::string filesystem_type(const std::string& path) {
  struct statfs info {};
  if (::statfs(path.c_str(), &info) != 0) throw IoError(errno, path, "statfs");
  return filesystem_name(static_cast<unsigned long>(info.f_type));
}

std::size_t descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
  if (limit.rlim_cur == RLIM_INFINITY) return std::size_t{1} << 20;
  return static_cast<std::size_t>(limit.rlim_cur);
}

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
  return launcher_binding([](const char* name) -> const char* { return std::getenv(name); });
}

int usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return ::sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

}  // namespace mpiwrite
