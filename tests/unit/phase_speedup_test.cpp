// Each phase's speedup and efficiency against the baseline point's same phase
// (summarize_points; docs/metrics.md, "Speedup and efficiency"): exact values on hand-made
// repetitions, the write phase's equal to the point's, and no figure where a phase timed nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "mpiwrite/core/comparison.hpp"

namespace mpiwrite {
namespace {

struct PhaseTimes {
  Phase phase = Phase::Stat;
  std::uint64_t items = 0;
  std::vector<double> makespans;  // one per repetition
};

// A point whose repetition r has write makespan write[r] (every rank the same time, 100 files
// over the ranks) and, for each other phase, its items and makespan r.
PointReport point_of(PointSpec spec, const std::vector<double>& write,
                     const std::vector<PhaseTimes>& others) {
  PointReport p(spec);
  for (std::size_t r = 0; r < write.size(); ++r) {
    std::vector<RankFigures> ranks;
    for (int rank = 0; rank < spec.ranks; ++rank) {
      ranks.push_back({rank, write[r], 100u / static_cast<unsigned>(spec.ranks), 1000, 0});
    }
    RepetitionFigures rep =
        summarize_repetition(static_cast<unsigned>(r + 1), std::move(ranks), LatencyFigures{});
    for (const PhaseTimes& t : others) {
      PhaseFigures f;
      f.phase = t.phase;
      f.items = t.items;
      f.makespan_s = t.makespans[r];
      rep.phases.push_back(f);
    }
    p.repetitions.push_back(rep);
  }
  return p;
}

PointSpec spec(int ranks, unsigned threads, PointMode mode, Layout layout) {
  PointSpec s{ranks, threads, mode};
  s.layout = layout;
  return s;
}

const PhaseSummary& phase(const PointReport& p, Phase which) {
  const auto found = std::find_if(p.phases.begin(), p.phases.end(),
                                  [which](const PhaseSummary& s) { return s.phase == which; });
  EXPECT_NE(found, p.phases.end()) << phase_name(which);
  return *found;
}

void expect_same(const std::optional<Interval>& a, const std::optional<Interval>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (!a) return;
  EXPECT_EQ(a->low, b->low);
  EXPECT_EQ(a->high, b->high);
  EXPECT_EQ(a->level, b->level);
}

void expect_none(const PhaseSummary& s) {
  EXPECT_FALSE(s.speedup || s.efficiency || s.speedup_ci || s.efficiency_ci) << phase_name(s.phase);
}

// 1x1-thread against 1x2-thread, three repetitions: 1x2 makes twice the directories (one tree
// per thread), so its tree-create speedup is the ratio of the rates, not of the makespans.
std::vector<PointReport> one_and_two_threads() {
  const std::vector<PointReport> points{
      point_of(spec(1, 1, PointMode::Processes, Layout::Thread), {4.0, 5.0, 3.0},
               {{Phase::TreeCreate, 10, {1.0, 1.2, 0.8}},
                {Phase::Stat, 100, {2.0, 2.2, 1.8}},
                {Phase::Remove, 100, {3.0, 3.0, 3.0}}}),
      point_of(spec(1, 2, PointMode::Threads, Layout::Thread), {2.0, 2.5, 1.6},
               {{Phase::TreeCreate, 20, {1.0, 1.1, 0.9}},
                {Phase::Stat, 100, {0.8, 1.0, 0.9}},
                {Phase::Remove, 100, {6.0, 6.0, 6.0}}})};
  return points;
}

TEST(PhaseSpeedup, EachPhaseAgainstTheBaselinesSamePhaseExactly) {
  std::vector<PointReport> points = one_and_two_threads();
  summarize_points(points, 42);
  const PointReport& two = points[1];
  ASSERT_EQ(two.phases.size(), 4u);  // tree-create, write, stat, remove

  // write: 4 / 2 at 2 files in flight against 1.
  EXPECT_DOUBLE_EQ(*phase(two, Phase::Write).speedup, 2.0);
  EXPECT_DOUBLE_EQ(*phase(two, Phase::Write).efficiency, 1.0);
  // tree-create: 10 dirs in a median 1.0 s against 20 dirs in 1.0 s: twice the rate (each
  // makespan scaled to the baseline's 10 dirs, 0.5 s), though the makespans are equal.
  EXPECT_DOUBLE_EQ(*phase(two, Phase::TreeCreate).speedup, 2.0);
  EXPECT_DOUBLE_EQ(*phase(two, Phase::TreeCreate).efficiency, 1.0);
  // stat: 2.0 / 0.9.
  EXPECT_DOUBLE_EQ(*phase(two, Phase::Stat).speedup, 2.0 / 0.9);
  EXPECT_DOUBLE_EQ(*phase(two, Phase::Stat).efficiency, 1.0 / 0.9);
  // remove got slower: 3 / 6, below 1 and said so.
  EXPECT_DOUBLE_EQ(*phase(two, Phase::Remove).speedup, 0.5);
  EXPECT_DOUBLE_EQ(*phase(two, Phase::Remove).efficiency, 0.25);

  // Every phase of 1x2 has its bootstrap interval, around its estimate, and efficiency's is
  // speedup's over the concurrency ratio.
  for (const PhaseSummary& s : two.phases) {
    ASSERT_TRUE(s.speedup_ci && s.efficiency_ci) << phase_name(s.phase);
    EXPECT_LE(s.speedup_ci->low, *s.speedup) << phase_name(s.phase);
    EXPECT_GE(s.speedup_ci->high, *s.speedup) << phase_name(s.phase);
    EXPECT_DOUBLE_EQ(s.efficiency_ci->low, s.speedup_ci->low / 2);
    EXPECT_DOUBLE_EQ(s.efficiency_ci->high, s.speedup_ci->high / 2);
  }
  // remove took exactly 3 s and 6 s in every repetition: nothing to resample but 0.5.
  EXPECT_DOUBLE_EQ(phase(two, Phase::Remove).speedup_ci->low, 0.5);
  EXPECT_DOUBLE_EQ(phase(two, Phase::Remove).speedup_ci->high, 0.5);

  // The baseline against itself: 1 in every phase, exactly, and no interval.
  for (const PhaseSummary& s : points[0].phases) {
    ASSERT_TRUE(s.speedup && s.efficiency) << phase_name(s.phase);
    EXPECT_EQ(*s.speedup, 1.0) << phase_name(s.phase);
    EXPECT_EQ(*s.efficiency, 1.0) << phase_name(s.phase);
    EXPECT_FALSE(s.speedup_ci || s.efficiency_ci) << phase_name(s.phase);
  }
}

TEST(PhaseSpeedup, TheWritePhasesFiguresAreThePointsEveryBit) {
  std::vector<PointReport> points = one_and_two_threads();
  summarize_points(points, 7);
  for (const PointReport& p : points) {
    const PhaseSummary& write = phase(p, Phase::Write);
    ASSERT_TRUE(p.speedup && write.speedup);
    EXPECT_EQ(*write.speedup, *p.speedup);
    EXPECT_EQ(*write.efficiency, *p.efficiency);
    expect_same(write.speedup_ci, p.speedup_ci);
    expect_same(write.efficiency_ci, p.efficiency_ci);
  }
  EXPECT_TRUE(points[1].speedup_ci);  // so the comparison above compared intervals
}

TEST(PhaseSpeedup, TheSameSeedGivesTheSameIntervalsOfEveryPhase) {
  std::vector<PointReport> first = one_and_two_threads(), again = one_and_two_threads();
  summarize_points(first, 11);
  summarize_points(again, 11);
  for (std::size_t k = 0; k < first[1].phases.size(); ++k) {
    expect_same(first[1].phases[k].speedup_ci, again[1].phases[k].speedup_ci);
  }
}

// --layout shared,rank --phases tree-create,...: the shared points make no directory. A phase
// that timed no item (or took no time) has no speedup, not 0 or infinity, on either side.
TEST(PhaseSpeedup, APhaseThatTimedNothingHasNone) {
  std::vector<PointReport> points{
      point_of(spec(1, 1, PointMode::Processes, Layout::Shared), {4.0, 4.0, 4.0},
               {{Phase::TreeCreate, 0, {0.0, 0.0, 0.0}}, {Phase::Stat, 100, {2.0, 2.0, 2.0}}}),
      point_of(spec(2, 1, PointMode::Processes, Layout::Rank), {2.0, 2.0, 2.0},
               {{Phase::TreeCreate, 2, {0.1, 0.1, 0.1}}, {Phase::Stat, 100, {1.0, 1.0, 1.0}}})};
  summarize_points(points, 1);
  expect_none(phase(points[0], Phase::TreeCreate));  // the baseline itself made nothing
  expect_none(phase(points[1], Phase::TreeCreate));  // so nothing to compare the rank one with
  EXPECT_DOUBLE_EQ(*phase(points[1], Phase::Stat).speedup, 2.0);

  // The other way round (--layout rank,shared): a baseline that made directories, a point that
  // made none; and a phase whose median makespan is 0 (the null engine on a coarse clock).
  std::vector<PointReport> reversed{
      point_of(spec(1, 1, PointMode::Processes, Layout::Rank), {4.0, 4.0, 4.0},
               {{Phase::TreeCreate, 1, {0.1, 0.1, 0.1}}, {Phase::Stat, 100, {2.0, 2.0, 2.0}}}),
      point_of(spec(2, 1, PointMode::Processes, Layout::Shared), {2.0, 2.0, 2.0},
               {{Phase::TreeCreate, 0, {0.0, 0.0, 0.0}}, {Phase::Stat, 100, {0.0, 0.0, 1.0}}})};
  summarize_points(reversed, 1);
  EXPECT_DOUBLE_EQ(*phase(reversed[0], Phase::TreeCreate).speedup, 1.0);
  expect_none(phase(reversed[1], Phase::TreeCreate));
  expect_none(phase(reversed[1], Phase::Stat));
  EXPECT_DOUBLE_EQ(*phase(reversed[1], Phase::Write).speedup, 2.0);
}

TEST(PhaseSpeedup, NoneAgainstAnUnmeasuredBaseline) {
  std::vector<PointReport> points = one_and_two_threads();
  points[0].repetitions = {};  // interrupted before the baseline's first repetition
  summarize_points(points, 3);
  EXPECT_FALSE(points[1].speedup);
  ASSERT_EQ(points[1].phases.size(), 4u);
  for (const PhaseSummary& s : points[1].phases) expect_none(s);
}

// --compare: each phase verdict of a row carries the phase's speedup of each mode's point,
// fastest by that phase's median first (stat: threads are faster, remove: processes).
TEST(PhaseSpeedup, APhaseVerdictGivesEachModesSpeedupInThatPhase) {
  std::vector<PointReport> points{
      point_of(spec(1, 1, PointMode::Processes, Layout::Shared), {4.0, 4.0, 4.0, 4.0},
               {{Phase::Stat, 100, {2.0, 2.0, 2.0, 2.0}}, {Phase::Remove, 100, {3, 3, 3, 3}}}),
      point_of(spec(2, 1, PointMode::Processes, Layout::Shared), {2.0, 2.1, 1.9, 2.0},
               {{Phase::Stat, 100, {1.6, 1.6, 1.6, 1.6}}, {Phase::Remove, 100, {1, 1, 1, 1}}}),
      point_of(spec(1, 2, PointMode::Threads, Layout::Shared), {2.2, 2.3, 2.1, 2.2},
               {{Phase::Stat, 100, {1.0, 1.0, 1.0, 1.0}}, {Phase::Remove, 100, {2, 2, 2, 2}}})};
  summarize_points(points, 5);
  const std::vector<ComparisonRow> rows = compare_rows(points, 5);
  ASSERT_EQ(rows.size(), 2u);
  const ComparisonRow& two = rows[1];
  ASSERT_EQ(two.concurrency, 2u);
  ASSERT_EQ(two.phases.size(), 2u);
  const PhaseVerdict& stat = two.phases[0];
  EXPECT_EQ(stat.phase, Phase::Stat);
  ASSERT_EQ(stat.speedups.size(), 2u);
  EXPECT_EQ(stat.speedups[0].first, "threads");
  EXPECT_DOUBLE_EQ(*stat.speedups[0].second, 2.0);  // 2.0 / 1.0
  EXPECT_EQ(stat.speedups[1].first, "processes");
  EXPECT_DOUBLE_EQ(*stat.speedups[1].second, 1.25);  // 2.0 / 1.6
  const PhaseVerdict& remove = two.phases[1];
  EXPECT_EQ(remove.phase, Phase::Remove);
  ASSERT_EQ(remove.speedups.size(), 2u);
  EXPECT_EQ(remove.speedups[0].first, "processes");
  EXPECT_DOUBLE_EQ(*remove.speedups[0].second, 3.0);
  EXPECT_EQ(remove.speedups[1].first, "threads");
  EXPECT_DOUBLE_EQ(*remove.speedups[1].second, 1.5);
}

// --compare --layout rank --phases tree-create,...: 2 ranks make 2 directories in the time 1
// rank x 2 threads makes its 1. The phase's order and test are those of the rates, not of the
// makespans (which are equal and would have said "no winner, ratio 1.000"); a mode whose tree
// made no directory (the shared layout) takes no part in the tree phase's verdict.
TEST(PhaseSpeedup, APhaseVerdictComparesRatesWhereTheItemsDiffer) {
  const std::vector<double> same{0.10, 0.11, 0.09, 0.10, 0.10, 0.11, 0.09, 0.10};
  std::vector<PointReport> points{
      point_of(spec(1, 1, PointMode::Processes, Layout::Rank), std::vector<double>(8, 4.0),
               {{Phase::TreeCreate, 1, same}, {Phase::Stat, 100, std::vector<double>(8, 2.0)}}),
      point_of(spec(2, 1, PointMode::Processes, Layout::Rank), std::vector<double>(8, 2.0),
               {{Phase::TreeCreate, 2, same}, {Phase::Stat, 100, std::vector<double>(8, 1.0)}}),
      point_of(spec(1, 2, PointMode::Threads, Layout::Rank), std::vector<double>(8, 2.1),
               {{Phase::TreeCreate, 1, same}, {Phase::Stat, 100, std::vector<double>(8, 1.0)}})};
  summarize_points(points, 5);
  const std::vector<ComparisonRow> rows = compare_rows(points, 5);
  ASSERT_EQ(rows.size(), 2u);
  const ComparisonRow& two = rows[1];
  ASSERT_EQ(two.phases.size(), 2u);
  const PhaseVerdict& tree = two.phases[0];
  EXPECT_EQ(tree.phase, Phase::TreeCreate);
  EXPECT_EQ(tree.verdict.fastest, "processes");
  EXPECT_EQ(tree.verdict.runner_up, "threads");
  EXPECT_DOUBLE_EQ(tree.verdict.verdict.ratio, 2.0);  // twice the directories a second
  EXPECT_EQ(tree.winner, "processes");
  // stat: the same items, the same makespans: no winner, ratio 1, as before.
  EXPECT_EQ(two.phases[1].phase, Phase::Stat);
  EXPECT_TRUE(two.phases[1].winner.empty());

  // The shared layout makes no directory: the tree phase has one cell left, so no verdict.
  points[2] = point_of(spec(1, 2, PointMode::Threads, Layout::Shared), std::vector<double>(8, 2.1),
                       {{Phase::TreeCreate, 0, std::vector<double>(8, 0.0)},
                        {Phase::Stat, 100, std::vector<double>(8, 1.0)}});
  summarize_points(points, 5);
  for (const ComparisonRow& row : compare_rows(points, 5)) {
    for (const PhaseVerdict& v : row.phases) EXPECT_NE(v.phase, Phase::TreeCreate);
  }
}

// --time-limit: each repetition timed its own count of items. The phase's rate is the median
// of the repetitions' own rates (items / makespan), its interval theirs, never the last
// repetition's count over the median makespan.
TEST(PhaseSpeedup, APhasesRateIsEachRepetitionsOwnItemsOverItsMakespan) {
  const auto stat_of = [](const std::vector<std::uint64_t>& items) {
    const double makespans[] = {1.0, 2.0, 1.0, 2.0, 2.0, 1.0};
    PointReport p(spec(1, 1, PointMode::Processes, Layout::Shared));
    for (std::size_t r = 0; r < items.size(); ++r) {
      RepetitionFigures rep = summarize_repetition(static_cast<unsigned>(r + 1),
                                                   {{0, 4.0, 100, 1000, 0}}, LatencyFigures{});
      PhaseFigures f;
      f.phase = Phase::Stat;
      f.items = items[r];
      f.makespan_s = makespans[r];
      rep.phases.push_back(f);
      p.repetitions.push_back(rep);
    }
    std::vector<PointReport> points{p};
    summarize_points(points, 1);
    return phase(points[0], Phase::Stat);
  };
  // Rates 100/1 = 100, 300/2 = 150, 200/1 = 200, 400/2 = 200, 100/2 = 50 per second: the
  // median rate 150; the last count (100) over the median makespan (2) would say 50.
  const PhaseSummary stat = stat_of({100, 300, 200, 400, 100});
  EXPECT_EQ(stat.items, 100u);  // the last repetition's, as the table says
  EXPECT_DOUBLE_EQ(stat.makespan.median, 2.0);
  EXPECT_DOUBLE_EQ(stat.items_per_s.at_median, 150.0);
  EXPECT_DOUBLE_EQ(stat.items_per_s.at_max, 50.0);   // the slowest repetition's
  EXPECT_DOUBLE_EQ(stat.items_per_s.at_min, 200.0);  // the fastest's
  // A repetition that timed nothing has no rate, and then the phase has none (as the write
  // phase, whose rate a repetition that wrote nothing empties): not the others' median, which
  // would drop the slowest case. No interval either.
  const PhaseSummary none = stat_of({100, 300, 200, 400, 0});
  EXPECT_EQ(none.items_per_s.at_median, 0.0);
  EXPECT_FALSE(none.rate_ci);
  // Every repetition the same count: the count over the makespans, as always (six
  // repetitions: the least with a 95 % interval of the median).
  const PhaseSummary even = stat_of({100, 100, 100, 100, 100, 100});
  EXPECT_DOUBLE_EQ(even.items_per_s.at_median, 100.0 / 1.5);
  ASSERT_TRUE(even.rate_ci && even.makespan.median_ci);
  EXPECT_DOUBLE_EQ(even.rate_ci->low, 100.0 / even.makespan.median_ci->high);
}

}  // namespace
}  // namespace mpiwrite
