#pragma once
// Which files a rank's threads take in the stat, read and remove phases (--phases). Pure.
//
// After a write phase that completed, every name 1..files exists, and each rank's were those
// its slice of the write gave it (--partition block or cyclic: rank_slice): remove takes the
// rank's own slice; stat and read the slice of rank (rank + --shift) mod ranks (mdtest -N: no
// rank reads back what its own client cache holds). Where the write decided who wrote what as
// it ran (--partition dynamic) or --time-limit cut it short, only the writers' records say;
// a rank's share is then its own records (remove) or those of rank (rank + shift) mod ranks
// (stat, read), exchanged over MPI by the caller. (The null engine keeps no records: after a
// dynamic write it takes rank_slice's blocks, every name once all the same.) Either way the
// share is split over the rank's threads in contiguous runs of positions, or shuffled
// (--random-order: shuffled_parts, work_source.hpp).

#include <cstdint>
#include <vector>

#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {

// The rank whose block (or records) `rank` takes in `phase` of a point of `ranks` ranks.
int share_owner(Phase phase, int rank, int ranks, unsigned shift);

// The names the rank takes in `phase` after a completed write phase split as `write`: what
// share_owner wrote (written_slice; for --partition dynamic a block: see above).
Progression completed_share(Phase phase, const WorkSplit& write, int rank, unsigned shift);

// `share` (progressions, taken in order) split over `threads`: thread t gets the positions
// [t*n/threads, (t+1)*n/threads) of the concatenation, as progressions (no index listed).
std::vector<std::vector<Progression>> split_over_threads(const std::vector<Progression>& share,
                                                         unsigned threads);

}  // namespace mpiwrite
