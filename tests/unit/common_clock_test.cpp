#include "mpiwrite/core/common_clock.hpp"

#include <gtest/gtest.h>

namespace mpiwrite {
namespace {

// The defect this fixes: rank 1 was started 3 ms late by the scheduler and wrote for 1 ms. Its
// own duration is short, yet the job's phase lasted until it finished.
TEST(CommonClock, ALateStartLengthensTheMakespanNotTheRanksOwnTime) {
  const std::vector<RankClockSample> samples = {{0, 1'000'000, 3'000'000, 5, 50},
                                                {1, 4'000'000, 5'000'000, 5, 50}};
  const std::vector<RankFigures> ranks = on_common_axis(samples, {});
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_DOUBLE_EQ(ranks[0].start_s, 0.0);
  EXPECT_DOUBLE_EQ(ranks[0].elapsed_s, 0.002);
  EXPECT_DOUBLE_EQ(ranks[1].start_s, 0.003);
  EXPECT_DOUBLE_EQ(ranks[1].elapsed_s, 0.001);
  const RepetitionFigures rep = summarize_repetition(1, ranks, LatencyFigures{});
  EXPECT_DOUBLE_EQ(rep.makespan_s, 0.004);  // 1 ms .. 5 ms
  EXPECT_DOUBLE_EQ(rep.slowest_s, 0.002);   // the old, wrong makespan
  EXPECT_DOUBLE_EQ(rep.first_done_s, 0.002);
  EXPECT_DOUBLE_EQ(rep.start_spread_s, 0.003);
  EXPECT_DOUBLE_EQ(rep.files_per_s, 10 / 0.004);
}

TEST(CommonClock, OffsetsPutOtherKernelsOnRankZerosAxis) {
  // Rank 1's clock reads 1 s ahead of rank 0's: the offset -1 s puts it back.
  const std::vector<RankClockSample> samples = {{0, 10'000'000, 12'000'000, 1, 1},
                                                {1, 1'010'500'000, 1'013'000'000, 1, 1}};
  const std::vector<RankFigures> ranks = on_common_axis(samples, {0, -1'000'000'000});
  EXPECT_DOUBLE_EQ(ranks[1].start_s, 0.0005);
  EXPECT_DOUBLE_EQ(summarize_repetition(1, ranks, LatencyFigures{}).makespan_s, 0.003);
}

TEST(CommonClock, TheOffsetComesFromTheShortestRoundTrip) {
  // The remote clock is 500 ahead; the second exchange was queued and would say 700 - 100.
  const ClockOffset o =
      estimate_offset({{1000, 1550, 1100}, {2000, 2700, 2600}, {3000, 3560, 3120}});
  EXPECT_EQ(o.offset_ns, 1050 - 1550);
  EXPECT_EQ(o.error_ns, 50);
  EXPECT_EQ(estimate_offset({{0, 7, 3}}).error_ns, 2);  // an odd round trip rounds the bound up
}

TEST(CommonClock, RanksOfOneKernelShareADomainWhateverTheirHostNames) {
  EXPECT_EQ(clock_domains({"k1", "k1", "k2", "k1", "k2"}), (std::vector<int>{0, 0, 2, 0, 2}));
  EXPECT_EQ(clock_domains({}), std::vector<int>{});
}

}  // namespace
}  // namespace mpiwrite
