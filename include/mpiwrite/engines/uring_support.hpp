#pragma once
// Whether this process can use io_uring the way the uring engine does, and why not.
// `--engine uring` must fail (exit 2) naming the reason, never quietly run the posix engine.

#include <string>
#include <vector>

namespace mpiwrite {

// Empty if the uring engine can run here; otherwise why not, in one sentence. Creates and
// discards a small ring: needs io_uring_setup (not blocked by seccomp or
// kernel.io_uring_disabled), CQE_SKIP_SUCCESS (Linux 5.17), the opcodes the engine submits,
// and a sparse fixed-file table (Linux 5.19).
std::string uring_unavailable_reason();

// Empty if a ring's fixed-file table of `table` entries fits this process's open-files limit
// (RLIMIT_NOFILE: the kernel refuses a larger table); otherwise which limit, and its value.
std::string fixed_file_limit_problem(unsigned table);

// One message for every rank's verdict (reasons[rank], empty: usable; hosts[rank] its host):
// each distinct reason once, with the ranks that gave it. Empty if every rank can. Pure.
std::string describe_uring_unavailable(const std::vector<std::string>& reasons,
                                       const std::vector<std::string>& hosts);

}  // namespace mpiwrite
