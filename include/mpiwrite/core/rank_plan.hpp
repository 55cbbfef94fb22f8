#pragma once
// Who writes, reads back and removes which files: the one place that decides it. Each rank
// computes its own plan from the configuration (nothing is scattered from rank 0), and so do
// the dry run and the static work source. Pure.

#include <cstdint>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/core/points.hpp"

namespace mpiwrite {

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
  // --verify: block rank + 1 (mod ranks) of the files, which rank + 1 wrote with a block
  // partition, so that with more than one rank no rank reads what its own client cache holds
  // (like mdtest -N).
  Progression verifies;
  // Removal after a step that completed (it created every name): block `rank` of the names,
  // so that removal is spread evenly whoever wrote them.
  Progression removes;
};

// Precondition: 0 <= rank < point.ranks; validate() accepted config.
RankPlan plan_rank(const RunConfig& config, const PointSpec& point, int rank);

// How many files one writer thread of this plan's rank keeps in flight at most with
// --queue-depth `queue_depth` (docs/uring.md, "Ring sizing"): no more than the files the thread
// can be given (with dynamic, every file of the run), and at least 1. Each thread's ring,
// fixed-file table and name buffers are sized by it, not by the option alone: -t 1024 -q 4096
// for 100 files sized 4 million slots a rank (4.7 GiB) for 100 files.
unsigned ring_depth(unsigned queue_depth, const RankPlan& plan);
// The largest ring_depth of any uring point of the run on world rank `rank` of `ranks`: the
// fixed-file table its largest ring registers. 0 when no point of the rank uses io_uring.
unsigned largest_ring_depth(const RunConfig& config, int ranks, int rank);

// `slice` cut into one part per writer thread (`threads` > 0), block or cyclic: the parts
// cover every index of `slice` exactly once.
std::vector<Progression> thread_parts(const Progression& slice, unsigned threads,
                                      Partition partition);

}  // namespace mpiwrite
