#pragma once
// --dry-run: which rank and thread would write which files. Pure.

#include <iosfwd>

#include "mpiwrite/config.hpp"

namespace mpiwrite {

void write_plan(const RunConfig& config, int ranks, std::ostream& out);

}  // namespace mpiwrite
