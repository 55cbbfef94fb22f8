// Who writes, reads back and removes which files (rank_plan.hpp).
#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {

std::vector<Progression> thread_parts(const Progression& slice, unsigned threads,
                                      Partition partition) {
  // One thread writes the slice as it is (the same progression split(slice, 1, 0) gives).
  if (threads == 1) return {slice};
  std::vector<Progression> parts;
  parts.reserve(threads);
  for (unsigned thread = 0; thread < threads; ++thread) {
    parts.push_back(split(slice, threads, thread, partition));
  }
  return parts;
}

RankPlan plan_rank(const RunConfig& config, const PointSpec& point, int rank) {
  const Progression all = whole_run(config.files);
  const auto ranks = static_cast<std::uint64_t>(point.ranks);
  const auto me = static_cast<std::uint64_t>(rank);
  RankPlan plan;
  plan.rank = rank;
  plan.ranks = point.ranks;
  plan.dynamic = config.partition == Partition::Dynamic;
  if (plan.dynamic) {
    plan.writes = all;
  } else {
    plan.writes = split(all, ranks, me, config.partition);
    plan.thread_writes = thread_parts(plan.writes, point.threads, config.partition);
  }
  plan.verifies = split(all, ranks, (me + 1) % ranks, Partition::Block);
  plan.removes = split(all, ranks, me, Partition::Block);
  return plan;
}

}  // namespace mpiwrite
