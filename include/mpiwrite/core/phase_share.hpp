#pragma once
// Which files a rank's threads take in the stat, read and remove phases (--phases). Pure.
//
// After a write phase that completed, every name 1..files exists whoever wrote it, so the
// later phases split the names in blocks over the point's ranks, as --verify and the removal
// always have: remove takes the rank's own block; stat and read the block of rank
// (rank + --shift) mod ranks (mdtest -N: no rank reads back what its own client cache holds).
// After a write phase --time-limit cut short, only the writers' records are files; a rank's
// share is then its own records (remove) or those of rank (rank + shift) mod ranks (stat,
// read), exchanged over MPI by the caller. Either way the share is split over the rank's
// threads in contiguous runs of positions, or shuffled (--random-order: shuffled_parts,
// work_source.hpp).

#include <cstdint>
#include <vector>

#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/core/phase.hpp"

namespace mpiwrite {

// The rank whose block (or records) `rank` takes in `phase` of a point of `ranks` ranks.
int share_owner(Phase phase, int rank, int ranks, unsigned shift);

// The block of names the rank takes in `phase` after a completed write phase of `files` files.
Progression completed_share(Phase phase, std::uint64_t files, int rank, int ranks,
                            unsigned shift);

// `share` (progressions, taken in order) split over `threads`: thread t gets the positions
// [t*n/threads, (t+1)*n/threads) of the concatenation, as progressions (no index listed).
std::vector<std::vector<Progression>> split_over_threads(const std::vector<Progression>& share,
                                                         unsigned threads);

}  // namespace mpiwrite
