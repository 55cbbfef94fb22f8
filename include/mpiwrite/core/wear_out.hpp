#pragma once
// --wear-out after --time-limit (docs/metrics.md "Time-limited write phases"), as mdtest -W:
// once every writer has stopped at the limit, each goes on to the largest count any writer of
// the point reached, so every rank writes as many files and later phases find a set that is
// the same shape on every rank. Pure.

#include <cstdint>
#include <vector>

#include "mpiwrite/core/partition.hpp"

namespace mpiwrite {

// What each writer thread still writes: thread t wrote the first written[t] files of parts[t]
// before the limit, and goes on to min(target, parts[t].count) of them. An empty part when it
// has that many already. Precondition: written.size() == parts.size(), written[t] <=
// parts[t].count.
std::vector<Progression> wear_out_parts(const std::vector<Progression>& parts,
                                        const std::vector<std::uint64_t>& written,
                                        std::uint64_t target);

}  // namespace mpiwrite
