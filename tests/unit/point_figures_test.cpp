// The figures summarize_report derives for the reporters: a point's rates, its outliers, its
// hosts, a rank's end and the peak memory. Every format prints these, none computes them.
#include <gtest/gtest.h>

#include "mpiwrite/core/run_report.hpp"

namespace mpiwrite {
namespace {

// A point of two ranks, one repetition per makespan: rank 1 starts `offset` after rank 0.
PointReport point_of(const std::vector<double>& makespans) {
  PointReport p(PointSpec{2, 1, PointMode::Run});
  unsigned index = 0;
  for (double seconds : makespans) {
    p.repetitions.push_back(summarize_repetition(
        ++index, {{0, seconds, 60, 3 * 1'048'576}, {1, seconds / 2, 40, 1'048'576, seconds / 4}},
        LatencyFigures{}));
  }
  return p;
}

TEST(PointFigures, RatesAreOneRepetitionOverEachMakespanStatistic) {
  std::vector<PointReport> points{point_of({2.0, 4.0, 5.0})};
  summarize_points(points);
  const PointReport& p = points.front();
  EXPECT_EQ(p.files, 100u);
  EXPECT_EQ(p.bytes, 4u * 1'048'576u);
  ASSERT_TRUE(p.files_per_s && p.mib_per_s);
  EXPECT_DOUBLE_EQ(p.files_per_s->at_median, 25.0);  // 100 files / 4 s
  EXPECT_DOUBLE_EQ(p.files_per_s->at_mean, 100.0 / (11.0 / 3.0));
  EXPECT_DOUBLE_EQ(p.files_per_s->at_min, 50.0);  // the shortest makespan: the highest rate
  EXPECT_DOUBLE_EQ(p.files_per_s->at_max, 20.0);
  EXPECT_DOUBLE_EQ(p.mib_per_s->at_median, 1.0);  // 4 MiB / 4 s
}

TEST(PointFigures, AnUnmeasuredPointHasNoRatesAndAZeroTimeARateOfZero) {
  std::vector<PointReport> points{point_of({}), point_of({0.0})};
  summarize_points(points);
  EXPECT_FALSE(points[0].files_per_s || points[0].mib_per_s);
  EXPECT_EQ(points[0].files, 0u);
  ASSERT_TRUE(points[1].files_per_s);
  EXPECT_EQ(points[1].files_per_s->at_median, 0.0);  // finite, not infinity
}

TEST(PointFigures, OutliersAreAskedByRepetitionNumber) {
  std::vector<PointReport> points{point_of({1.0, 1.01, 0.99, 1.0, 1.02, 9.0})};
  summarize_points(points);
  const PointReport& p = points.front();
  EXPECT_TRUE(p.is_outlier(6));
  for (unsigned i = 1; i <= 5; ++i) EXPECT_FALSE(p.is_outlier(i)) << i;
  EXPECT_FALSE(p.is_outlier(0));  // numbers start at 1
  EXPECT_FALSE(p.is_outlier(7));
}

TEST(PointFigures, ARankEndsAtItsStartPlusItsTime) {
  const RankFigures rank{3, 0.5, 1, 1, 0.25};
  EXPECT_DOUBLE_EQ(rank.done_s(), 0.75);
}

TEST(HostSummary, TheMedianAndMaxOfEachHostsSlowestRank) {
  RunReport r;
  r.context.hosts = group_ranks_by_host({"a", "b"});
  r.points.push_back(point_of({2.0, 6.0, 4.0}));
  summarize_report(r);
  const std::vector<HostSummary>& hosts = r.points.front().hosts;
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].host, "a");
  EXPECT_EQ(hosts[0].ranks, std::vector<int>{0});
  EXPECT_EQ(hosts[0].files, 60u);
  EXPECT_DOUBLE_EQ(hosts[0].slowest_median_s, 4.0);
  EXPECT_DOUBLE_EQ(hosts[0].slowest_max_s, 6.0);
  EXPECT_EQ(hosts[1].bytes, 1'048'576u);
  EXPECT_DOUBLE_EQ(hosts[1].slowest_median_s, 2.0);
  EXPECT_DOUBLE_EQ(hosts[1].slowest_max_s, 3.0);
  r.points.front().repetitions = {};
  summarize_report(r);
  EXPECT_TRUE(r.points.front().hosts.empty());  // not measured: no host figures
}

TEST(PeakMemory, TheLargestRankInMiB) {
  RunContext x;
  EXPECT_FALSE(largest_peak_rss(x));
  x.peak_rss_kib = {1024, 3072, 2048};
  const auto peak = largest_peak_rss(x);
  ASSERT_TRUE(peak);
  EXPECT_EQ(peak->rank, 1);
  EXPECT_DOUBLE_EQ(peak->mib, 3.0);
}

}  // namespace
}  // namespace mpiwrite
