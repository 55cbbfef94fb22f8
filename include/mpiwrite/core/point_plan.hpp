#pragma once
// A point's plan: everything the run derives from the configuration and a point, made once
// by one function (plan_point) and read by the writers, the dry run, the run-directory checks,
// verify, removal and the report. Nothing else derives a point's split, layout or engine
// options from the configuration. Pure.
//
// Each rank's RankPlan is computed when asked (rank()), from the point's split, not stored:
// a plan of 10,000 ranks x 1,024 threads would hold 10 million progressions per point, on
// every rank, where each rank needs its own and the dry run one at a time. Asking costs one
// progression per thread.

#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/engine_options.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {

struct PointPlan {
  PointSpec spec;
  WorkSplit split;         // the run's files over the point's ranks and threads
  DirectoryLayout layout;  // where each file lives, which directories each rank makes
  EngineOptions engine;    // the point's threads, engine and queue depth; the run's content

  // Precondition: 0 <= rank < spec.ranks.
  RankPlan rank(int rank) const { return plan_rank(split, rank); }
};

// The plan of `point` under `config`. Precondition: validate() accepted config and `point` is
// one of make_points(config, ...) (or world_point).
PointPlan plan_point(const RunConfig& config, const PointSpec& point);
// Every point of the run (make_points' order), each planned once.
std::vector<PointPlan> plan_points(const RunConfig& config, int world_ranks);

// The largest ring_depth of any uring point on world rank `rank`: the fixed-file table its
// largest ring registers. 0 when no point of the rank uses io_uring.
unsigned largest_ring_depth(const std::vector<PointPlan>& plans, int rank);

}  // namespace mpiwrite
