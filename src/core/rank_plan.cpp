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

Progression rank_slice(const WorkSplit& work, int rank) {
  return split(whole_run(work.files), static_cast<std::uint64_t>(work.ranks),
               static_cast<std::uint64_t>(rank), work.partition);
}

Progression written_slice(const WorkSplit& work, int rank) {
  WorkSplit slices = work;
  if (slices.partition == Partition::Dynamic) slices.partition = Partition::Block;
  return rank_slice(slices, rank);
}

RankPlan plan_rank(const WorkSplit& work, int rank) {
  const Progression all = whole_run(work.files);
  const auto ranks = static_cast<std::uint64_t>(work.ranks);
  const auto me = static_cast<std::uint64_t>(rank);
  RankPlan plan;
  plan.rank = rank;
  plan.ranks = work.ranks;
  plan.dynamic = work.partition == Partition::Dynamic;
  if (plan.dynamic) {
    plan.writes = all;
  } else {
    plan.writes = rank_slice(work, rank);
    plan.thread_writes = thread_parts(plan.writes, work.threads, work.partition);
  }
  plan.verifies = written_slice(work, static_cast<int>((me + 1) % ranks));
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

}  // namespace mpiwrite
