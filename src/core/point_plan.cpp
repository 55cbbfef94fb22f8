// A point's plan, made once (point_plan.hpp).
#include "mpiwrite/core/point_plan.hpp"

#include <algorithm>

namespace mpiwrite {

namespace {

EngineOptions engine_options(const RunConfig& c, const PointSpec& point) {
  EngineOptions o;
  o.pattern = parse_pattern(c.pattern);
  o.lines = c.lines;
  o.text = c.text;
  o.mode = c.write_mode;
  o.file_size = c.file_size;
  o.write_size = c.write_size;
  o.fsync = c.fsync;
  o.overwrite = c.overwrite;
  o.engine = point.engine;  // a comparison's points differ from --engine (points.hpp)
  o.queue_depth = point.queue_depth;
  o.threads = point.threads;
  return o;
}

}  // namespace

PointPlan plan_point(const RunConfig& config, const PointSpec& point) {
  const WorkSplit split{config.files, config.partition, point.ranks, point.threads};
  const LayoutSpec layout{point.layout,      config.files_per_dir, config.files,
                          config.partition,  point.ranks,          point.threads,
                          config.tree_depth, config.branch};
  return PointPlan{point, split, DirectoryLayout(layout), engine_options(config, point)};
}

std::vector<PointPlan> plan_points(const RunConfig& config, int world_ranks) {
  std::vector<PointPlan> plans;
  for (const PointSpec& point : make_points(config, world_ranks)) {
    plans.push_back(plan_point(config, point));
  }
  return plans;
}

unsigned largest_ring_depth(const std::vector<PointPlan>& plans, int rank) {
  unsigned largest = 0;
  for (const PointPlan& plan : plans) {
    if (plan.spec.engine != Engine::Uring || rank >= plan.spec.ranks) continue;
    largest = std::max(largest, ring_depth(plan.spec.queue_depth, plan.rank(rank)));
  }
  return largest;
}

}  // namespace mpiwrite
