#pragma once
// What a writer created in one step, so that removal is driven by what this run made and never
// by the names the pattern would produce. Pure.
//
// A writer takes its files from its source in order, chunk by chunk, and opens each file it
// takes at once, so what it took is a prefix of every chunk: a progression, never a list of
// files. A few of the files it took were not created, or not kept: an open that failed (the
// name may be somebody else's: O_EXCL refused it) or a file that failed and was removed
// again. Those few are listed one by one.

#include <cstdint>
#include <vector>

#include "mpiwrite/core/partition.hpp"

namespace mpiwrite {

struct CreatedFiles {
  std::vector<Progression> taken;          // in the order taken; adjacent ones merged
  std::vector<std::uint64_t> not_created;  // indices in `taken` that are not this run's files

  // Adds the files of `part` (the prefix of a chunk the writer got to). No-op when empty.
  void take(const Progression& part);
  void merge(const CreatedFiles& other);
  // Empties both lists and keeps their memory, so a writer reused for every step allocates
  // only when a step takes more chunks than any before it.
  void clear();
  // Whether `index` is one of not_created (a short list: a linear search).
  bool excluded(std::uint64_t index) const;
  std::uint64_t files_taken() const;
};

}  // namespace mpiwrite
