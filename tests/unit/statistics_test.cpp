// statistics.hpp against values computed independently (SciPy and NumPy, tests/golden/
// statistics.json from tests/tools/make_statistics_golden.py), against hand-computed values,
// at the edges, and the bootstrap's determinism and coverage.
#include "mpiwrite/core/statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mpiwrite/core/split_mix64.hpp"
#include "seeded_lognormal.hpp"

namespace mpiwrite {
namespace {

using nlohmann::json;

// |actual - expected| <= tolerance relative to expected, or absolute for |expected| < 1 (fences
// and quartiles can be near 0 by cancellation, where a relative bound means nothing).
void expect_close(double actual, double expected, double tolerance, const std::string& what) {
  EXPECT_LE(std::abs(actual - expected), tolerance * std::max(1.0, std::abs(expected)))
      << what << ": " << actual << " against " << expected;
}

// The p-value relative only: SciPy's p can be 1e-17, where an absolute bound would accept 0.
void expect_relative(double actual, double expected, double tolerance, const std::string& what) {
  EXPECT_LE(std::abs(actual - expected), tolerance * std::abs(expected))
      << what << ": " << actual << " against " << expected;
}

json read_golden() {
  std::ifstream in(std::string(MPIWRITE_GOLDEN_DIR) + "/statistics.json");
  EXPECT_TRUE(in) << "cannot read tests/golden/statistics.json";
  return json::parse(in);
}

void expect_series_matches(const json& golden, const std::string& which) {
  constexpr double kTolerance = 1e-12;
  const auto values = golden.at("values").get<std::vector<double>>();
  const SeriesSummary s = summarize_series(values);
  EXPECT_EQ(s.count, golden.at("count").get<std::size_t>()) << which;
  expect_close(s.min, golden.at("min"), kTolerance, which + " min");
  expect_close(s.max, golden.at("max"), kTolerance, which + " max");
  expect_close(s.q1, golden.at("q1"), kTolerance, which + " q1");
  expect_close(s.median, golden.at("median"), kTolerance, which + " median");
  expect_close(s.q3, golden.at("q3"), kTolerance, which + " q3");
  expect_close(s.mean, golden.at("mean"), kTolerance, which + " mean");
  expect_close(s.stddev, golden.at("stddev"), kTolerance, which + " stddev");
  expect_close(s.cv, golden.at("cv"), kTolerance, which + " cv");
  const json& ci = golden.at("median_ci");
  ASSERT_EQ(s.median_ci.has_value(), !ci.is_null()) << which << " median interval";
  if (s.median_ci) {
    expect_close(s.median_ci->low, ci.at("low"), kTolerance, which + " ci low");
    expect_close(s.median_ci->high, ci.at("high"), kTolerance, which + " ci high");
    expect_close(s.median_ci->level, ci.at("level"), kTolerance, which + " ci level");
  }
  const json& fences = golden.at("fences");
  ASSERT_EQ(s.fences.has_value(), !fences.is_null()) << which << " fences";
  if (s.fences) {
    expect_close(s.fences->low, fences.at("low"), kTolerance, which + " fence low");
    expect_close(s.fences->high, fences.at("high"), kTolerance, which + " fence high");
  }
  EXPECT_EQ(s.outliers, golden.at("outliers").get<std::vector<std::size_t>>()) << which;
}

TEST(StatisticsGolden, MatchesScipyAndNumpy) {
  const json golden = read_golden();
  const json& cases = golden.at("cases");
  ASSERT_GE(cases.size(), 30u);
  for (const json& c : cases) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name);
    const auto x = c.at("x").at("values").get<std::vector<double>>();
    const auto y = c.at("y").at("values").get<std::vector<double>>();
    const MannWhitney test = mann_whitney(x, y);
    expect_close(test.u_x, c.at("u"), 1e-12, "U");
    expect_relative(test.p_value, c.at("p"), 1e-9, "p");
    EXPECT_EQ(test.exact, c.at("method") == "exact");
    const double pairs = static_cast<double>(x.size() * y.size());
    expect_close(test.prob_x_smaller, 1 - c.at("u").get<double>() / pairs, 1e-12, "P(x < y)");
    expect_series_matches(c.at("x"), "x");
    expect_series_matches(c.at("y"), "y");
  }
}

// --- Quantiles, median interval, fences -------------------------------------------------

