#pragma once
// Work assignment as an arithmetic progression of 1-based file indices. A rank or thread is
// handed three numbers, never a list, so memory does not grow with --files.

#include <cstdint>

#include "mpiwrite/core/option_enums.hpp"

namespace mpiwrite {

struct Progression {
  std::uint64_t first = 1;   // first file index
  std::uint64_t count = 0;   // number of indices
  std::uint64_t stride = 1;  // distance between consecutive indices

  std::uint64_t at(std::uint64_t position) const { return first + position * stride; }
  std::uint64_t last() const { return at(count - 1); }  // precondition: count > 0
  bool operator==(const Progression&) const = default;
};

// All files of a run: 1, 2, ..., files.
inline Progression whole_run(std::uint64_t files) { return {1, files, 1}; }

// Part `part` of `parts` (0-based) of `whole`. Block gives contiguous runs whose sizes differ
// by at most one (the first count % parts parts get one more); Cyclic deals positions out
// round-robin. Either way the parts cover every index of `whole` exactly once.
// Precondition: parts > 0, part < parts.
Progression split(const Progression& whole, std::uint64_t parts, std::uint64_t part,
                  Partition partition);

// Where position `position` (0-based) of a whole of `count` positions falls when it is split
// into `parts` parts: which part, and where in it (0-based).
struct PartPosition {
  std::uint64_t part = 0;
  std::uint64_t position = 0;
  bool operator==(const PartPosition&) const = default;
};

// The inverse of split(): split(whole, parts, p.part, partition).at(p.position) is
// whole.at(position) for p = part_of(position, whole.count, parts, partition). Block or
// Cyclic only. Precondition: parts > 0, position < count.
PartPosition part_of(std::uint64_t position, std::uint64_t count, std::uint64_t parts,
                     Partition partition);

}  // namespace mpiwrite
