#pragma once
// mpiwrite-compare's logic: two reports' points matched by (mode, label), and each pair decided
// by verdict.hpp's decide() with a = new, b = old. Pure: the figures here are all the formats
// print (compare_format.hpp). docs/metrics.md, "Comparing two reports", says why each rule.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/compare/operation_change.hpp"
#include "mpiwrite/compare/report_reading.hpp"
#include "mpiwrite/core/statistics.hpp"
#include "mpiwrite/core/verdict.hpp"

namespace mpiwrite {

// The bootstrap's seed when --seed is not given: fixed, so the same two reports always give
// the same output (README, docs/metrics.md).
inline constexpr std::uint64_t kDefaultCompareSeed = 42;

enum class CompareVerdict {
  Faster,             // new is significantly faster than old, beyond the noise threshold
  Slower,             // new is significantly slower
  NoDifference,       // p >= alpha
  BelowNoise,         // p < alpha, but the ratio of medians is within 1 +- the noise threshold
  TooFewRepetitions,  // no outcome could reach alpha with these counts (or a side has none)
  NotComparable,      // a figure cannot be formed: PointComparison::not_comparable says why
  Equivalent,         // the ratio's 95 % interval lies inside 1 +- D (--equivalence)
};

// "faster", "slower", "no significant difference", "below noise threshold",
// "too few repetitions", "not comparable", "equivalent".
const char* verdict_name(CompareVerdict verdict);

// One report's side of a matched point.
struct SideFigures {
  std::string mode, label;
  std::size_t repetitions = 0;
  std::optional<double> median_s;     // empty: no repetition measured (an interrupted run)
  std::optional<Interval> median_ci;  // empty: fewer than 6 repetitions (median_interval)
};

struct PointComparison {
  SideFigures old_side, new_side;
  std::optional<double> ratio;       // median new / median old (< 1: new is faster)
  std::optional<Interval> ratio_ci;  // its percentile-bootstrap interval
  // Mann-Whitney U of new against old; empty when a side measured nothing.
  std::optional<double> p_value;
  std::optional<bool> exact;
  std::optional<double> prob_new_faster;  // P(a repetition of new beats one of old), ties half
  CompareVerdict verdict = CompareVerdict::TooFewRepetitions;
  std::optional<std::size_t> repetitions_needed;  // with TooFewRepetitions: per report
  // With NotComparable: why, e.g. "new has 2 repetitions cut short by --time-limit before
  // their first file". No figure of a PointComparison is ever NaN or infinite: one that
  // would be is left empty and the verdict is NotComparable.
  std::string not_comparable;
  // Each operation's per-file mean in old and new, the one that changed most first; empty when
  // a report lacks the per-operation figures (operation_change.hpp).
  std::optional<ChangeAttribution> per_file;
};

struct UnmatchedPoint {
  bool in_old = true;  // only in the old report (else only in the new one)
  std::string mode, label;
  std::size_t repetitions = 0;
};

// A config key of kWorkloadKeys whose values differ; a report without the key counts with
// its default (WorkloadValue::absent).
struct WorkloadDifference {
  std::string key;
  WorkloadValue old_value, new_value;
};

struct ReportComparison {
  ReportAbout old_report, new_report;
  std::uint64_t seed = kDefaultCompareSeed;
  double equivalence = kNoiseThreshold;  // D of --equivalence
  // Each report has exactly one point: those two were compared whatever their labels.
  bool single_points = false;
  std::vector<PointComparison> points;    // in the old report's order
  std::vector<UnmatchedPoint> unmatched;  // the old report's first, then the new one's
  std::vector<WorkloadDifference> workload_differences;  // in kWorkloadKeys order
  bool filesystems_differ = false;
  bool hosts_differ = false;  // as sets of host names
};

ReportComparison compare_reports(const ReportInput& old_report, const ReportInput& new_report,
                                 std::uint64_t seed = kDefaultCompareSeed,
                                 double equivalence = kNoiseThreshold);

}  // namespace mpiwrite
