#pragma once
// Distribution-free statistics of repeated measurements: the summary of one series, the
// Mann–Whitney U test between two, and the bootstrap interval of a ratio of medians. Pure: no
// I/O, no clock, no global random state (the bootstrap takes its seed). docs/metrics.md,
// "Statistics", says which rule each figure follows and why. Values are never NaN (a
// precondition of every function here); for any other values no result is NaN.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace mpiwrite {

inline constexpr double kConfidenceLevel = 0.95;    // every interval mpiwrite reports
inline constexpr double kSignificanceLevel = 0.05;  // alpha of every test, two-sided

// The q-quantile (0 <= q <= 1) of sorted values by linear interpolation between order
// statistics (Hyndman–Fan type 7, NumPy's default). Precondition: sorted, not empty.
double quantile_sorted(const std::vector<double>& sorted, double q);

struct Interval {
  double low = 0, high = 0;
  double level = kConfidenceLevel;  // the coverage the interval was built for (or achieves)
};

// A distribution-free confidence interval for the median from order statistics: the largest
// j with P(Binomial(n, 1/2) < j) <= (1 - level) / 2 gives [x(j), x(n+1-j)] (1-based, sorted),
// whose coverage 1 - 2 P(B < j) is >= level. `level` of the result is that exact coverage.
// Empty when n is too small for any interval to reach the level (n < 6 at 95 %), and for a
// level outside (0, 1). The binomial is computed without factorials or powers of 2, so any n
// (100,000 and more) is fine.
std::optional<Interval> median_interval(const std::vector<double>& sorted,
                                        double level = kConfidenceLevel);

// Tukey's fences: a value below Q1 - 1.5 IQR or above Q3 + 1.5 IQR (type-7 quartiles) is an
// outlier. Needs n >= 4 for the quartiles to mean anything: below that nothing is flagged.
struct Fences {
  double low = 0, high = 0;
};
std::optional<Fences> tukey_fences(const std::vector<double>& sorted);

struct SeriesSummary {
  std::size_t count = 0;
  double mean = 0, median = 0, min = 0, max = 0;
  double stddev = 0;      // sample standard deviation (n - 1); 0 for fewer than two values
  double cv = 0;          // stddev / mean; 0 when the mean is 0
  double q1 = 0, q3 = 0;  // type-7 quartiles
  std::optional<Interval> median_ci;  // see median_interval
  std::optional<Fences> fences;       // see tukey_fences
  std::vector<std::size_t> outliers;  // 0-based positions in the input order, increasing
};

// Values in the order measured (repetition 1 first); the summary does not reorder them.
SeriesSummary summarize_series(const std::vector<double>& values);

// Mann–Whitney U test, two-sided, of x against y (H0: the two distributions are the same).
// As SciPy 1.10's scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method="auto"):
// the exact null distribution when there are no ties and min(nx, ny) <= 8; otherwise the
// normal approximation with the tie correction and a continuity correction of 0.5. Both take
// the larger of U_x and U_y and double its upper tail; the exact p includes the mass at U,
// so U = nx ny / 2 gives more than 1 before the cap.
struct MannWhitney {
  double u_x = 0;      // U of x: pairs (xi, yj) with xi > yj, plus half the ties
  double p_value = 1;  // two-sided, capped at 1
  bool exact = false;  // from the exact distribution
  // The probability that a value of x is smaller than a value of y (ties half): 1 - u_x /
  // (nx ny). For times, the chance that x's repetition was the faster; 0.5 = no effect.
  double prob_x_smaller = 0.5;
};
// Precondition: x and y are not empty (if one is, the result is the default: p = 1).
MannWhitney mann_whitney(const std::vector<double>& x, const std::vector<double>& y);

// The smallest two-sided p-value any outcome can give with nx against ny values (all of x
// below all of y, no ties), from the distribution mann_whitney would use: 2 / C(nx + ny, nx),
// capped at 1, while min(nx, ny) <= 8; beyond, the normal approximation at U = nx ny (9
// against 9: 4.1e-4, not 2 / C(18, 9) = 4.1e-5; far below any usual alpha either way).
// 3 against 3: 0.1. 1 for an empty series.
double smallest_p_value(std::size_t nx, std::size_t ny);
// The fewest repetitions n (the same for both) for which smallest_p_value(n, n) < alpha.
// 4 at alpha = 0.05. 0 when no n can (alpha <= 0).
std::size_t repetitions_for_significance(double alpha = kSignificanceLevel);

// A percentile-bootstrap interval for median(numerator) / median(denominator): `resamples`
// times, each series is resampled with replacement independently and the ratio of the
// medians taken; the interval is the (1-level)/2 and (1+level)/2 type-7 quantiles of those
// ratios. Deterministic in `seed` on every platform (its own generator: SplitMix64, and
// indices drawn without std::uniform_int_distribution, whose output the standard leaves to
// the library). Each resample draws positions in the numerator's values sorted, then in the
// denominator's, from one generator seeded with `seed`, each position by SplitMix64::below. Empty
// when either series is empty, a median is 0, a resample's denominator median is 0 (the ratio is
// undefined there), resamples is 0, or the level is outside (0, 1). Time: (nx + ny) resamples
// random draws and as many counts, no allocation per resample: at 10,000 resamples about 0.01 s for
// 100 values each, 0.8 s for 10,000, 8 s for 100,000 (measured on a shared 2-core machine).
//
// Above kBootstrapDrawBudget draws ((nx + ny) x resamples: more than 2,500 values per series at
// 10,000 resamples, where the bootstrap would take seconds per interval and minutes at the
// documented 10^6 repetitions), the interval is the large-sample one instead: each median's
// standard error from its order-statistic interval, combined for log(ratio) by the delta
// method. At such n both are close; the seed then plays no part.
inline constexpr std::size_t kBootstrapResamples = 10000;
inline constexpr double kBootstrapDrawBudget = 5e7;
std::optional<Interval> ratio_of_medians_interval(const std::vector<double>& numerator,
                                                  const std::vector<double>& denominator,
                                                  std::uint64_t seed,
                                                  std::size_t resamples = kBootstrapResamples,
                                                  double level = kConfidenceLevel);

// The median of values (any order); 0 for none.
double median_of(std::vector<double> values);

}  // namespace mpiwrite
