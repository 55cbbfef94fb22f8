#pragma once
// What a point measured, and how points compare: speedup and efficiency against a baseline,
// and the processes / threads / hybrid table of --compare. Pure.

#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/points.hpp"
#include "mpiwrite/stats.hpp"

namespace mpiwrite {

struct PointReport {
  PointSpec spec;
  std::vector<RepetitionFigures> repetitions;  // timed only
  SeriesSummary makespan;                      // over repetitions[].slowest_s
  // Against the baseline point (the fewest threads in a sweep, 1x1 in a comparison), from the
  // mean makespan as in the seed experiment: speedup = baseline mean / this mean, efficiency =
  // speedup / (this concurrency / baseline concurrency).
  double speedup = 1.0;
  double efficiency = 1.0;
};

// Fills makespan from the repetitions, then speedup and efficiency against points[0] (the
// baseline: make_points puts it first).
void summarize_points(std::vector<PointReport>& points);

struct ModeCell {
  std::string label;  // "2x4"
  double mean_s = 0, speedup = 0, efficiency = 0;
};

struct ComparisonRow {
  std::uint64_t concurrency = 1;
  std::optional<ModeCell> processes, threads, hybrid;  // hybrid: the fastest p x t
  std::optional<ModeCell> async;                       // 1x1 with queue depth c (uring)
  std::string winner;  // "processes", "threads", "hybrid" or "async"
};

// One row per concurrency, in increasing order. The 1x1 point fills both processes and threads
// at concurrency 1.
std::vector<ComparisonRow> compare_rows(const std::vector<PointReport>& points);

}  // namespace mpiwrite
