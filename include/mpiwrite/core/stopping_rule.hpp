#pragma once
// -r auto: when to stop repeating (docs/metrics.md, "How many repetitions"). Pure.
//
// The rule looks at each point's own precision only: the half-width of its median's 95 %
// interval over the median. It never looks at the difference between points, because a rule
// that stops once two points differ (or once they look equal) stops on a lucky streak more
// often than on an unlucky one, and the test run afterwards on what was measured would then
// find differences that are not there. Precision does not depend on which way the points
// differ, so stopping on it leaves the comparison's error rates as they are.

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace mpiwrite {

// Why a point's repetitions ended: the JSON's summary.stopped_by.
enum class StoppedBy {
  Fixed,        // a numeric -r: every asked repetition ran
  Precision,    // -r auto: every point reached --precision
  Budget,       // -r auto: --max-time of timed phases was spent
  Maximum,      // -r auto: --max-repetitions ran
  Interrupted,  // a signal stopped the run
};
const char* stopped_by_name(StoppedBy why);  // "fixed", "precision", "budget", ...

// The settings of -r auto (RunConfig's precision, min_repetitions, max_repetitions, max_time_s).
struct StoppingRule {
  double precision = 0.02;
  unsigned min_repetitions = 6;
  unsigned max_repetitions = 1000;
  double max_time_s = 60;
};

// The precision of one point: (high - low) / 2 / median of its median's 95 % interval
// (median_interval). Empty while there is no interval (fewer than 6 values) or the median is
// 0 (no relative width). Times in any order.
std::optional<double> median_precision(const std::vector<double>& times);

// After a round: `times[i]` is point i's compared times so far, `rounds` the timed rounds done,
// `spent_s` the wall time of the timed phases so far (every point's). Empty: go on. Otherwise
// why to stop, asked in this order: Precision when rounds >= min_repetitions and every point's
// precision <= rule.precision; Maximum when rounds >= max_repetitions; Budget when another
// round, at the mean round's cost so far, would take the timed phases beyond max_time_s.
std::optional<StoppedBy> should_stop(const StoppingRule& rule,
                                     const std::vector<std::vector<double>>& times,
                                     unsigned rounds, double spent_s);

// --precision and --equivalence: a fraction ("0.02") or a percentage ("2%"), finite and in
// (0, 1). Empty for anything else.
std::optional<double> parse_fraction(std::string_view text);

}  // namespace mpiwrite
