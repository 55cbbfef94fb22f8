#pragma once
// --dry-run: the points a launch would measure, and which rank and thread would write which
// files. Pure.

#include <iosfwd>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/points.hpp"

namespace mpiwrite {

void write_plan(const RunConfig& config, const std::vector<PointSpec>& points, std::ostream& out);

}  // namespace mpiwrite
