#pragma once
// What a point measured, and how points compare: speedup and efficiency against a baseline,
// and the processes / threads / hybrid table of --compare. Pure.

#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/points.hpp"
#include "mpiwrite/repetition_log.hpp"
#include "mpiwrite/stats.hpp"

namespace mpiwrite {

struct PointReport {
  PointSpec spec;
  RepetitionLog repetitions;  // timed only
  SeriesSummary makespan;     // over the repetitions' makespans (count 0: not measured)
  // Against the baseline point (the fewest threads in a sweep, 1x1 in a comparison), from the
  // mean makespan as in the seed experiment: speedup = baseline mean / this mean, efficiency =
  // speedup / (this concurrency / baseline concurrency). Absent when this point or the
  // baseline has no timed repetition (an interrupted run): no figure is better than a 0.
  std::optional<double> speedup = 1.0;
  std::optional<double> efficiency = 1.0;

  bool measured() const { return !repetitions.empty(); }
};

// Fills makespan from the repetitions, then speedup and efficiency against points[0] (the
// baseline: make_points puts it first).
void summarize_points(std::vector<PointReport>& points);

// A point in the comparison table. An unmeasured one keeps its label and nothing else.
struct ModeCell {
  std::string label;  // "2x4"
  std::size_t repetitions = 0;  // timed repetitions measured; 0: not measured
  std::optional<double> mean_s, speedup, efficiency;
};

struct ComparisonRow {
  std::uint64_t concurrency = 1;
  std::optional<ModeCell> processes, threads, hybrid;  // hybrid: the fastest measured p x t
  std::optional<ModeCell> async;                       // 1x1 with queue depth c (uring)
  // "processes", "threads", "hybrid" or "async": the fastest measured cell; empty when no
  // cell of the row was measured.
  std::string winner;
};

// One row per concurrency, in increasing order. The 1x1 point fills both processes and threads
// at concurrency 1.
std::vector<ComparisonRow> compare_rows(const std::vector<PointReport>& points);

}  // namespace mpiwrite
