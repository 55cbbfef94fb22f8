// Probing io_uring support: the reasons are worded for the person at the terminal, who must
// know whether to change the kernel, the container's seccomp profile or a sysctl.
#include "mpiwrite/engines/uring_support.hpp"

#include <liburing.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>

#include <fmt/format.h>

namespace mpiwrite {

namespace {

std::string read_sysctl(const char* path) {
  std::ifstream in(path);
  std::string value;
  in >> value;
  return value;
}

std::string setup_failure(int error) {
  switch (error) {
    case ENOSYS:
      return "this kernel has no io_uring (io_uring_setup: function not implemented; Linux 5.1+ "
             "built with CONFIG_IO_URING, or a seccomp filter that answers ENOSYS)";
    case EPERM: {
      const std::string disabled = read_sysctl("/proc/sys/kernel/io_uring_disabled");
      if (disabled == "2")
        return "io_uring is disabled on this machine (kernel.io_uring_disabled=2)";
      if (disabled == "1") {
        return "io_uring is restricted to the group kernel.io_uring_group and this process is not "
               "in it (kernel.io_uring_disabled=1)";
      }
      return "io_uring_setup is not permitted (a seccomp filter blocks it, as container runtimes' "
             "default profiles do)";
    }
    case ENOMEM:
      return "io_uring_setup: cannot allocate memory (the locked-memory limit, ulimit -l, may be "
             "too low on kernels before 5.12)";
    default:
      return fmt::format("io_uring_setup failed: {}", std::strerror(error));
  }
}

struct RingGuard {
  io_uring* ring;
  ~RingGuard() { io_uring_queue_exit(ring); }
};

}  // namespace

std::span<const UringOperation> uring_operations_of(Phase phase) {
  static constexpr UringOperation kWrite[] = {{IORING_OP_OPENAT, "OPENAT", "5.6"},
                                              {IORING_OP_WRITE, "WRITE", "5.6"},
                                              {IORING_OP_FSYNC, "FSYNC", "5.1"},
                                              {IORING_OP_TIMEOUT, "TIMEOUT", "5.4"},
                                              {IORING_OP_CLOSE, "CLOSE", "5.6"}};
  static constexpr UringOperation kStat[] = {{IORING_OP_STATX, "STATX", "5.6"}};
  static constexpr UringOperation kRead[] = {{IORING_OP_OPENAT, "OPENAT", "5.6"},
                                             {IORING_OP_READ, "READ", "5.6"},
                                             {IORING_OP_CLOSE, "CLOSE", "5.6"}};
  static constexpr UringOperation kUnlink[] = {{IORING_OP_UNLINKAT, "UNLINKAT", "5.11"}};
  static constexpr UringOperation kMkdir[] = {{IORING_OP_MKDIRAT, "MKDIRAT", "5.15"}};
  switch (phase) {
    case Phase::Write:
      return kWrite;
    case Phase::Stat:
      return kStat;
    case Phase::Read:
      return kRead;
    case Phase::Remove:
    case Phase::TreeRemove:
      return kUnlink;
    case Phase::TreeCreate:
      return kMkdir;
  }
  return {};
}

std::string uring_lacks(Phase phase, const UringOperation& missing) {
  return fmt::format(
      "the kernel's io_uring lacks the {} operation, which the {} phase needs "
      "(Linux {} or later)",
      missing.name, phase_name(phase), missing.since);
}

std::string uring_unavailable_reason() { return uring_unavailable_reason(PhaseSet{Phase::Write}); }

std::string uring_unavailable_reason(const PhaseSet& phases) {
  io_uring ring{};
  io_uring_params params{};
  if (const int r = io_uring_queue_init_params(8, &ring, &params); r < 0) return setup_failure(-r);
  RingGuard guard{&ring};
  if ((params.features & IORING_FEAT_CQE_SKIP) == 0) {
    return "the kernel's io_uring lacks CQE_SKIP_SUCCESS (needs Linux 5.17 or later)";
  }
  const std::unique_ptr<io_uring_probe, void (*)(io_uring_probe*)> probe(
      io_uring_get_probe_ring(&ring), io_uring_free_probe);
  if (!probe) return "the kernel cannot report its io_uring opcodes (needs Linux 5.6 or later)";
  // The write phase always runs (the run creates what the others use).
  for (const Phase phase : kAllPhases) {
    if (phase != Phase::Write && !phases.has(phase)) continue;
    for (const UringOperation& op : uring_operations_of(phase)) {
      if (!io_uring_opcode_supported(probe.get(), op.opcode)) return uring_lacks(phase, op);
    }
  }
  if (const int r = io_uring_register_files_sparse(&ring, 1); r < 0) {
    return fmt::format(
        "cannot register a sparse fixed-file table for direct descriptors: {} "
        "(needs Linux 5.19 or later)",
        std::strerror(-r));
  }
  return {};
}

std::string fixed_file_limit_problem(unsigned table) {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY ||
      table <= files.rlim_cur) {
    return {};
  }
  return fmt::format(
      "ulimit -n (RLIMIT_NOFILE) is {}, below the {} fixed files a writer thread's "
      "ring registers (one per file in flight: --queue-depth, or fewer when the "
      "thread has fewer files); raise ulimit -n or lower --queue-depth",
      files.rlim_cur, table);
}

}  // namespace mpiwrite
