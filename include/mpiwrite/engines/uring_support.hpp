#pragma once
// Whether this process can use io_uring the way the uring engine does, and why not.
// `--engine uring` must fail (exit 2) naming the reason, never quietly run the posix engine.

#include <span>
#include <string>
#include <vector>

#include "mpiwrite/core/phase.hpp"

namespace mpiwrite {

// An io_uring operation the uring engine submits: its opcode (IORING_OP_*), its name without
// the prefix, and the first Linux release that has it.
struct UringOperation {
  int opcode;
  const char* name;
  const char* since;
};

// What the uring engine submits for `phase`: write OPENAT, WRITE, FSYNC, TIMEOUT, CLOSE; stat
// STATX; read OPENAT, READ, CLOSE; remove UNLINKAT; tree-create MKDIRAT; tree-remove UNLINKAT.
std::span<const UringOperation> uring_operations_of(Phase phase);

// Why `phase` cannot run with the uring engine when the kernel lacks `missing`, in one sentence
// ("the kernel's io_uring lacks the STATX operation, which the stat phase needs (Linux 5.6 or
// later)").
std::string uring_lacks(Phase phase, const UringOperation& missing);

// Empty if the uring engine can run here; otherwise why not, in one sentence. Creates and
// discards a small ring: needs io_uring_setup (not blocked by seccomp or
// kernel.io_uring_disabled), CQE_SKIP_SUCCESS (Linux 5.17), the opcodes the engine submits,
// and a sparse fixed-file table (Linux 5.19).
std::string uring_unavailable_reason();
// The same for a run of `phases` (--phases): also every operation those phases submit, the
// first one missing named (uring_lacks). Call it before any phase runs.
std::string uring_unavailable_reason(const PhaseSet& phases);

// Empty if a ring's fixed-file table of `table` entries fits this process's open-files limit
// (RLIMIT_NOFILE: the kernel refuses a larger table); otherwise which limit, and its value.
std::string fixed_file_limit_problem(unsigned table);

// One message for every rank's verdict (reasons[rank], empty: usable; hosts[rank] its host):
// each distinct reason once, with the ranks that gave it. Empty if every rank can. Pure.
std::string describe_uring_unavailable(const std::vector<std::string>& reasons,
                                       const std::vector<std::string>& hosts);

}  // namespace mpiwrite
