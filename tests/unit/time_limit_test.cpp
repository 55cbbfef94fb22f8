// --time-limit and --wear-out in the pure core: the options' rules, what each writer still
// writes to wear out, and how a time-limited point is compared (docs/metrics.md
// "Time-limited write phases").
#include <gtest/gtest.h>

#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/core/rank_plan.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/wear_out.hpp"

namespace mpiwrite {
namespace {

// The rank plan as the run makes it: from the point's plan (point_plan.hpp).
RankPlan plan_of(const RunConfig& config, const PointSpec& point, int rank) {
  return plan_point(config, point).rank(rank);
}

CliOutcome parse(std::vector<const char*> words) {
  words.insert(words.begin(), "mpiwrite");
  return parse_command_line(static_cast<int>(words.size()), words.data());
}

TEST(TimeLimit, TheOptionTakesPositiveSeconds) {
  EXPECT_EQ(parse({"--time-limit", "0.25"}).config.time_limit_s, 0.25);
  for (const char* bad : {"0", "-1", "nan", "inf", "1e9", "abc", ""}) {
    const CliOutcome out = parse({"--time-limit", bad});
    EXPECT_FALSE(out.run) << bad;
    EXPECT_EQ(out.exit_code, kExitUsage) << bad;
  }
}

TEST(TimeLimit, WearOutNeedsALimitAndAStaticPartition) {
  EXPECT_EQ(parse({"--wear-out"}).exit_code, kExitUsage);
  EXPECT_TRUE(parse({"--time-limit", "1", "--wear-out", "--partition", "cyclic"}).run);
  const CliOutcome dynamic = parse({"--time-limit", "1", "--wear-out", "--partition", "dynamic"});
  EXPECT_EQ(dynamic.exit_code, kExitUsage);
  EXPECT_NE(dynamic.message.find("--wear-out needs --partition block or cyclic"), std::string::npos)
      << dynamic.message;
  EXPECT_TRUE(parse({"--time-limit", "1", "--partition", "dynamic"}).run);  // no wear-out: fine
}

TEST(TimeLimit, RefusedWithOverwriteAndAShorterTimeout) {
  EXPECT_EQ(parse({"--time-limit", "1", "--overwrite"}).exit_code, kExitUsage);
  EXPECT_EQ(parse({"--time-limit", "5", "--timeout", "5"}).exit_code, kExitUsage);
  EXPECT_TRUE(parse({"--time-limit", "5", "--timeout", "6"}).run);
  RunConfig c;  // the same rules for a configuration built in code
  c.time_limit_s = -1;
  EXPECT_THROW(validate(c), UsageError);
  c.time_limit_s = 0;
  c.wear_out = true;
  EXPECT_THROW(validate(c), UsageError);
}

TEST(WearOut, EveryWriterGoesOnToTheLargestCountItsPartAllows) {
  const std::vector<Progression> parts{{1, 10, 1}, {11, 10, 1}, {21, 4, 1}};
  const std::vector<Progression> rest = wear_out_parts(parts, {7, 3, 2}, 7);
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[0].count, 0u);                 // it set the count
  EXPECT_EQ(rest[1], (Progression{14, 4, 1}));  // files 14..17: the 4th to the 7th
  EXPECT_EQ(rest[2], (Progression{23, 2, 1}));  // its part ends at 4 files
}

TEST(WearOut, ACyclicPartGoesOnAtItsStride) {
  RunConfig c;
  c.files = 20;
  c.threads = 2;
  c.partition = Partition::Cyclic;
  const RankPlan plan = plan_of(c, PointSpec{2, 2, PointMode::Run}, 1);
  // Rank 1's threads hold 2, 6, 10, 14, 18 and 4, 8, 12, 16, 20 (cyclic over 4 writers).
  const std::vector<Progression> rest = wear_out_parts(plan.thread_writes, {1, 3}, 3);
  EXPECT_EQ(rest[0].count, 2u);
  EXPECT_EQ(rest[0].first, plan.thread_writes[0].at(1));
  EXPECT_EQ(rest[0].stride, plan.thread_writes[0].stride);
  EXPECT_EQ(rest[1].count, 0u);
  // Every writer ends at the same count: the written prefixes plus the rest.
  for (std::size_t t = 0; t < rest.size(); ++t) {
    EXPECT_EQ((t == 0 ? 1u : 3u) + rest[t].count, 3u) << t;
  }
}

// A point of one rank whose repetitions wrote `files` of 100 asked in `seconds`.
PointReport limited_point(PointSpec spec,
                          const std::vector<std::pair<double, std::uint64_t>>& reps) {
  PointReport p(spec);
  unsigned index = 0;
  for (const auto& [seconds, files] : reps) {
    RepetitionFigures rep =
        summarize_repetition(++index, {{0, seconds, files, files * 10}}, LatencyFigures{});
    rep.limit = {true, files < 100, files, 100};
    p.repetitions.push_back(rep);
  }
  return p;
}

TEST(TimeLimit, APointCutShortIsComparedByItsRateNotItsMakespan) {
  // Both points ran about the 1 s limit; the second wrote twice as many files.
  std::vector<PointReport> points{
      limited_point(PointSpec{1, 1, PointMode::Processes}, {{1.0, 20}, {1.01, 20}, {1.0, 20}}),
      limited_point(PointSpec{2, 1, PointMode::Processes}, {{1.0, 40}, {1.0, 40}, {1.02, 40}})};
  summarize_points(points);
  EXPECT_NEAR(points[0].makespan.median, 1.0, 1e-12);  // the makespan is reported as measured
  EXPECT_NEAR(points[0].compared.median, 5.0, 1e-12);  // 1 s x 100 asked / 20 written
  EXPECT_NEAR(points[1].compared.median, 2.5, 1e-12);
  ASSERT_TRUE(points[1].speedup);
  EXPECT_NEAR(*points[1].speedup, 2.0, 1e-12);  // twice the rate, not 1.0 from the makespans
  ASSERT_TRUE(points[1].files_per_s);
  EXPECT_NEAR(points[1].files_per_s->at_median, 40.0, 1e-9);  // 40 files in 1 s
  EXPECT_EQ(points[1].files, 40u);
}

TEST(TimeLimit, APointTheLimitNeverCutIsComparedByItsMakespans) {
  std::vector<PointReport> points{
      limited_point(PointSpec{1, 1, PointMode::Processes}, {{2.0, 100}, {2.0, 100}}),
      limited_point(PointSpec{2, 1, PointMode::Processes}, {{1.0, 100}, {1.0, 100}})};
  summarize_points(points);
  EXPECT_FALSE(points[1].time_limited());
  EXPECT_EQ(points[1].compared.median, points[1].makespan.median);
  EXPECT_NEAR(*points[1].speedup, 2.0, 1e-12);
}

TEST(TimeLimit, APointThatWroteNothingHasNoSpeedupAndAWarning) {
  std::vector<PointReport> points{
      limited_point(PointSpec{1, 1, PointMode::Processes}, {{1e-5, 0}, {1e-5, 0}, {1e-5, 0}}),
      limited_point(PointSpec{2, 1, PointMode::Processes}, {{1e-5, 0}, {1e-5, 3}, {1e-5, 0}})};
  summarize_points(points);
  for (const PointReport& p : points) {
    EXPECT_EQ(p.compared.count, 0u) << p.spec.label();  // no rate: nothing to compare
    EXPECT_FALSE(p.speedup) << p.spec.label();
    ASSERT_FALSE(p.warnings.empty()) << p.spec.label();
    EXPECT_NE(p.warnings.back().find("before its first file"), std::string::npos);
  }
  EXPECT_NE(points[1].warnings.back().find("in 2 of 3 repetitions"), std::string::npos);
  const std::vector<ComparisonRow> rows = compare_rows(points, 1);
  for (const ComparisonRow& row : rows) {
    EXPECT_TRUE(row.winner.empty());
    if (row.processes) {
      EXPECT_FALSE(row.processes->median_s);
    }
  }
}

TEST(TimeLimit, TheRepetitionLogKeepsTheLimitFigures) {
  const PointReport p = limited_point(PointSpec{1, 1, PointMode::Run}, {{1.0, 20}, {0.5, 100}});
  ASSERT_EQ(p.repetitions.size(), 2u);
  EXPECT_TRUE(p.repetitions[0].limit.applied);
  EXPECT_TRUE(p.repetitions[0].limit.cut_short);
  EXPECT_EQ(p.repetitions[0].limit.files_at_limit, 20u);
  EXPECT_EQ(p.repetitions[0].limit.files_asked, 100u);
  EXPECT_FALSE(p.repetitions[1].limit.cut_short);
  RepetitionLog mixed;  // every repetition of a point runs under the same limit, or none
  RepetitionFigures plain = summarize_repetition(1, {{0, 1.0, 5, 50}}, LatencyFigures{});
  mixed.push_back(plain);
  RepetitionFigures limited = summarize_repetition(2, {{0, 1.0, 5, 50}}, LatencyFigures{});
  limited.limit = {true, true, 5, 100};
  EXPECT_THROW(mixed.push_back(limited), std::invalid_argument);
}

}  // namespace
}  // namespace mpiwrite
