// decide() on synthetic series: how often it calls equal series different, how often it finds
// a real 20 % difference, and the counts below which no verdict is possible.
#include "mpiwrite/core/verdict.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "seeded_lognormal.hpp"

namespace mpiwrite {
namespace {

constexpr double kSpread = 0.05;  // 5 % run-to-run spread, typical of a quiet file system

// Two series of 20 from the same distribution, 1000 seeded trials. Under H0 the U test
// rejects with probability at most alpha = 5 % (the normal approximation with the continuity
// correction is slightly conservative at 20 against 20), so NoDifference or BelowNoise is
// expected in about 95 % of trials. The bound 93 % is 2.9 standard errors (sqrt(0.05 * 0.95 /
// 1000) = 0.69 points) below that: a correct test fails it for fewer than 1 seed in 500,
// while a test twice too liberal (10 %) would give 90 % and fail. The upper bound 99 % (5.8
// standard errors above) catches the opposite fault, a test that hardly ever rejects.
TEST(Decide, SameDistributionIsNoClearDifferenceInAtLeast93Percent) {
  testing::SeededLognormal draw(11);
  constexpr int kTrials = 1000;
  int no_clear_difference = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const auto a = draw.series(20, 1.0, kSpread), b = draw.series(20, 1.0, kSpread);
    const Verdict v = decide(a, b, static_cast<std::uint64_t>(trial));
    ASSERT_NE(v.outcome, Outcome::TooFewRepetitions);
    if (v.outcome == Outcome::NoDifference || v.outcome == Outcome::BelowNoise)
      ++no_clear_difference;
  }
  std::cout << "[ verdict  ] same distribution: no clear difference in " << no_clear_difference
            << " of " << kTrials << " trials\n";
  EXPECT_GE(no_clear_difference, 930);
  EXPECT_LE(no_clear_difference, 990);
}

// 20 % apart in median at 5 % spread is four spreads: the test's power at 20 against 20 is
// essentially 1, so 99 % leaves room only for a broken direction or threshold.
TEST(Decide, TwentyPercentApartFindsTheFasterInAtLeast99Percent) {
  testing::SeededLognormal draw(12);
  constexpr int kTrials = 1000;
  int right = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const bool a_is_faster = trial % 2 == 0;  // both directions
    const auto fast = draw.series(20, 1.0, kSpread), slow = draw.series(20, 1.2, kSpread);
    const Verdict v = a_is_faster ? decide(fast, slow, static_cast<std::uint64_t>(trial))
                                  : decide(slow, fast, static_cast<std::uint64_t>(trial));
    if (v.outcome == (a_is_faster ? Outcome::AFaster : Outcome::BFaster)) ++right;
  }
  std::cout << "[ verdict  ] 20 % apart: the right faster one in " << right << " of " << kTrials
            << " trials\n";
  EXPECT_GE(right, 990);
}

TEST(Decide, ThreeAgainstThreeIsAlwaysTooFewRepetitions) {
  EXPECT_EQ(smallest_p_value(3, 3), 0.1);
  EXPECT_EQ(repetitions_for_significance(), 4u);
  testing::SeededLognormal draw(13);
  for (int trial = 0; trial < 100; ++trial) {
    const auto a = draw.series(3, 1.0, kSpread), b = draw.series(3, 1.5, kSpread);
    const Verdict v = decide(a, b, static_cast<std::uint64_t>(trial));
    EXPECT_EQ(v.outcome, Outcome::TooFewRepetitions);
    EXPECT_EQ(v.repetitions_needed, 4u);
  }
  // Even when every a is below every b, the best p is 0.1.
  const Verdict separated = decide({1, 2, 3}, {10, 11, 12}, 1);
  EXPECT_EQ(separated.outcome, Outcome::TooFewRepetitions);
  EXPECT_EQ(separated.test.p_value, 0.1);
  EXPECT_DOUBLE_EQ(separated.ratio, 11.0 / 2.0);
  ASSERT_TRUE(separated.ratio_ci);
}

TEST(Decide, FourAgainstFourCanDecide) {
  const Verdict v = decide({1.0, 1.01, 0.99, 1.02}, {2.0, 2.02, 1.98, 2.01}, 1);
  EXPECT_EQ(v.outcome, Outcome::AFaster);
  EXPECT_EQ(v.repetitions_needed, 0u);
  EXPECT_DOUBLE_EQ(v.test.p_value, 2.0 / 70);
  EXPECT_NEAR(v.ratio, 2.0, 0.02);
  EXPECT_EQ(decide({2.0, 2.02, 1.98, 2.01}, {1.0, 1.01, 0.99, 1.02}, 1).outcome, Outcome::BFaster);
}

TEST(Decide, SignificantButWithinTheNoiseThreshold) {
  // Every b 1 % above its a: the test rejects, the ratio is within 2 %.
  const std::vector<double> a{1.00, 1.001, 1.002, 1.003, 1.004, 1.005, 1.006, 1.007, 1.008, 1.009};
  std::vector<double> b;
  for (double v : a) b.push_back(v * 1.01);
  const Verdict v = decide(a, b, 1);
  EXPECT_LT(v.test.p_value, kSignificanceLevel);
  EXPECT_EQ(v.outcome, Outcome::BelowNoise);
  EXPECT_EQ(decide(a, b, 1, kSignificanceLevel, 0.001).outcome, Outcome::AFaster);
}

TEST(Decide, ZeroMediansGiveNoNaN) {
  const Verdict both = decide({0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, 1);
  EXPECT_EQ(both.ratio, 1);
  EXPECT_FALSE(both.ratio_ci);
  EXPECT_EQ(both.outcome, Outcome::NoDifference);
  EXPECT_EQ(both.test.p_value, 1);
  const Verdict a_zero = decide({0, 0, 0, 0, 0}, {1, 2, 3, 4, 5}, 1);
  EXPECT_EQ(a_zero.ratio, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(a_zero.ratio_ci);
  EXPECT_EQ(a_zero.outcome, Outcome::AFaster);
}

TEST(OutcomeName, EveryOutcome) {
  EXPECT_EQ(std::string(outcome_name(Outcome::AFaster)), "a faster");
  EXPECT_EQ(std::string(outcome_name(Outcome::BFaster)), "b faster");
  EXPECT_EQ(std::string(outcome_name(Outcome::NoDifference)), "no significant difference");
  EXPECT_EQ(std::string(outcome_name(Outcome::BelowNoise)), "below noise threshold");
  EXPECT_EQ(std::string(outcome_name(Outcome::TooFewRepetitions)), "too few repetitions");
}

}  // namespace
}  // namespace mpiwrite
