#include "mpiwrite/core/points.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "mpiwrite/core/comparison.hpp"

namespace mpiwrite {
namespace {

std::set<std::string> labels(const std::vector<PointSpec>& points, PointMode mode) {
  std::set<std::string> result;
  for (const PointSpec& p : points) {
    if (p.mode == mode) result.insert(p.label());
  }
  return result;
}

TEST(MakePoints, APlainRunIsOnePointOnEveryRank) {
  RunConfig c;
  c.threads = 3;
  EXPECT_EQ(make_points(c, 4), (std::vector<PointSpec>{{4, 3, PointMode::Run}}));
}

TEST(MakePoints, SweepSortsAndDropsRepeats) {
  RunConfig c;
  c.sweep_threads = {4, 1, 2, 4};
  const auto points = make_points(c, 2);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0], (PointSpec{2, 1, PointMode::Sweep}));
  EXPECT_EQ(points[2], (PointSpec{2, 4, PointMode::Sweep}));
}

TEST(MakePoints, CompareCoversExactlyThePromisedCombinations) {
  RunConfig c;
  c.compare = true;
  c.threads = 2;  // limit: 4 ranks x 2 = 8
  const auto points = make_points(c, 4);
  EXPECT_EQ(points.front(), (PointSpec{1, 1, PointMode::Processes}));  // the baseline first
  EXPECT_EQ(labels(points, PointMode::Processes), (std::set<std::string>{"1x1", "2x1", "4x1"}));
  EXPECT_EQ(labels(points, PointMode::Threads), (std::set<std::string>{"1x2", "1x4", "1x8"}));
  EXPECT_EQ(labels(points, PointMode::Hybrid), (std::set<std::string>{"2x2", "2x4", "4x2"}));
  EXPECT_EQ(points.size(), 9u);
  for (const PointSpec& p : points) {
    EXPECT_LE(p.ranks, 4);
    EXPECT_LE(p.concurrency(), 8u);
  }
}

TEST(MakePoints, CompareWithUringAddsAsyncPointsAndKeepsPosixForTheRest) {
  RunConfig c;
  c.compare = true;
  c.engine = Engine::Uring;
  c.max_concurrency = 4;
  const auto points = make_points(c, 2);
  EXPECT_EQ(points.front(), (PointSpec{1, 1, PointMode::Processes, Engine::Posix}));
  EXPECT_EQ(labels(points, PointMode::Async), (std::set<std::string>{"1x1q1", "1x1q2", "1x1q4"}));
  for (const PointSpec& p : points) {
    EXPECT_EQ(p.engine, p.mode == PointMode::Async ? Engine::Uring : Engine::Posix) << p.label();
    if (p.mode == PointMode::Async) {
      EXPECT_EQ(p.concurrency(), p.queue_depth);
    }
  }
}

TEST(MakePoints, APlainUringRunCarriesItsQueueDepth) {
  RunConfig c;
  c.engine = Engine::Uring;
  c.queue_depth = 16;
  c.threads = 2;
  const auto points = make_points(c, 3);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(points[0].label(), "3x2q16");
  EXPECT_EQ(points[0].concurrency(), 96u);
}

TEST(MakePoints, CompareLimitAndOddRankCounts) {
  RunConfig c;
  c.compare = true;
  c.max_concurrency = 4;
  const auto points = make_points(c, 3);  // processes only at powers of two <= 3
  EXPECT_EQ(labels(points, PointMode::Processes), (std::set<std::string>{"1x1", "2x1"}));
  EXPECT_EQ(labels(points, PointMode::Threads), (std::set<std::string>{"1x2", "1x4"}));
  EXPECT_EQ(labels(points, PointMode::Hybrid), (std::set<std::string>{"2x2"}));
  c.max_concurrency = 1;
  EXPECT_EQ(make_points(c, 3).size(), 1u);
}

