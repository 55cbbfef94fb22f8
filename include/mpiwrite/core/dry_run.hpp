#pragma once
// --dry-run: the points a launch would measure, and which rank and thread would write which
// files. Pure.

#include <iosfwd>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/point_plan.hpp"

namespace mpiwrite {

// `plans`: the run's points (plan_points), the same plans a real run would write by.
void write_plan(const RunConfig& config, const std::vector<PointPlan>& plans, std::ostream& out);

}  // namespace mpiwrite
