#pragma once
// Who writes, reads back and removes which files: the one place that decides it. Each rank
// computes its own plan from its point's plan (point_plan.hpp; nothing is scattered from rank
// 0), and so do the dry run, the static work source and the directory layout. Pure.

#include <cstdint>
#include <vector>

#include "mpiwrite/core/option_enums.hpp"
#include "mpiwrite/core/partition.hpp"

namespace mpiwrite {

// What a point's split of the files depends on: the run's files 1..files, its partition, and
// the point's ranks and threads per rank.
struct WorkSplit {
  std::uint64_t files = 0;
  Partition partition = Partition::Block;
  int ranks = 1;
  unsigned threads = 1;
  bool operator==(const WorkSplit&) const = default;
};

// What rank `rank` of a point of `ranks` ranks does with the run's files 1..files.
struct RankPlan {
  int rank = 0;
  int ranks = 1;
  // --partition dynamic: the rank's threads take chunks of `writes` (every file) on demand
  // from a counter shared by the point's ranks; who writes which is decided while writing.
  bool dynamic = false;
  // Block or cyclic: this rank's slice of the files. Dynamic: every file of the run.
  Progression writes;
  // Block or cyclic: writer thread t writes thread_writes[t], a part of `writes` (one entry
  // per thread of the point). Empty with dynamic.
  std::vector<Progression> thread_writes;
  // --verify: what rank + 1 (mod ranks) wrote (written_slice), so that with more than one
  // rank no rank reads what its own client cache holds (like mdtest -N), whatever the
  // partition. After a dynamic write only the writers' records say it, and the verify phase
  // goes by them (StepRunner::run_step; --verify refuses the null engine, which keeps none).
  Progression verifies;
  // Removal after a step that completed (it created every name): block `rank` of the names,
  // so that removal is spread evenly whoever wrote them.
  Progression removes;
};

// Precondition: 0 <= rank < work.ranks, work.threads > 0. Made through PointPlan::rank.
RankPlan plan_rank(const WorkSplit& work, int rank);
// Block or cyclic: the files rank `rank` of `work` writes (its plan's `writes`), without its
// threads' parts. Precondition: as plan_rank, and a static partition.
Progression rank_slice(const WorkSplit& work, int rank);
// The names rank `rank` wrote in a write of `work` that completed: its slice (rank_slice) of a
// block or cyclic write; of a dynamic one, whose slices were decided as it ran and only the
// writers' records can tell, block `rank` (what the null engine's later phases go by: it
// records nothing).
Progression written_slice(const WorkSplit& work, int rank);

// How many files one writer thread of this plan's rank keeps in flight at most with
// --queue-depth `queue_depth` (docs/uring.md, "Ring sizing"): no more than the files the thread
// can be given (with dynamic, every file of the run), and at least 1. Each thread's ring,
// fixed-file table and name buffers are sized by it, not by the option alone: -t 1024 -q 4096
// for 100 files sized 4 million slots a rank (4.7 GiB) for 100 files.
unsigned ring_depth(unsigned queue_depth, const RankPlan& plan);
// `slice` cut into one part per writer thread (`threads` > 0), block or cyclic: the parts
// cover every index of `slice` exactly once.
std::vector<Progression> thread_parts(const Progression& slice, unsigned threads,
                                      Partition partition);

}  // namespace mpiwrite
