// Who writes, reads back and removes which files (rank_plan.hpp).
#include "mpiwrite/core/rank_plan.hpp"

#include <algorithm>

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

unsigned ring_depth(unsigned queue_depth, const RankPlan& plan) {
  std::uint64_t most = 0;
  if (plan.dynamic) {
    most = plan.writes.count;  // one thread may take every chunk
  } else {
    for (const Progression& part : plan.thread_writes) most = std::max(most, part.count);
  }
  return static_cast<unsigned>(std::clamp<std::uint64_t>(most, 1, std::max(1u, queue_depth)));
}

unsigned largest_ring_depth(const RunConfig& config, int ranks, int rank) {
  unsigned largest = 0;
  for (const PointSpec& point : make_points(config, ranks)) {
    if (point.engine != Engine::Uring || rank >= point.ranks) continue;
    largest = std::max(largest, ring_depth(point.queue_depth, plan_rank(config, point, rank)));
  }
  return largest;
}

}  // namespace mpiwrite