PointReport measured(PointSpec spec, std::vector<double> makespans) {
  PointReport p(spec);
  unsigned index = 0;
  for (double m : makespans)
    p.repetitions.push_back(summarize_repetition(++index, {{0, m, 0, 0}}, LatencyFigures{}));
  return p;
}

TEST(SummarizePoints, SpeedupAndEfficiencyAgainstTheFirstPoint) {
  std::vector<PointReport> points{measured({1, 1, PointMode::Processes}, {4.0, 4.0}),
                                  measured({2, 1, PointMode::Processes}, {2.0, 3.0}),
                                  measured({1, 4, PointMode::Threads}, {1.0, 1.0})};
  summarize_points(points);
  EXPECT_DOUBLE_EQ(points[1].makespan.mean, 2.5);
  EXPECT_DOUBLE_EQ(points[1].speedup.value(), 1.6);
  EXPECT_DOUBLE_EQ(points[1].efficiency.value(), 0.8);
  EXPECT_DOUBLE_EQ(points[2].speedup.value(), 4.0);
  EXPECT_DOUBLE_EQ(points[2].efficiency.value(), 1.0);
}

// Six repetitions around `median`, spread by up to +-8 %: the same shape for every point, so
// two points 20 % apart never overlap and a test can tell them apart (6 against 6: p = 0.002).
std::vector<double> around(double median) {
  std::vector<double> values;
  for (double f : {1.00, 1.06, 0.95, 1.03, 0.98, 1.08}) values.push_back(median * f);
  return values;
}

TEST(CompareRows, OneRowPerConcurrencyWithTheFastestHybridAndAWinner) {
  std::vector<PointReport> points{measured({1, 1, PointMode::Processes}, around(8.0)),
                                  measured({2, 1, PointMode::Processes}, around(5.0)),
                                  measured({1, 2, PointMode::Threads}, around(4.0)),
                                  measured({1, 8, PointMode::Threads}, around(3.0)),
                                  measured({2, 4, PointMode::Hybrid}, around(2.5)),
                                  measured({4, 2, PointMode::Hybrid}, around(2.0))};
  summarize_points(points, 7);
  const auto rows = compare_rows(points, 7);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].concurrency, 1u);
  EXPECT_EQ(rows[0].threads->label, "1x1");  // the baseline serves both columns
  EXPECT_FALSE(rows[0].verdict);             // one point: nothing to decide
  EXPECT_EQ(rows[0].winner, "");
  EXPECT_EQ(rows[1].winner, "threads");
  ASSERT_TRUE(rows[1].verdict);
  EXPECT_EQ(rows[1].verdict->runner_up, "processes");
  EXPECT_NEAR(rows[1].verdict->verdict.test.p_value, 2.0 / 924, 1e-12);  // all 6 below all 6
  EXPECT_NEAR(rows[1].verdict->verdict.ratio, 1.25, 1e-12);
  EXPECT_FALSE(rows[1].hybrid);
  EXPECT_EQ(rows[2].concurrency, 8u);
  EXPECT_FALSE(rows[2].processes);
  EXPECT_EQ(rows[2].hybrid->label, "4x2");
  EXPECT_NEAR(rows[2].hybrid->speedup.value(), 4.0, 1e-12);  // of the medians
  EXPECT_NEAR(rows[2].hybrid->efficiency.value(), 0.5, 1e-12);
  ASSERT_TRUE(rows[2].hybrid->speedup_ci);
  EXPECT_LE(rows[2].hybrid->speedup_ci->low, 4.0);
  EXPECT_GE(rows[2].hybrid->speedup_ci->high, 4.0);
  EXPECT_EQ(rows[2].winner, "hybrid");
}

