#pragma once
// What a point measured, and how points compare: speedup and efficiency against a baseline
// with their intervals, warnings about the series, and the processes / threads / hybrid
// table of --compare, whose winner is named only after a significance test. Pure.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpiwrite/core/host_figures.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/repetition_log.hpp"
#include "mpiwrite/core/stopping_rule.hpp"
#include "mpiwrite/core/verdict.hpp"

namespace mpiwrite {

// A coefficient of variation above this makes a point's figures suspect (a warning).
inline constexpr double kHighVariation = 0.10;
// A first repetition this much slower than the median of the others suggests --warmup.
inline constexpr double kSlowFirstRepetition = 1.25;

// A rate at each statistic of a point's makespans (see PointReport::files_per_s): at_min is
// the rate of the shortest makespan, so the highest.
struct MakespanRates {
  double at_mean = 0, at_median = 0, at_min = 0, at_max = 0;
};

// One phase of a point over its timed repetitions (--phases; the write phase too): its items
// per repetition, the makespans' summary, and the rate (items / makespan) at each statistic.
// The rate's 95 % interval is the items over the makespan median's interval, swapped (of the
// makespans scaled to the same items where the repetitions' counts differ: items_per_s).
struct PhaseSummary {
  Phase phase = Phase::Write;
  std::uint64_t items = 0;  // the last measured repetition's
  SeriesSummary makespan;
  // Each repetition's own items over its own makespan (--time-limit leaves each its count;
  // one that timed none has no rate), as the makespans scaled to the most items any timed.
  MakespanRates items_per_s;
  std::optional<Interval> rate_ci;  // when that median has one
  // Against the baseline point's same phase, as PointReport's (the same function and rule):
  // speedup = the baseline's median time / this point's, efficiency = speedup / (concurrency
  // ratio), each with a bootstrap interval (none for the baseline itself). The write phase's
  // are PointReport's, exactly. Another phase's times are its makespans, each scaled to the
  // baseline's items of the phase where its own differ (makespan x baseline items / items: the
  // tree phases make more directories with more ranks or threads under --layout rank or
  // thread), so the speedup is the ratio of the rates. Absent when the phase timed no item or
  // took no time, here or in the baseline (a flat point's tree phases: 0 directories), or when
  // either point was not measured or has no such phase.
  std::optional<double> speedup, efficiency;
  std::optional<Interval> speedup_ci, efficiency_ci;
};

struct PointReport {
  explicit PointReport(PointSpec point = {}) : spec(point) {}

  PointSpec spec;
  RepetitionLog repetitions;  // timed only
  SeriesSummary makespan;     // over the repetitions' makespans (count 0: not measured)
  // Over compared_times(): what speedups, winners and the comparison's medians are taken
  // from. The makespans themselves unless --time-limit cut a repetition short.
  SeriesSummary compared;
  // Against the baseline point (the fewest threads in a sweep, 1x1 in a comparison), from the
  // MEDIAN makespans (a slow repetition moves a mean, hardly a median): speedup = baseline
  // median / this median, efficiency = speedup / (this concurrency / baseline concurrency),
  // each with a bootstrap interval (none for the baseline against itself). Absent when this
  // point or the baseline has no timed repetition (an interrupted run): no figure is better
  // than a 0.
  std::optional<double> speedup = 1.0;
  std::optional<double> efficiency = 1.0;
  std::optional<Interval> speedup_ci, efficiency_ci;
  std::vector<std::string> warnings;  // about this point's series (high variation, slow first)
  // median_precision of compared_times(): the half-width of the median's 95 % interval over
  // the median (absent below 6 repetitions), what -r auto stops on; and why the repetitions
  // ended (the run's reason, summarize_report).
  std::optional<double> precision;
  StoppedBy stopped_by = StoppedBy::Fixed;
  // The files and bytes of one repetition (the last measured; 0 when not measured) over each
  // statistic of the makespans: files_per_s.at_median = files / makespan.median. Absent when
  // not measured; 0 for a time of 0.
  std::uint64_t files = 0, bytes = 0;
  std::optional<MakespanRates> files_per_s, mib_per_s;
  // Every phase run (--phases), in the order they ran, the write phase among them; empty when
  // not measured. The write phase's makespans are `makespan`'s (its items, `files`).
  std::vector<PhaseSummary> phases;
  // Per host over the repetitions (summarize_report, which knows the hosts).
  std::vector<HostSummary> hosts;

