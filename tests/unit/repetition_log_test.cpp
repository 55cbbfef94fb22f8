#include "mpiwrite/core/repetition_log.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace mpiwrite {
namespace {

RepetitionFigures made(unsigned index, double scale) {
  LatencyHistogram h;
  for (int i = 1; i <= 10; ++i) h.record(static_cast<std::uint64_t>(i * 1000 * scale));
  RepetitionFigures rep =
      summarize_repetition(index, {{0, 0.5 * scale, 10, 1400}, {1, 0.7 * scale, 12, 1680}}, h);
  OperationHistograms operations;
  for (int i = 1; i <= 10; ++i) {
    operations.record(Operation::Create, static_cast<std::uint64_t>(i * 600 * scale));
    operations.record(Operation::Writes, static_cast<std::uint64_t>(i * 300 * scale));
    operations.record(Operation::Close, static_cast<std::uint64_t>(i * 100 * scale));
  }
  rep.operations = operation_figures(operations);
  return rep;
}

void expect_same(const RepetitionFigures& a, const RepetitionFigures& b) {
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.slowest_s, b.slowest_s);
  EXPECT_EQ(a.fastest_s, b.fastest_s);
  EXPECT_EQ(a.mean_s, b.mean_s);
  EXPECT_EQ(a.imbalance, b.imbalance);
  EXPECT_EQ(a.files, b.files);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.files_per_s, b.files_per_s);
  EXPECT_EQ(a.mib_per_s, b.mib_per_s);
  EXPECT_EQ(a.latency.p99_us, b.latency.p99_us);
  EXPECT_EQ(a.latency.mean_us, b.latency.mean_us);
  EXPECT_EQ(a.latency.total_ns, b.latency.total_ns);
  for (Operation op : kWriteOperations) {
    const auto i = static_cast<std::size_t>(op);
    EXPECT_EQ(a.operations[i].p50_us, b.operations[i].p50_us) << operation_name(op);
    EXPECT_EQ(a.operations[i].max_us, b.operations[i].max_us) << operation_name(op);
    EXPECT_EQ(a.operations[i].count, b.operations[i].count) << operation_name(op);
    EXPECT_EQ(a.operations[i].total_ns, b.operations[i].total_ns) << operation_name(op);
  }
  ASSERT_EQ(a.ranks.size(), b.ranks.size());
  for (std::size_t r = 0; r < a.ranks.size(); ++r) {
    EXPECT_EQ(a.ranks[r].rank, b.ranks[r].rank);
    EXPECT_EQ(a.ranks[r].elapsed_s, b.ranks[r].elapsed_s);
    EXPECT_EQ(a.ranks[r].files, b.ranks[r].files);
    EXPECT_EQ(a.ranks[r].bytes, b.ranks[r].bytes);
  }
  EXPECT_EQ(a.verified, b.verified);
  EXPECT_EQ(a.verify.files_checked, b.verify.files_checked);
}

TEST(RepetitionLog, GivesBackExactlyWhatWasPushed) {
  RepetitionLog log;
  log.reserve(3, 2);
  const RepetitionFigures reps[] = {made(1, 1.0), made(2, 1.3), made(3, 0.9)};
  for (const RepetitionFigures& rep : reps) log.push_back(rep);
  ASSERT_EQ(log.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    expect_same(log[i], reps[i]);
    EXPECT_EQ(log.makespan_s(i), reps[i].makespan_s);
  }
  std::size_t seen = 0;
  for (const RepetitionFigures& rep : log) expect_same(rep, reps[seen++]);
  EXPECT_EQ(seen, 3u);
  expect_same(log.back(), reps[2]);
}

TEST(RepetitionLog, KeepsVerifyFigures) {
  RepetitionLog log;
  RepetitionFigures rep = made(1, 1.0);
  rep.verified = true;
  rep.verify = {0.25, 22, 1};
  log.push_back(rep);
  expect_same(log.front(), rep);
  EXPECT_EQ(log.front().verify.elapsed_s, 0.25);
  EXPECT_EQ(log.front().verify.mismatches, 1u);
}

// What the log cannot rebuild it refuses, rather than report something else later.
TEST(RepetitionLog, RefusesWhatItCouldNotRebuild) {
  RepetitionLog log;
  RepetitionFigures edited = made(1, 1.0);
  edited.slowest_s = 9;  // not derived from its ranks
  EXPECT_THROW(log.push_back(edited), std::invalid_argument);
  EXPECT_TRUE(log.empty());
  EXPECT_THROW(log.push_back(made(2, 1.0)), std::invalid_argument);  // index 2 first
  log.push_back(made(1, 1.0));
  RepetitionFigures one_rank = summarize_repetition(2, {{0, 1.0, 1, 1}}, LatencyFigures{});
  EXPECT_THROW(log.push_back(one_rank), std::invalid_argument);  // unlike the first
  RepetitionFigures swapped =
      summarize_repetition(2, {{1, 1.0, 1, 1}, {0, 1.0, 1, 1}}, LatencyFigures{});
  EXPECT_THROW(log.push_back(swapped), std::invalid_argument);
  EXPECT_EQ(log.size(), 1u);
}

// A repetition whose operations are not what was pushed cannot be kept compactly unnoticed.
TEST(RepetitionLog, KeepsEachRepetitionsOwnOperations) {
  RepetitionLog log;
  log.push_back(made(1, 1.0));
  log.push_back(made(2, 2.0));
  EXPECT_EQ(log[0].operations[0].total_ns, 6000u * 55 / 10);  // 600 ns x (1 + ... + 10)
  EXPECT_EQ(log[1].operations[0].total_ns, 2 * log[0].operations[0].total_ns);
  EXPECT_EQ(log[1].operations[static_cast<std::size_t>(Operation::Fsync)].count, 0u);
}

// The documented cost (docs/performance.md): 280 bytes per repetition (the file's latency
// figures and its four operations', 56 each) and 32 per rank, where a RepetitionFigures kept
// whole is more than that plus a heap block.
TEST(RepetitionLog, Costs280BytesPerRepetitionAndThirtyTwoPerRank) {
  EXPECT_EQ(RepetitionLog::kBytesPerRepetition, 280u);
  EXPECT_EQ(RepetitionLog::kBytesPerRank, 32u);
  EXPECT_EQ(RepetitionLog::kBytesPerVerifiedRepetition, 24u);
  EXPECT_GT(sizeof(RepetitionFigures), RepetitionLog::kBytesPerRepetition);
}

}  // namespace
}  // namespace mpiwrite