// The defect of mpiwrite 0.3: the lower mean won, however much the series overlapped.
TEST(CompareRows, OverlappingSeriesHaveNoWinnerButThePValue) {
  std::vector<double> a = around(5.0), b = around(5.0);
  std::rotate(b.begin(), b.begin() + 2, b.end());
  for (double& v : b) v *= 0.99;  // 1 % faster by the mean: a "winner" before
  std::vector<PointReport> points{measured({1, 1, PointMode::Processes}, around(8.0)),
                                  measured({2, 1, PointMode::Processes}, a),
                                  measured({1, 2, PointMode::Threads}, b)};
  summarize_points(points, 7);
  const auto rows = compare_rows(points, 7);
  ASSERT_TRUE(rows[1].verdict);
  EXPECT_EQ(rows[1].verdict->fastest, "threads");
  EXPECT_EQ(rows[1].winner, "");
  EXPECT_NE(rows[1].verdict->verdict.outcome, Outcome::AFaster);
  EXPECT_GT(rows[1].verdict->verdict.test.p_value, 0.05);
}

TEST(CompareRows, ThreeAgainstThreeCanNeverNameAWinner) {
  std::vector<PointReport> points{measured({1, 1, PointMode::Processes}, {8.0, 8.1, 7.9}),
                                  measured({2, 1, PointMode::Processes}, {5.0, 5.1, 4.9}),
                                  measured({1, 2, PointMode::Threads}, {2.0, 2.1, 1.9})};
  summarize_points(points);
  const auto rows = compare_rows(points);
  ASSERT_TRUE(rows[1].verdict);
  EXPECT_EQ(rows[1].verdict->verdict.outcome, Outcome::TooFewRepetitions);
  EXPECT_EQ(rows[1].verdict->verdict.repetitions_needed, 4u);
  EXPECT_EQ(rows[1].winner, "");
  const auto warnings = comparison_warnings(points, 3);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("-r 4"), std::string::npos) << warnings[0];
  EXPECT_TRUE(comparison_warnings(points, 4).empty());
  EXPECT_TRUE(comparison_warnings({points[0]}, 1).empty());  // a plain run compares nothing
}

TEST(SummarizePoints, WarnsOfHighVariationASlowFirstRepetitionAndOutliers) {
  std::vector<PointReport> points{
      measured({1, 1, PointMode::Run}, {9.0, 5.0, 5.1, 4.9, 5.0, 5.05})};
  summarize_points(points);
  const auto& w = points[0].warnings;
  ASSERT_EQ(w.size(), 3u);
  EXPECT_NE(w[0].find("high variation"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("--warmup"), std::string::npos) << w[1];
  EXPECT_NE(w[2].find("outlier repetition (Tukey's fences, 1.5 IQR): 1"), std::string::npos)
      << w[2];
  points = {measured({1, 1, PointMode::Run}, around(5.0))};
  summarize_points(points);
  EXPECT_TRUE(points[0].warnings.empty());
  // Thousands of outliers (a long run on a busy machine) are counted, and only the first named.
  std::vector<double> many(3000, 5.0);
  for (std::size_t i = 0; i < many.size(); i += 3)
    many[i] = 5.0 + 0.001 * static_cast<double>(i % 7);
  for (std::size_t i = 0; i < many.size(); i += 40) many[i] = 50.0;
  points = {measured({1, 1, PointMode::Run}, many)};
  summarize_points(points);
  const std::string& outliers = points[0].warnings.back();
  EXPECT_LT(outliers.size(), 200u) << outliers;
  EXPECT_NE(outliers.find(", ..."), std::string::npos) << outliers;
}

TEST(CompareRows, AsyncIsItsOwnColumnAndCanWin) {
  std::vector<PointReport> points{
      measured({1, 1, PointMode::Processes}, around(8.0)),
      measured({1, 1, PointMode::Async, Engine::Uring, 1}, around(10.0)),
      measured({1, 2, PointMode::Threads}, around(5.0)),
      measured({1, 1, PointMode::Async, Engine::Uring, 2}, around(4.0))};
  summarize_points(points);
  const auto rows = compare_rows(points);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].processes->label, "1x1");  // async 1x1q1 does not take the baseline's place
  EXPECT_EQ(rows[0].async->label, "1x1q1");
  EXPECT_EQ(rows[0].winner, "processes");  // 1x1 against 1x1q1: two points
  EXPECT_EQ(rows[1].async->label, "1x1q2");
  EXPECT_NEAR(rows[1].async->efficiency.value(), 1.0, 1e-12);
  EXPECT_EQ(rows[1].winner, "async");
}

