#pragma once
// The ranks of a run grouped by host, and what each host's ranks measured: per repetition
// (per_host) and over a point's repetitions (summarize_hosts). Pure.

#include <cstdint>
#include <string>
#include <vector>

#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/repetition_log.hpp"

namespace mpiwrite {

struct HostRanks {
  std::string host;
  std::vector<int> ranks;
};

// Groups processor names (index = rank) into hosts, in order of each host's first rank.
std::vector<HostRanks> group_ranks_by_host(const std::vector<std::string>& host_of_rank);

// One repetition's ranks grouped by host: their files and bytes summed, and the time of the
// host's slowest rank. Hosts with no rank in the repetition (a smaller point) are left out.
struct HostFigures {
  std::string host;
  std::vector<int> ranks;
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  double slowest_s = 0;    // the longest own duration of the host's ranks
  double last_done_s = 0;  // the host's last rank end, after the job's common start
};
std::vector<HostFigures> per_host(const RepetitionFigures& rep,
                                  const std::vector<HostRanks>& hosts);

// A host over a point's repetitions: its ranks, files and bytes of the last repetition, and
// the median and the maximum over the repetitions of its slowest rank's time.
struct HostSummary {
  std::string host;
  std::vector<int> ranks;
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  double slowest_median_s = 0;
  double slowest_max_s = 0;
};
// The hosts with a rank in the point, in the order of `hosts`; empty when nothing was measured.
std::vector<HostSummary> summarize_hosts(const RepetitionLog& repetitions,
                                         const std::vector<HostRanks>& hosts);

}  // namespace mpiwrite
