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
    if (verdict_class(v.outcome) != VerdictClass::Faster) ++no_clear_difference;
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

TEST(Decide, SignificantButWithinTheEquivalenceMarginIsEquivalent) {
  // Every b 1 % above its a: the test rejects, the ratio and its whole interval are within 2 %:
  // a real difference, but smaller than the margin the user said does not matter.
  const std::vector<double> a{1.00, 1.001, 1.002, 1.003, 1.004, 1.005, 1.006, 1.007, 1.008, 1.009};
  std::vector<double> b;
  for (double v : a) b.push_back(v * 1.01);
  const Verdict v = decide(a, b, 1);
  EXPECT_LT(v.test.p_value, kSignificanceLevel);
  EXPECT_EQ(v.outcome, Outcome::Equivalent);
  EXPECT_EQ(decide(a, b, 1, kSignificanceLevel, 0.001).outcome, Outcome::AFaster);
}

// Equivalence is the interval inside [1 - D, 1 + D], checked at both ends.
TEST(WithinEquivalence, BothEndsInsideTheMargin) {
  EXPECT_TRUE(within_equivalence(Interval{0.98, 1.02}, 0.02));
  EXPECT_TRUE(within_equivalence(Interval{0.99, 1.01}, 0.02));
  EXPECT_FALSE(within_equivalence(Interval{0.97, 1.01}, 0.02));
  EXPECT_FALSE(within_equivalence(Interval{0.99, 1.03}, 0.02));
  EXPECT_FALSE(within_equivalence(std::nullopt, 0.02));
}

// Same distribution, 1 % spread, 30 against 30: each median is known to about 0.5 %, the
// ratio's interval is about +-1 %, inside +-2 %: equivalent in nearly every trial (the 95 %
// interval misses 1 by more than 2 % far less than once in 100). At 20 % spread and 10
// repetitions the interval is far wider than +-2 %: never equivalent, undecided instead (not
// enough data), which is the distinction the three-way verdict exists for.
TEST(Decide, SameDistributionPreciselyMeasuredIsEquivalent) {
  testing::SeededLognormal draw(14);
  int equivalent = 0, wide_equivalent = 0, wide_undecided = 0;
  for (int trial = 0; trial < 100; ++trial) {
    const auto seed = static_cast<std::uint64_t>(trial);
    const auto a = draw.series(30, 1.0, 0.01), b = draw.series(30, 1.0, 0.01);
    if (decide(a, b, seed).outcome == Outcome::Equivalent) ++equivalent;
    const auto c = draw.series(10, 1.0, 0.2), d = draw.series(10, 1.0, 0.2);
    const Outcome wide = decide(c, d, seed).outcome;
    if (wide == Outcome::Equivalent) ++wide_equivalent;
    if (verdict_class(wide) == VerdictClass::Undecided) ++wide_undecided;
  }
  EXPECT_GE(equivalent, 95);
  EXPECT_EQ(wide_equivalent, 0);
  EXPECT_GE(wide_undecided, 90);
}

// Twice as slow is never equivalent, whatever the margin below 100 %.
TEST(Decide, TwiceAsSlowIsFasterNeverEquivalent) {
  testing::SeededLognormal draw(15);
  for (int trial = 0; trial < 50; ++trial) {
    const auto a = draw.series(8, 1.0, 0.05), b = draw.series(8, 2.0, 0.05);
    const Verdict v = decide(a, b, static_cast<std::uint64_t>(trial), kSignificanceLevel, 0.5);
    EXPECT_EQ(v.outcome, Outcome::AFaster);
  }
}

TEST(VerdictClass, ThreeAnswers) {
  EXPECT_EQ(verdict_class(Outcome::AFaster), VerdictClass::Faster);
  EXPECT_EQ(verdict_class(Outcome::BFaster), VerdictClass::Faster);
  EXPECT_EQ(verdict_class(Outcome::Equivalent), VerdictClass::Equivalent);
  EXPECT_EQ(verdict_class(Outcome::NoDifference), VerdictClass::Undecided);
  EXPECT_EQ(verdict_class(Outcome::BelowNoise), VerdictClass::Undecided);
  EXPECT_EQ(verdict_class(Outcome::TooFewRepetitions), VerdictClass::Undecided);
  EXPECT_EQ(std::string(verdict_class_name(VerdictClass::Equivalent)), "equivalent");
  EXPECT_EQ(std::string(verdict_class_name(VerdictClass::Undecided)), "undecided");
  EXPECT_EQ(std::string(verdict_class_name(VerdictClass::Faster)), "faster");
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
  EXPECT_EQ(std::string(outcome_name(Outcome::Equivalent)), "equivalent");
}

}  // namespace
}  // namespace mpiwrite
