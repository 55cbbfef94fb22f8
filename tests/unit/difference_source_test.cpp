// The rule that says where a verdict's difference comes from (core/difference_source.hpp).
#include "mpiwrite/core/difference_source.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace mpiwrite {
namespace {

// A point of one rank whose repetitions have these per-file means (us) of create, writes and
// close, one repetition per entry (the same for every operation entry's index).
PointReport point_with(const std::vector<std::array<double, 3>>& means, Phase stat = Phase::Write) {
  PointReport p(PointSpec{1, 1, PointMode::Processes});
  LatencyHistogram h;
  h.record(100'000);
  for (std::size_t i = 0; i < means.size(); ++i) {
    RepetitionFigures rep =
        summarize_repetition(static_cast<unsigned>(i + 1), {{0, 0.01, 10, 1000}}, h);
    rep.operations[static_cast<std::size_t>(Operation::Create)].mean_us = means[i][0];
    rep.operations[static_cast<std::size_t>(Operation::Writes)].mean_us = means[i][1];
    rep.operations[static_cast<std::size_t>(Operation::Close)].mean_us = means[i][2];
    if (stat != Phase::Write) {  // a stat phase whose one operation takes the create mean
      PhaseFigures f;
      f.phase = stat;
      f.operations[0].mean_us = means[i][0];
      rep.phases.push_back(f);
    }
    p.repetitions.push_back(rep);
  }
  return p;
}

TEST(DifferenceSource, LargestAbsoluteChangePerFileFirst) {
  // Medians: winner create 10, writes 51, close 5; runner-up create 16, writes 50, close 5.
  const PointReport winner = point_with({{10, 50, 5}, {9, 51, 5}, {11, 52, 5}});
  const PointReport runner_up = point_with({{16, 49, 5}, {17, 50, 5}, {15, 50, 5}});
  const std::vector<OperationDifference> c = difference_sources(winner, runner_up);
  ASSERT_EQ(c.size(), 3u);  // no fsync: measured in neither
  EXPECT_EQ(c[0].operation, Operation::Create);
  EXPECT_DOUBLE_EQ(c[0].change_us(), -6.0);
  EXPECT_DOUBLE_EQ(*c[0].relative(), -6.0 / 16.0);
  EXPECT_EQ(c[1].operation, Operation::Writes);
  EXPECT_DOUBLE_EQ(c[1].change_us(), 1.0);
  EXPECT_EQ(c[2].operation, Operation::Close);
  EXPECT_DOUBLE_EQ(c[2].change_us(), 0.0);
}

TEST(DifferenceSource, AGrowthCarriesTheDifferenceWhenItIsTheLargest) {
  // The winner is faster overall, yet its writes grew most: the rule names what changed most,
  // whichever the sign, so the report cannot hide a cost the winner paid.
  const PointReport winner = point_with({{10, 90, 5}});
  const PointReport runner_up = point_with({{30, 60, 5}});
  const std::vector<OperationDifference> c = difference_sources(winner, runner_up);
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].operation, Operation::Writes);
  EXPECT_DOUBLE_EQ(c[0].change_us(), 30.0);
}

TEST(DifferenceSource, NoRatioAgainstZeroAndNothingWithoutRepetitions) {
  const PointReport winner = point_with({{4, 1, 0}});
  const PointReport runner_up = point_with({{0, 1, 0}});
  const std::vector<OperationDifference> c = difference_sources(winner, runner_up);
  ASSERT_EQ(c.size(), 2u);  // close is 0 in both: left out
  EXPECT_EQ(c[0].operation, Operation::Create);
  EXPECT_FALSE(c[0].relative().has_value());
  EXPECT_TRUE(difference_sources(winner, PointReport(PointSpec{1, 1, PointMode::Threads})).empty());
}

TEST(DifferenceSource, ALaterPhaseUsesItsOwnOperations) {
  const PointReport winner = point_with({{3, 50, 5}}, Phase::Stat);
  const PointReport runner_up = point_with({{7, 10, 5}}, Phase::Stat);
  const std::vector<OperationDifference> c = difference_sources(winner, runner_up, Phase::Stat);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].operation, Operation::Stat);
  EXPECT_DOUBLE_EQ(c[0].change_us(), -4.0);
  EXPECT_TRUE(difference_sources(winner, runner_up, Phase::Read).empty());  // not run
}

}  // namespace
}  // namespace mpiwrite
