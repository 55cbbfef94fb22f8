#pragma once
// What a tree phase (Writer::run_tree) did, kept as counts while it is timed and turned into
// directory paths after it. Each level of the tree is split into a contiguous block per
// thread, and each thread stops at its first failure, so what was done is, per level and
// thread, a prefix of that thread's block: one record of a few integers. Copying a
// million paths into a list inside the phase was a few per cent of a tree phase's time on
// tmpfs (issue 23's floor); the ledger gets the same paths, made after the clock stops.

#include <cstddef>
#include <string>
#include <vector>

#include "mpiwrite/core/partition.hpp"

namespace mpiwrite {

class TreeProgress {
 public:
  // Starts empty; `records` is how many record calls to make room for (levels × threads).
  void clear(std::size_t records);

  // In level `level` (an index into the levels given to paths), the positions `done` were
  // done: the first `done.count` positions of one thread's block.
  void record(std::size_t level, const Progression& done);

  // The directories done, in the order recorded: a level's blocks in thread order, the levels
  // in the order walked.
  std::vector<std::string> paths(const std::vector<std::vector<std::string>>& levels) const;

  std::size_t directories() const;  // how many were done

 private:
  struct Block {
    std::size_t level;
    Progression positions;
  };
  std::vector<Block> blocks_;
};

}  // namespace mpiwrite
