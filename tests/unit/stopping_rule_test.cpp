// -r auto's stopping rule with known answers, its value parsing, and why it must look at each
// point's precision and never at the difference between points.
#include "mpiwrite/core/stopping_rule.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "mpiwrite/core/statistics.hpp"
#include "seeded_lognormal.hpp"

namespace mpiwrite {
namespace {

TEST(MedianPrecision, IsTheIntervalsHalfWidthOverTheMedian) {
  // n = 6: the 95 % interval is [x(1), x(6)] = [9.9, 10.1], the median 10.
  const std::vector<double> times{10.1, 9.9, 10, 10.05, 10, 9.95};
  ASSERT_TRUE(median_precision(times));
  EXPECT_NEAR(*median_precision(times), 0.01, 1e-12);
  EXPECT_NEAR(*median_precision({1, 2, 3, 4, 5, 6}), 2.5 / 3.5, 1e-12);
}

TEST(MedianPrecision, NoneBelowSixValuesOrForAMedianOfZero) {
  EXPECT_FALSE(median_precision({1, 1, 1, 1, 1}));
  EXPECT_FALSE(median_precision({}));
  EXPECT_FALSE(median_precision({0, 0, 0, 0, 0, 0}));
}

const std::vector<double> kPrecise{10.1, 9.9, 10, 10.05, 10, 9.95};  // 1 %
const std::vector<double> kLoose{5, 15, 10, 10, 10, 10};             // 50 %

TEST(ShouldStop, OnPrecisionOnlyWhenEveryPointIsPreciseAfterTheMinimum) {
  StoppingRule rule;  // 2 %, at least 6, at most 1000, 60 s
  EXPECT_EQ(should_stop(rule, {kPrecise, kPrecise}, 6, 1.0), StoppedBy::Precision);
  EXPECT_EQ(should_stop(rule, {kPrecise, kLoose}, 6, 1.0), std::nullopt);
  rule.min_repetitions = 7;  // precise already, but not yet the minimum
  EXPECT_EQ(should_stop(rule, {kPrecise, kPrecise}, 6, 1.0), std::nullopt);
  rule.min_repetitions = 6;
  rule.precision = 0.005;  // 1 % is not precise enough for 0.5 %
  EXPECT_EQ(should_stop(rule, {kPrecise}, 6, 1.0), std::nullopt);
}

TEST(ShouldStop, OnTheMaximumOfRepetitions) {
  StoppingRule rule;
  rule.max_repetitions = 6;
  EXPECT_EQ(should_stop(rule, {kLoose}, 5, 1.0), std::nullopt);
  EXPECT_EQ(should_stop(rule, {kLoose}, 6, 1.0), StoppedBy::Maximum);
  EXPECT_EQ(should_stop(rule, {kPrecise}, 6, 1.0), StoppedBy::Precision);  // precision first
}

TEST(ShouldStop, BeforeARoundThatWouldOverrunTheBudget) {
  StoppingRule rule;
  rule.max_time_s = 10;
  // 4 rounds took 8 s: a fifth would end at 10 s, within the budget; a sixth at 12 s, not.
  EXPECT_EQ(should_stop(rule, {kLoose}, 4, 8.0), std::nullopt);
  EXPECT_EQ(should_stop(rule, {kLoose}, 5, 10.0), StoppedBy::Budget);
  // The budget ends a run before the minimum too: it is a budget.
  EXPECT_EQ(should_stop(rule, {{1, 2}}, 2, 9.0), StoppedBy::Budget);
  EXPECT_EQ(should_stop(rule, {{}}, 0, 0.0), std::nullopt);
}

TEST(StoppedBy, HasTheReportsNames) {
  EXPECT_EQ(std::string(stopped_by_name(StoppedBy::Fixed)), "fixed");
  EXPECT_EQ(std::string(stopped_by_name(StoppedBy::Precision)), "precision");
  EXPECT_EQ(std::string(stopped_by_name(StoppedBy::Budget)), "budget");
  EXPECT_EQ(std::string(stopped_by_name(StoppedBy::Maximum)), "maximum");
  EXPECT_EQ(std::string(stopped_by_name(StoppedBy::Interrupted)), "interrupted");
}

TEST(ParseFraction, TakesAFractionOrAPercentage) {
  EXPECT_DOUBLE_EQ(*parse_fraction("0.02"), 0.02);
  EXPECT_DOUBLE_EQ(*parse_fraction("2%"), 0.02);
  EXPECT_DOUBLE_EQ(*parse_fraction("0.5%"), 0.005);
  EXPECT_DOUBLE_EQ(*parse_fraction(".1"), 0.1);
  EXPECT_DOUBLE_EQ(*parse_fraction("1e-3"), 0.001);
  for (const char* bad : {"", "%", "0", "0%", "1", "100%", "2", "-0.02", " 0.02", "0.02 ", "abc",
                          "inf", "nan", "2%%", "0x0.1", "1.5"}) {
    EXPECT_FALSE(parse_fraction(bad)) << bad;
  }
}

// Why the rule never looks at the difference. Two points from the SAME distribution (5 %
// spread), 400 seeded trials. "Peeking": after every round from 6 to 60, test the two and
// stop as soon as p < 0.05. "Precision": stop when both medians are 2 % precise (or at 60),
// then test once. Under no difference a test at alpha = 5 % should find one in about 5 % of
// trials. Peeking gives itself ~55 chances to be lucky and finds a difference several times
// as often (about 20 %); the precision rule's stopping does not depend on which way the points
// differ, so its one test keeps its 5 %. Bounds: precision at most 9 % (4 standard errors
// of 1.1 points above 5 %), peeking at least 12 %, far above what a fair test gives.
TEST(StoppingRule, StoppingOnTheDifferenceWouldFindDifferencesThatAreNotThere) {
  testing::SeededLognormal draw(26);
  constexpr int kTrials = 400;
  constexpr std::size_t kMost = 60;
  StoppingRule rule;
  rule.max_repetitions = kMost;
  rule.max_time_s = 1e9;
  int peeking_found = 0, precision_found = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const std::vector<double> a_all = draw.series(kMost, 1.0, 0.05);
    const std::vector<double> b_all = draw.series(kMost, 1.0, 0.05);
    bool peeked = false;
    for (std::size_t n = 6; n <= kMost && !peeked; ++n) {
      const std::vector<double> a(a_all.begin(), a_all.begin() + static_cast<long>(n));
      const std::vector<double> b(b_all.begin(), b_all.begin() + static_cast<long>(n));
      peeked = mann_whitney(a, b).p_value < kSignificanceLevel;
    }
    peeking_found += peeked ? 1 : 0;
    for (std::size_t n = 1; n <= kMost; ++n) {
      const std::vector<double> a(a_all.begin(), a_all.begin() + static_cast<long>(n));
      const std::vector<double> b(b_all.begin(), b_all.begin() + static_cast<long>(n));
      if (!should_stop(rule, {a, b}, static_cast<unsigned>(n), 0.0)) continue;
      precision_found += mann_whitney(a, b).p_value < kSignificanceLevel ? 1 : 0;
      break;
    }
  }
  std::cout << "[ stopping ] no real difference: found one in " << peeking_found << " of "
            << kTrials << " trials when stopping on the difference, " << precision_found
            << " when stopping on precision\n";
  EXPECT_LE(precision_found, kTrials * 9 / 100);
  EXPECT_GE(peeking_found, kTrials * 12 / 100);
}

}  // namespace
}  // namespace mpiwrite