// An interrupted comparison: points without a timed repetition have no figures and never win,
// and against an unmeasured baseline nothing has a speedup.
TEST(CompareRows, UnmeasuredPointsNeverWinAndAnUnmeasuredBaselineGivesNoSpeedups) {
  std::vector<PointReport> points{
      measured({1, 1, PointMode::Processes}, around(8.0)),
      measured({2, 1, PointMode::Processes}, {}), measured({1, 2, PointMode::Threads}, around(5.0)),
      measured({1, 4, PointMode::Threads}, {}), measured({2, 2, PointMode::Hybrid}, {})};
  summarize_points(points);
  EXPECT_FALSE(points[1].speedup);
  EXPECT_FALSE(points[1].efficiency);
  EXPECT_NEAR(points[2].speedup.value(), 1.6, 1e-12);
  auto rows = compare_rows(points);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1].winner, "");  // one measured point: nothing to test it against
  EXPECT_FALSE(rows[1].verdict);
  EXPECT_FALSE(rows[1].processes->mean_s);
  EXPECT_FALSE(rows[1].processes->median_s);
  EXPECT_EQ(rows[1].processes->repetitions, 0u);
  EXPECT_EQ(rows[2].winner, "");  // nothing at concurrency 4 was measured
  EXPECT_EQ(rows[2].hybrid->label, "2x2");

  points[0] = measured({1, 1, PointMode::Processes}, {});
  summarize_points(points);
  for (const PointReport& p : points) {
    EXPECT_FALSE(p.speedup) << p.spec.label();
    EXPECT_FALSE(p.efficiency) << p.spec.label();
  }
  rows = compare_rows(points);
  EXPECT_EQ(rows[0].winner, "");
  EXPECT_FALSE(rows[1].threads->speedup);
}

// A measured hybrid beats an unmeasured one whatever their order.
TEST(CompareRows, TheFastestHybridIsAMeasuredOne) {
  std::vector<PointReport> points{
      measured({1, 1, PointMode::Processes}, around(8.0)), measured({2, 4, PointMode::Hybrid}, {}),
      measured({4, 2, PointMode::Hybrid}, around(3.0)), measured({8, 1, PointMode::Processes}, {})};
  summarize_points(points);
  const auto rows = compare_rows(points);
  EXPECT_EQ(rows[1].hybrid->label, "4x2");
  EXPECT_EQ(rows[1].winner, "");  // the only measured point of its row
}

PointSpec in_layout(PointSpec spec, Layout layout) {
  spec.layout = layout;
  return spec;
}

TEST(MakePoints, EveryLayoutGetsThePointsOfOneLayoutLayoutMajorInTheOrderGiven) {
  RunConfig c;
  c.compare = true;
  c.layouts = {Layout::Rank, Layout::Shared};
  const auto points = make_points(c, 2);
  RunConfig one = c;
  one.layouts = {Layout::Shared};
  const auto each = make_points(one, 2);
  ASSERT_EQ(each.size(), 3u);  // 1x1, 2x1, 1x2
  ASSERT_EQ(points.size(), 2 * each.size());
  for (std::size_t i = 0; i < each.size(); ++i) {
    EXPECT_EQ(points[i], in_layout(each[i], Layout::Rank)) << i;
    EXPECT_EQ(points[each.size() + i], each[i]) << i;
  }
  // The baseline of every speedup: 1x1 of the first layout given.
  EXPECT_EQ(points.front(), in_layout({1, 1, PointMode::Processes}, Layout::Rank));

  RunConfig sweep;
  sweep.sweep_threads = {2, 1};
  sweep.layouts = {Layout::Shared, Layout::Thread};
  const auto swept = make_points(sweep, 3);
  EXPECT_EQ(swept, (std::vector<PointSpec>{{3, 1, PointMode::Sweep},
                                           {3, 2, PointMode::Sweep},
                                           in_layout({3, 1, PointMode::Sweep}, Layout::Thread),
                                           in_layout({3, 2, PointMode::Sweep}, Layout::Thread)}));
}

