#include "mpiwrite/core/repetition_figures.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mpiwrite {
namespace {

TEST(SummarizeRepetition, RatesUseTheSlowestRankNeverASumOfRankRates) {
  LatencyHistogram h;
  for (int i = 0; i < 300; ++i) h.record(10'000);
  const RepetitionFigures r = summarize_repetition(
      3, {{0, 2.0, 100, 1'048'576}, {1, 1.0, 100, 1'048'576}, {2, 4.0, 100, 1'048'576}}, h);
  EXPECT_EQ(r.index, 3u);
  EXPECT_DOUBLE_EQ(r.slowest_s, 4.0);
  EXPECT_DOUBLE_EQ(r.fastest_s, 1.0);
  EXPECT_DOUBLE_EQ(r.mean_s, 7.0 / 3.0);
  EXPECT_DOUBLE_EQ(r.imbalance, 4.0);
  EXPECT_EQ(r.files, 300u);
  EXPECT_EQ(r.bytes, 3u * 1'048'576u);
  EXPECT_DOUBLE_EQ(r.files_per_s, 75.0);  // 300 files / 4 s (the sum of rates would be 175)
  EXPECT_DOUBLE_EQ(r.mib_per_s, 0.75);    // 3 MiB / 4 s
  EXPECT_DOUBLE_EQ(r.latency.p50_us, 10.0);
  EXPECT_DOUBLE_EQ(r.latency.mean_us, 10.0);
  ASSERT_EQ(r.ranks.size(), 3u);
  EXPECT_EQ(r.ranks[2].rank, 2);
}

// A later phase keeps every rank's own figures, as the write phase does (JSON per_rank).
TEST(SummarizePhase, KeepsEveryRanksOwnFigures) {
  LatencyHistogram h;
  for (int i = 0; i < 30; ++i) h.record(5'000);
  const PhaseFigures f = summarize_phase(
      Phase::Stat, {{0, 2.0, 10, 0, 0.5}, {1, 1.0, 12, 0, 0.0}, {2, 3.0, 8, 0, 0.25}}, h,
      OperationHistograms{});
  EXPECT_DOUBLE_EQ(f.makespan_s, 3.25);  // rank 2 ends last: 0.25 + 3.0
  EXPECT_DOUBLE_EQ(f.slowest_s, 3.0);
  EXPECT_EQ(f.items, 30u);
  ASSERT_EQ(f.ranks.size(), 3u);
  for (int r = 0; r < 3; ++r) EXPECT_EQ(f.ranks[static_cast<std::size_t>(r)].rank, r);
  EXPECT_EQ(f.ranks[1].files, 12u);
  EXPECT_DOUBLE_EQ(f.ranks[0].start_s, 0.5);
  EXPECT_DOUBLE_EQ(f.ranks[2].elapsed_s, 3.0);
}

TEST(SummarizeRepetition, ZeroTimeGivesFiniteFigures) {
  const RepetitionFigures r = summarize_repetition(1, {{0, 0.0, 0, 0}}, LatencyHistogram{});
  EXPECT_EQ(r.files_per_s, 0.0);
  EXPECT_EQ(r.imbalance, 1.0);
}

TEST(SummarizeSeries, HandComputed) {
  const SeriesSummary s = summarize_series({4.0, 1.0, 3.0, 2.0});
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1.0);
  EXPECT_DOUBLE_EQ(s.max, 4.0);
  EXPECT_NEAR(s.stddev, 1.2909944487358056, 1e-12);  // sqrt(5/3), sample standard deviation
  EXPECT_DOUBLE_EQ(summarize_series({5.0, 1.0, 3.0}).median, 3.0);
  EXPECT_DOUBLE_EQ(summarize_series({7.0}).stddev, 0.0);
  EXPECT_EQ(summarize_series({}).count, 0u);
}

TEST(LatencyFigures, CarryTheCountAndTheExactTotal) {
  LatencyHistogram h;
  for (std::uint64_t v : {1000u, 2000u, 3001u}) h.record(v);
  const LatencyFigures l = latency_figures(h);
  EXPECT_EQ(l.count, 3u);
  EXPECT_EQ(l.total_ns, 6001u);
  EXPECT_DOUBLE_EQ(l.mean_us, 6.001 / 3);
}

TEST(OperationFigures, OnePerOperationInOrderAndNamed) {
  OperationHistograms h;
  h.record(Operation::Create, 5000);
  h.record(Operation::Writes, 3000);
  h.record(Operation::Writes, 1000);
  h.record(Operation::Close, 700);
  EXPECT_EQ(h.total_ns(), 9700u);
  const OperationFigures f = operation_figures(h);
  EXPECT_EQ(f[0].count, 1u);
  EXPECT_DOUBLE_EQ(f[0].max_us, 5.0);
  EXPECT_EQ(f[1].count, 2u);
  EXPECT_EQ(f[1].total_ns, 4000u);
  EXPECT_EQ(f[2].count, 0u);  // fsync not recorded
  EXPECT_EQ(f[2].p99_us, 0.0);
  EXPECT_EQ(f[3].total_ns, 700u);
  OperationHistograms other;
  other.record(Operation::Fsync, 400);
  h.merge(other);
  EXPECT_EQ(h[Operation::Fsync].count(), 1u);
  EXPECT_EQ(h.total_ns(), 10100u);
  const char* names[] = {"create", "writes", "fsync", "close"};
  for (std::size_t i = 0; i < kWriteOperations.size(); ++i) {
    EXPECT_EQ(operation_name(kWriteOperations[i]), names[i]);
    EXPECT_EQ(static_cast<std::size_t>(kWriteOperations[i]), i);
  }
}

PhaseFigures figures_of(Phase phase, std::uint64_t items = 0) {
  PhaseFigures f;
  f.phase = phase;
  f.items = items;
  return f;
}

// The phases in the order they ran: tree-create before the write phase, the rest after it;
// indexing and walking the view give the same figures.
TEST(AllPhases, TheWritePhaseStandsWhereItRan) {
  RepetitionFigures rep;
  rep.makespan_s = 2.0;
  rep.files = 40;
  for (Phase p : {Phase::Stat, Phase::Remove}) rep.phases.push_back(figures_of(p));
  const std::vector<Phase> without_tree{Phase::Write, Phase::Stat, Phase::Remove};
  std::vector<Phase> walked;
  for (const PhaseFigures& f : rep.all_phases()) walked.push_back(f.phase);
  EXPECT_EQ(walked, without_tree);
  EXPECT_EQ(rep.all_phases()[0].items, 40u);
  EXPECT_EQ(rep.all_phases()[0].makespan_s, 2.0);

  rep.phases.insert(rep.phases.begin(), figures_of(Phase::TreeCreate, 7));
  rep.phases.push_back(figures_of(Phase::TreeRemove, 7));
  const AllPhases all = rep.all_phases();
  ASSERT_EQ(all.size(), 5u);
  const std::vector<Phase> with_tree{Phase::TreeCreate, Phase::Write, Phase::Stat, Phase::Remove,
                                     Phase::TreeRemove};
  walked.clear();
  for (const PhaseFigures& f : all) walked.push_back(f.phase);
  EXPECT_EQ(walked, with_tree);
  for (std::size_t k = 0; k < all.size(); ++k) EXPECT_EQ(all[k].phase, with_tree[k]);
  EXPECT_EQ(all[0].items, 7u);
  EXPECT_EQ(all[1].items, 40u);
}

}  // namespace
}  // namespace mpiwrite
