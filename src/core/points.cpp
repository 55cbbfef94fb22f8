#include "mpiwrite/core/points.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mpiwrite {

std::string_view to_string(RunKind kind) {
  switch (kind) {
    case RunKind::Run:
      return "run";
    case RunKind::Sweep:
      return "sweep";
    case RunKind::Compare:
      return "compare";
  }
  return "?";
}

std::string_view to_string(PointMode mode) {
  switch (mode) {
    case PointMode::Run:
      return "run";
    case PointMode::Sweep:
      return "sweep";
    case PointMode::Processes:
      return "processes";
    case PointMode::Threads:
      return "threads";
    case PointMode::Hybrid:
      return "hybrid";
    case PointMode::Async:
      return "async";
  }
  return "?";
}

std::string PointSpec::label() const {
  // Shared keeps the label it had before layouts existed, so older reports still match.
  const std::string suffix =
      layout == Layout::Shared ? std::string() : fmt::format("-{}", to_string(layout));
  if (engine == Engine::Uring)
    return fmt::format("{}x{}q{}{}", ranks, threads, queue_depth, suffix);
  return fmt::format("{}x{}{}", ranks, threads, suffix);
}

RunKind run_kind(const RunConfig& c) {
  if (c.compare) return RunKind::Compare;
  return c.sweep_threads.empty() ? RunKind::Run : RunKind::Sweep;
}

namespace {

std::vector<PointSpec> compare_points(const RunConfig& c, int world) {
  const std::uint64_t limit =
      c.max_concurrency ? c.max_concurrency : static_cast<std::uint64_t>(world) * c.threads;
  // With --engine uring the uring points are the extra column; processes, threads and hybrids
  // keep the posix engine, so the baseline is the same as without it.
  const bool async = c.engine == Engine::Uring;
  const Engine engine = async ? Engine::Posix : c.engine;
  std::vector<PointSpec> points{{1, 1, PointMode::Processes, engine}};
  if (async) points.push_back({1, 1, PointMode::Async, Engine::Uring, 1});
  for (std::uint64_t conc = 2; conc <= limit; conc *= 2) {
    if (conc <= static_cast<std::uint64_t>(world)) {
      points.push_back({static_cast<int>(conc), 1, PointMode::Processes, engine});
    }
    points.push_back({1, static_cast<unsigned>(conc), PointMode::Threads, engine});
    for (std::uint64_t p = 2; p < conc && p <= static_cast<std::uint64_t>(world); p *= 2) {
      points.push_back(
          {static_cast<int>(p), static_cast<unsigned>(conc / p), PointMode::Hybrid, engine});
    }
    if (async && conc <= kMaxQueueDepth) {
      points.push_back({1, 1, PointMode::Async, Engine::Uring, static_cast<unsigned>(conc)});
    }
  }
  return points;
}

// The points of one layout (every point's layout is set by make_points).
std::vector<PointSpec> layout_points(const RunConfig& c, int world) {
  switch (run_kind(c)) {
    case RunKind::Run:
      return {{world, c.threads, PointMode::Run, c.engine, c.queue_depth}};
    case RunKind::Sweep: {
      std::vector<unsigned> counts = c.sweep_threads;
      std::sort(counts.begin(), counts.end());
      counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
      std::vector<PointSpec> points;
      for (unsigned t : counts) {
        points.push_back({world, t, PointMode::Sweep, c.engine, c.queue_depth});
      }
      return points;
    }
    case RunKind::Compare:
      return compare_points(c, world);
  }
  return {};
}

}  // namespace

std::vector<PointSpec> make_points(const RunConfig& c, int world) {
  const std::vector<PointSpec> each = layout_points(c, world);
  std::vector<PointSpec> points;
  points.reserve(each.size() * c.layouts.size());
  for (Layout layout : c.layouts) {
    for (PointSpec point : each) {
      point.layout = layout;
      points.push_back(point);
    }
  }
  return points;
}

PointSpec world_point(const RunConfig& config, int world_ranks) {
  PointSpec every_rank;
  every_rank.ranks = world_ranks;
  every_rank.threads = config.threads;
  return every_rank;
}

}  // namespace mpiwrite