TEST(PointLabels, SharedKeepsItsLabelTheOthersSayTheirLayoutAndNoneHasASlash) {
  EXPECT_EQ((PointSpec{4, 1, PointMode::Processes}).label(), "4x1");
  EXPECT_EQ(in_layout({4, 1, PointMode::Processes}, Layout::Rank).label(), "4x1-rank");
  EXPECT_EQ(in_layout({1, 1, PointMode::Async, Engine::Uring, 8}, Layout::Thread).label(),
            "1x1q8-thread");
  EXPECT_EQ(in_layout({1, 1, PointMode::Async, Engine::Uring, 8}, Layout::Shared).label(), "1x1q8");
  RunConfig c;
  c.compare = true;
  c.engine = Engine::Uring;
  c.layouts = {Layout::Shared, Layout::Rank, Layout::Thread};
  std::set<std::string> all;
  const auto points = make_points(c, 4);
  for (const PointSpec& p : points) {
    EXPECT_EQ(p.label().find('/'), std::string::npos) << p.label();  // names scratch directories
    all.insert(p.label());
  }
  EXPECT_EQ(all.size(), points.size()) << "two points share a label";
}

TEST(CompareRows, ARowPerLayoutAndConcurrencyAndAWinnerNeverAcrossLayouts) {
  // Rank is much faster than shared at every concurrency, but a winner is decided inside a
  // row: at concurrency 2 shared's threads beat shared's processes, rank's processes beat
  // rank's threads.
  std::vector<PointReport> points{
      measured({1, 1, PointMode::Processes}, around(8.0)),
      measured({2, 1, PointMode::Processes}, around(6.0)),
      measured({1, 2, PointMode::Threads}, around(4.0)),
      measured(in_layout({1, 1, PointMode::Processes}, Layout::Rank), around(2.0)),
      measured(in_layout({2, 1, PointMode::Processes}, Layout::Rank), around(1.0)),
      measured(in_layout({1, 2, PointMode::Threads}, Layout::Rank), around(1.5))};
  summarize_points(points, 7);
  const auto rows = compare_rows(points, 7);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].layout, Layout::Shared);
  EXPECT_EQ(rows[0].concurrency, 1u);
  EXPECT_EQ(rows[1].layout, Layout::Shared);
  EXPECT_EQ(rows[1].concurrency, 2u);
  EXPECT_EQ(rows[2].layout, Layout::Rank);
  EXPECT_EQ(rows[2].concurrency, 1u);
  EXPECT_EQ(rows[3].layout, Layout::Rank);
  EXPECT_EQ(rows[3].concurrency, 2u);
  EXPECT_EQ(rows[0].processes->label, "1x1");
  EXPECT_FALSE(rows[0].verdict);  // 1x1-rank is not in shared's row, though 4 times faster
  EXPECT_EQ(rows[2].threads->label, "1x1-rank");
  EXPECT_FALSE(rows[2].verdict);
  EXPECT_EQ(rows[1].winner, "threads");
  EXPECT_EQ(rows[1].threads->label, "1x2");
  EXPECT_EQ(rows[1].processes->label, "2x1");
  EXPECT_EQ(rows[3].winner, "processes");
  EXPECT_EQ(rows[3].processes->label, "2x1-rank");
  EXPECT_EQ(rows[3].threads->label, "1x2-rank");
  EXPECT_EQ(rows[3].verdict->runner_up, "threads");
  // One baseline for both layouts: the first point (1x1 shared).
  EXPECT_NEAR(rows[3].processes->speedup.value(), 8.0, 1e-12);
  EXPECT_NEAR(rows[2].processes->speedup.value(), 4.0, 1e-12);
}

}  // namespace
}  // namespace mpiwrite