  bool measured() const { return !repetitions.empty(); }
  // Whether the repetition numbered `index` (1-based) is an outlier by Tukey's fences.
  bool is_outlier(unsigned index) const;
  std::vector<double> makespans() const;  // in the order measured
  // Each repetition's makespan, or for one --time-limit cut short, its makespan scaled to the
  // files asked at its own rate (makespan x asked / written): a limited makespan is about the
  // limit whatever the rate, so comparing those would compare the limit with itself.
  std::vector<double> compared_times() const;
  bool time_limited() const;  // a repetition was cut short by --time-limit
};

// Fills makespan, the rates, the warnings, then speedup and efficiency against points[0] (the
// baseline: make_points puts it first), the point's and each phase's. `seed` seeds the
// bootstrap: each point its own stream of it, which its write phase shares, and each other
// phase of the point its own stream of the point's. The hosts are filled by summarize_report,
// which knows them.
void summarize_points(std::vector<PointReport>& points, std::uint64_t seed = 0);

// Warnings about the run as a whole: too few repetitions for any comparison it asks for to
// reach significance. Empty for a plain run.
std::vector<std::string> comparison_warnings(const std::vector<PointReport>& points,
                                             unsigned repetitions);

// A point in the comparison table. An unmeasured one keeps its label and nothing else.
struct ModeCell {
  std::string label;            // "2x4"
  std::size_t repetitions = 0;  // timed repetitions measured; 0: not measured
  std::optional<double> mean_s, speedup, efficiency;
  std::optional<double> median_s;
  std::optional<Interval> median_ci, speedup_ci, efficiency_ci;
  std::size_t point = 0;  // its index in the points
};

// How the fastest cell of a row (by median) fared against the runner-up.
struct RowVerdict {
  std::string fastest, runner_up;  // mode names
  Verdict verdict;                 // a = fastest, b = runner-up
};

// --phases: the same decision for one other phase of the row's points, fastest first, under
// the same rule as the write phase's, over their makespans of that phase each scaled to the
// same items (the order and ratio of the rates; a cell whose phase timed no item takes no part).
struct PhaseVerdict {
  Phase phase = Phase::Stat;
  RowVerdict verdict;
  std::string winner;  // the fastest mode when significant, else empty
  // Each mode of the row that timed the phase, fastest median first, with its point's speedup
  // in that phase (PhaseSummary::speedup: absent where the phase has none).
  std::vector<std::pair<std::string, std::optional<double>>> speedups;
};

struct ComparisonRow {
  Layout layout = Layout::Shared;  // every cell of a row is a point of this layout
  std::uint64_t concurrency = 1;
  std::optional<ModeCell> processes, threads,
      hybrid;                     // hybrid: the measured p x t of lowest median
  std::optional<ModeCell> async;  // 1x1 with queue depth c (uring)
  // "processes", "threads", "hybrid" or "async": the fastest measured cell, named only when it
  // is significantly faster than the runner-up (Mann-Whitney U, beyond the noise threshold);
  // empty otherwise, and when fewer than two different points of the row were measured.
  std::string winner;
  std::optional<RowVerdict> verdict;  // when two or more different points were measured
  std::vector<PhaseVerdict> phases;   // --phases: every other phase, in the order they ran
};

// One row per layout and concurrency: the layouts in the order of their first point (that of
// --layout), each with its concurrencies in increasing order. A winner is decided inside a
// row, so never across layouts. The 1x1 point fills both processes and threads at
// concurrency 1 (one point: nothing to decide there unless async was measured too).
// `equivalence`: D of decide() (--equivalence).
std::vector<ComparisonRow> compare_rows(const std::vector<PointReport>& points,
                                        std::uint64_t seed = 0,
                                        double equivalence = kNoiseThreshold);

}  // namespace mpiwrite