TEST(QuantileSorted, Type7InterpolatesBetweenOrderStatistics) {
  const std::vector<double> v{1, 2, 4, 8};
  EXPECT_EQ(quantile_sorted(v, 0), 1);
  EXPECT_EQ(quantile_sorted(v, 1), 8);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.25), 1.75);  // position 0.75: 1 + 0.75 (2 - 1)
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.5), 3);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.75), 5);  // position 2.25: 4 + 0.25 (8 - 4)
  EXPECT_EQ(quantile_sorted({7}, 0.3), 7);
}

TEST(MedianInterval, NeedsSixValuesAt95Percent) {
  EXPECT_FALSE(median_interval({}));
  EXPECT_FALSE(median_interval({1, 2, 3, 4, 5}));  // 2 / 2^5 = 0.0625 > 0.05: no interval
  const auto six = median_interval({1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(six);
  EXPECT_EQ(six->low, 1);
  EXPECT_EQ(six->high, 6);
  EXPECT_DOUBLE_EQ(six->level, 1 - 2.0 / 64);
  EXPECT_FALSE(median_interval({1, 2, 3}, 1.0));
  EXPECT_FALSE(median_interval({1, 2, 3}, 0.0));
}

TEST(MedianInterval, HundredThousandValuesNeitherOverflowNorUnderflow) {
  std::vector<double> sorted(100'000);
  for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = static_cast<double>(i + 1);
  const auto ci = median_interval(sorted);
  ASSERT_TRUE(ci);
  // j is near n/2 - 1.96 sqrt(n)/2 = 49,690: x(j) = j with these values.
  EXPECT_NEAR(ci->low, 49'690, 3);
  EXPECT_EQ(ci->high, 100'001 - ci->low);
  EXPECT_GE(ci->level, 0.95);
  EXPECT_LT(ci->level, 0.9505);
}

TEST(TukeyFences, OnePointFiveInterquartileRangesFromTheQuartiles) {
  EXPECT_FALSE(tukey_fences({1, 2, 3}));
  const auto f = tukey_fences({1, 2, 4, 8});
  ASSERT_TRUE(f);
  EXPECT_DOUBLE_EQ(f->low, 1.75 - 1.5 * 3.25);
  EXPECT_DOUBLE_EQ(f->high, 5 + 1.5 * 3.25);
}

// --- Summary: edges ------------------------------------------------------------------------

void expect_finite(const SeriesSummary& s) {
  for (double v : {s.mean, s.median, s.min, s.max, s.stddev, s.cv, s.q1, s.q3}) {
    EXPECT_TRUE(std::isfinite(v));
  }
  if (s.median_ci) {
    EXPECT_TRUE(std::isfinite(s.median_ci->low) && std::isfinite(s.median_ci->high));
  }
  if (s.fences) {
    EXPECT_TRUE(std::isfinite(s.fences->low) && std::isfinite(s.fences->high));
  }
}

TEST(SummarizeSeriesEdges, EmptyOneAndTwo) {
  const SeriesSummary empty = summarize_series({});
  EXPECT_EQ(empty.count, 0u);
  EXPECT_FALSE(empty.median_ci);
  EXPECT_FALSE(empty.fences);
  expect_finite(empty);

  const SeriesSummary one = summarize_series({2.5});
  EXPECT_EQ(one.median, 2.5);
  EXPECT_EQ(one.q1, 2.5);
  EXPECT_EQ(one.q3, 2.5);
  EXPECT_EQ(one.stddev, 0);
  EXPECT_EQ(one.cv, 0);
  EXPECT_FALSE(one.median_ci);
  EXPECT_FALSE(one.fences);
  EXPECT_TRUE(one.outliers.empty());
  expect_finite(one);

  const SeriesSummary two = summarize_series({3, 1});
  EXPECT_EQ(two.median, 2);
  EXPECT_DOUBLE_EQ(two.q1, 1.5);
  EXPECT_DOUBLE_EQ(two.q3, 2.5);
  EXPECT_DOUBLE_EQ(two.stddev, std::sqrt(2.0));
  EXPECT_FALSE(two.fences);
  expect_finite(two);
}

TEST(SummarizeSeriesEdges, AllEqualValuesHaveNoSpreadAndNoOutliers) {
  const SeriesSummary s = summarize_series(std::vector<double>(10, 4.0));
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.cv, 0);
  EXPECT_EQ(s.q1, 4);
  EXPECT_EQ(s.q3, 4);
  ASSERT_TRUE(s.fences);
  EXPECT_EQ(s.fences->low, 4);  // IQR 0: the fences are the quartiles
  EXPECT_EQ(s.fences->high, 4);
  EXPECT_TRUE(s.outliers.empty());  // a value on a fence is not beyond it
  ASSERT_TRUE(s.median_ci);
  EXPECT_EQ(s.median_ci->low, 4);
  EXPECT_EQ(s.median_ci->high, 4);
  expect_finite(s);
}

TEST(SummarizeSeriesEdges, ZeroMeanGivesZeroCv) {
  const SeriesSummary s = summarize_series({-1, 1, -2, 2});
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.cv, 0);
  expect_finite(s);
}

TEST(SummarizeSeriesEdges, OutliersArePositionsInTheInputOrder) {
  const SeriesSummary s = summarize_series({1.0, 1.1, 9.0, 0.9, 1.0, 1.05, -5.0, 1.0});
  EXPECT_EQ(s.outliers, (std::vector<std::size_t>{2, 6}));
}

TEST(SummarizeSeriesEdges, HundredThousandValues) {
  testing::SeededLognormal draw(1);
  const SeriesSummary s = summarize_series(draw.series(100'000, 1.0, 0.05));
  EXPECT_NEAR(s.median, 1.0, 0.002);
  ASSERT_TRUE(s.median_ci);
  EXPECT_LT(s.median_ci->low, s.median);
  EXPECT_GT(s.median_ci->high, s.median);
  EXPECT_GT(s.outliers.size(), 0u);  // about 0.7 % of a normal is beyond the fences
  EXPECT_LT(s.outliers.size(), 2000u);
  expect_finite(s);
}

TEST(MedianOf, AnyOrderAndNone) {
  EXPECT_EQ(median_of({}), 0);
  EXPECT_EQ(median_of({3, 1, 2}), 2);
  EXPECT_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median_of({4, 1, 3, 2}), summarize_series({4, 1, 3, 2}).median);
}

// --- Mann–Whitney and the counts it needs -------------------------------------------------

TEST(SmallestPValue, ExactFromTheCountsNormalBeyondEight) {
  EXPECT_EQ(smallest_p_value(3, 3), 0.1);  // 2 / C(6, 3)
  EXPECT_DOUBLE_EQ(smallest_p_value(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(smallest_p_value(3, 4), 2.0 / 35);
  EXPECT_EQ(smallest_p_value(1, 1), 1);  // 2 / 2, capped
  EXPECT_EQ(smallest_p_value(0, 5), 1);
  // The test mann_whitney runs on the most extreme outcome.
  const std::vector<double> low{1, 2, 3, 4, 5, 6, 7, 8, 9},
      high{11, 12, 13, 14, 15, 16, 17, 18, 19};
  EXPECT_DOUBLE_EQ(smallest_p_value(9, 9), mann_whitney(low, high).p_value);
  EXPECT_DOUBLE_EQ(smallest_p_value(3, 3), mann_whitney({1, 2, 3}, {4, 5, 6}).p_value);
  EXPECT_GT(smallest_p_value(100'000, 100'000), -1);  // finite (0 by underflow), never NaN
}

TEST(RepetitionsForSignificance, FourAtFivePercent) {
  EXPECT_EQ(repetitions_for_significance(), 4u);
  EXPECT_EQ(repetitions_for_significance(0.2), 3u);     // 0.1 < 0.2
  EXPECT_EQ(repetitions_for_significance(0.01), 5u);    // 2 / C(10, 5) = 0.0079
  EXPECT_GT(repetitions_for_significance(1e-300), 8u);  // ends: the tail underflows
  EXPECT_EQ(repetitions_for_significance(0), 0u);
}

TEST(MannWhitneyEdges, EmptyNoTestLargeExactFinite) {
  const MannWhitney none = mann_whitney({}, {1, 2});
  EXPECT_EQ(none.p_value, 1);
  EXPECT_FALSE(none.exact);
  // The exact distribution with the larger sample at 100,000 values: long double counts.
  std::vector<double> many(100'000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<double>(i);
  const MannWhitney wide =
      mann_whitney({-1.5, 10'000.5, 50'000.5, 99'999.5, 200'000, 3.25, 7.25, 8.25}, many);
  EXPECT_TRUE(wide.exact);
  EXPECT_TRUE(std::isfinite(wide.p_value));
  EXPECT_GT(wide.p_value, 0);
  EXPECT_LE(wide.p_value, 1);
  EXPECT_TRUE(std::isfinite(mann_whitney(many, many).p_value));  // ties: the normal approximation
}

// --- The generator -------------------------------------------------------------------------

TEST(SplitMix64Generator, ReferenceOutputs) {
  SplitMix64 zero(0);  // Vigna's splitmix64.c
  EXPECT_EQ(zero.next(), 0xe220a8397b1dcdafu);
  EXPECT_EQ(zero.next(), 0x6e789e6aa1b965f4u);
  EXPECT_EQ(zero.next(), 0x06c45d188009454fu);
  SplitMix64 other(1234567);
  EXPECT_EQ(other.next(), 6457827717110365317u);
  EXPECT_EQ(other.next(), 3203168211198807973u);
}

TEST(SplitMix64Generator, BoundedDrawsAreTheHighWordOfTheProduct) {
  SplitMix64 random(42);  // computed with Python's integers
  std::vector<std::uint64_t> draws;
  for (int i = 0; i < 8; ++i) draws.push_back(random.below(10));
  EXPECT_EQ(draws, (std::vector<std::uint64_t>{7, 1, 2, 3, 0, 8, 2, 8}));
  SplitMix64 one(7);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(one.below(1), 0u);
  const std::uint64_t huge = (std::uint64_t{1} << 63) + 12345;
  SplitMix64 wide(9);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(wide.below(huge), huge);
}

TEST(SplitMix64Generator, BoundedDrawsAreUniform) {
  SplitMix64 random(3);
  std::vector<int> counts(6, 0);
  for (int i = 0; i < 60'000; ++i) ++counts[random.below(6)];
  for (int c : counts) EXPECT_NEAR(c, 10'000, 400);  // 4 standard deviations
}

// --- Bootstrap -----------------------------------------------------------------------------

// The bootstrap as its header defines it, written the slow and obvious way: each resample
// built from positions in the sorted series and sorted for its median.
Interval reference_bootstrap(std::vector<double> numerator, std::vector<double> denominator,
                             std::uint64_t seed, std::size_t resamples) {
  std::sort(numerator.begin(), numerator.end());
  std::sort(denominator.begin(), denominator.end());
  SplitMix64 random(seed);
  auto resampled_median = [&random](const std::vector<double>& sorted) {
    std::vector<double> resample;
    for (std::size_t i = 0; i < sorted.size(); ++i)
      resample.push_back(sorted[random.below(sorted.size())]);
    std::sort(resample.begin(), resample.end());
    const std::size_t n = resample.size();
    return n % 2 ? resample[n / 2] : (resample[n / 2 - 1] + resample[n / 2]) / 2;
  };
  std::vector<double> ratios;
  for (std::size_t r = 0; r < resamples; ++r) {
    const double top = resampled_median(numerator);
    ratios.push_back(top / resampled_median(denominator));
  }
  std::sort(ratios.begin(), ratios.end());
  return {quantile_sorted(ratios, 0.025), quantile_sorted(ratios, 0.975), 0.95};
}

TEST(RatioOfMediansInterval, IsTheBootstrapOfItsDefinition) {
  testing::SeededLognormal draw(4);
  for (const std::size_t n : std::vector<std::size_t>{1, 2, 7, 20, 51}) {
    const auto a = draw.series(n, 1.0, 0.1), b = draw.series(n + 3, 1.2, 0.1);
    const auto ci = ratio_of_medians_interval(b, a, n, 2000);
    ASSERT_TRUE(ci);
    const Interval expected = reference_bootstrap(b, a, n, 2000);
    EXPECT_EQ(ci->low, expected.low) << n;
    EXPECT_EQ(ci->high, expected.high) << n;
  }
}

TEST(RatioOfMediansInterval, DeterministicPerSeed) {
  testing::SeededLognormal draw(5);
  const auto a = draw.series(20, 1.0, 0.05), b = draw.series(20, 1.1, 0.05);
  const auto first = ratio_of_medians_interval(b, a, 17);
  const auto again = ratio_of_medians_interval(b, a, 17);
  ASSERT_TRUE(first && again);
  EXPECT_EQ(first->low, again->low);
  EXPECT_EQ(first->high, again->high);
  EXPECT_EQ(first->level, kConfidenceLevel);
  bool some_seed_differs = false;
  for (std::uint64_t seed = 18; seed < 28 && !some_seed_differs; ++seed) {
    const auto other = ratio_of_medians_interval(b, a, seed);
    ASSERT_TRUE(other);
    some_seed_differs = other->low != first->low || other->high != first->high;
  }
  EXPECT_TRUE(some_seed_differs);
}

TEST(RatioOfMediansInterval, ContainsThePointRatio) {
  testing::SeededLognormal draw(6);
  for (int trial = 0; trial < 20; ++trial) {
    const auto a = draw.series(15, 2.0, 0.1), b = draw.series(25, 2.4, 0.1);
    const double ratio = median_of(b) / median_of(a);
    const auto ci = ratio_of_medians_interval(b, a, static_cast<std::uint64_t>(trial));
    ASSERT_TRUE(ci);
    EXPECT_LE(ci->low, ratio);
    EXPECT_GE(ci->high, ratio);
    EXPECT_LT(ci->low, ci->high);
  }
}

// Percentile intervals of medians are approximate (the median's bootstrap distribution is
// lumpy at n = 20), so the bound is wide: 88-99 % for a nominal 95 %. 500 trials give a
// standard error of 1 point.
TEST(RatioOfMediansInterval, CoverageOfTheTrueRatioOne) {
  testing::SeededLognormal draw(2024);
  constexpr int kTrials = 500;
  int covered = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const auto a = draw.series(20, 1.0, 0.05), b = draw.series(20, 1.0, 0.05);
    const auto ci = ratio_of_medians_interval(b, a, 1000 + static_cast<std::uint64_t>(trial));
    ASSERT_TRUE(ci);
    if (ci->low <= 1 && 1 <= ci->high) ++covered;
  }
  const double coverage = static_cast<double>(covered) / kTrials;
  std::cout << "[ coverage ] bootstrap interval contains the true ratio 1 in " << covered << " of "
            << kTrials << " trials (" << 100 * coverage << " %)\n";
  EXPECT_GE(coverage, 0.88);
  EXPECT_LE(coverage, 0.99);
}

TEST(RatioOfMediansInterval, EmptyWhenUndefined) {
  EXPECT_FALSE(ratio_of_medians_interval({}, {1, 2}, 1));
  EXPECT_FALSE(ratio_of_medians_interval({1, 2}, {}, 1));
  EXPECT_FALSE(ratio_of_medians_interval({1, 2, 3}, {0, 0, 1}, 1));  // denominator median 0
  EXPECT_FALSE(ratio_of_medians_interval({0, 0, 1}, {1, 2, 3}, 1));  // numerator median 0
  // Median 1, but many resamples of {0, 0, 1, 1, 1} have median 0.
  EXPECT_FALSE(ratio_of_medians_interval({1, 2, 3}, {0, 0, 1, 1, 1}, 1));
  EXPECT_FALSE(ratio_of_medians_interval({1, 2, 3}, {1, 2, 3}, 1, 0));
  EXPECT_FALSE(ratio_of_medians_interval({1, 2, 3}, {1, 2, 3}, 1, 100, 1.0));
}

TEST(RatioOfMediansInterval, SingleValuesAndEqualSeries) {
  const auto single = ratio_of_medians_interval({3}, {2}, 1);
  ASSERT_TRUE(single);
  EXPECT_EQ(single->low, 1.5);
  EXPECT_EQ(single->high, 1.5);
  const auto flat =
      ratio_of_medians_interval(std::vector<double>(8, 2.0), std::vector<double>(8, 2.0), 1);
  ASSERT_TRUE(flat);
  EXPECT_EQ(flat->low, 1);
  EXPECT_EQ(flat->high, 1);
}

}  // namespace
}  // namespace mpiwrite

namespace mpiwrite {
namespace {

// Beyond the draw budget the ratio's interval is the large-sample one; at such n it agrees
// with the bootstrap (forced here by fewer resamples), and it takes no seconds per interval.
TEST(RatioOfMediansInterval, ManyValuesUseTheLargeSampleIntervalWhichAgreesWithTheBootstrap) {
  testing::SeededLognormal draw(11);
  const std::vector<double> a = draw.series(5000, 1.0, 0.1), b = draw.series(5000, 1.2, 0.1);
  const std::optional<Interval> large = ratio_of_medians_interval(a, b, 1);
  const std::optional<Interval> boot = ratio_of_medians_interval(a, b, 1, 2000);  // 2e7 draws
  ASSERT_TRUE(large && boot);
  const double width = boot->high - boot->low;
  EXPECT_NEAR(large->low, boot->low, 0.15 * width);
  EXPECT_NEAR(large->high, boot->high, 0.15 * width);
  const std::optional<Interval> other_seed = ratio_of_medians_interval(a, b, 2);
  ASSERT_TRUE(other_seed);  // the seed plays no part there
  EXPECT_EQ(other_seed->low, large->low);
  EXPECT_EQ(other_seed->high, large->high);
  const double ratio = median_of(a) / median_of(b);
  EXPECT_LT(large->low, ratio);
  EXPECT_GT(large->high, ratio);

  const std::vector<double> many = draw.series(1'000'000, 1.0, 0.1);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(ratio_of_medians_interval(many, many, 3));
  // Not a timing assertion of mpiwrite's speed: a guard that 10^6 repetitions never meet the
  // 10^10-draw bootstrap (minutes) again.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20.0);
}

}  // namespace
}  // namespace mpiwrite
