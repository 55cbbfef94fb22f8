// Where a change comes from (issue 24 §7): the operation whose per-file mean changed most in
// time carries it, whatever the relative changes; "other" is the latency outside them.
#include "mpiwrite/compare/operation_change.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compare_fixtures.hpp"
#include "mpiwrite/compare/report_reading.hpp"

namespace mpiwrite {
namespace {

// A side of `files` files whose latency and operations sum the given µs per file.
PerFileTotals side(double files, double latency_us,
                   std::vector<std::pair<std::string, double>> operations_us) {
  PerFileTotals t;
  t.complete = true;
  t.latency = {"latency", latency_us * 1000 * files, files};
  for (const auto& [name, us] : operations_us)
    t.operations.push_back({name, us * 1000 * files, files});
  return t;
}

TEST(OperationChange, TheLargestChangeInTimeCarriesItNotTheLargestRatio) {
  // writes: 100 -> 130 us (+30 %, +30 us); create: 2 -> 6 us (+200 %, +4 us).
  const auto a = attribute_change(side(40, 110, {{"create", 2}, {"writes", 100}, {"close", 1}}),
                                  side(10, 145, {{"create", 6}, {"writes", 130}, {"close", 1}}));
  ASSERT_TRUE(a.has_value());
  ASSERT_EQ(a->operations.size(), 4u);  // and other
  EXPECT_EQ(a->operations[0].name, "writes");
  EXPECT_DOUBLE_EQ(a->operations[0].change_us(), 30);
  EXPECT_DOUBLE_EQ(*a->operations[0].relative(), 0.3);
  EXPECT_EQ(a->operations[1].name, "create");
  EXPECT_DOUBLE_EQ(*a->operations[1].relative(), 2);
  EXPECT_EQ(a->operations[2].name, "other");  // 7 -> 8 us
  EXPECT_DOUBLE_EQ(a->operations[2].change_us(), 1);
  EXPECT_EQ(a->operations[3].name, "close");
  EXPECT_DOUBLE_EQ(a->operations[3].change_us(), 0);
  EXPECT_DOUBLE_EQ(a->latency.old_us, 110);
  EXPECT_DOUBLE_EQ(a->latency.new_us, 145);
}

TEST(OperationChange, AFasterNewIsCarriedByTheLargestDrop) {
  const auto a = attribute_change(side(8, 50, {{"create", 40}, {"close", 10}}),
                                  side(8, 30, {{"create", 15}, {"close", 14}}));
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->operations[0].name, "create");
  EXPECT_DOUBLE_EQ(a->operations[0].change_us(), -25);
  EXPECT_DOUBLE_EQ(*a->operations[0].relative(), -0.625);
}

TEST(OperationChange, WhatCannotBeComparedIsLeftOut) {
  // fsync only in new; writes of 0 us in old (--file-size 0): no relative change.
  const auto a = attribute_change(side(4, 5, {{"create", 2}, {"writes", 0}}),
                                  side(4, 9, {{"create", 2}, {"writes", 1}, {"fsync", 5}}));
  ASSERT_TRUE(a.has_value());
  for (const OperationChange& op : a->operations) EXPECT_NE(op.name, "fsync");
  const auto writes = std::find_if(a->operations.begin(), a->operations.end(),
                                   [](const OperationChange& op) { return op.name == "writes"; });
  ASSERT_NE(writes, a->operations.end());
  EXPECT_FALSE(writes->relative().has_value());
  // Operations summing above the latency (an edited report): no "other".
  const auto edited = attribute_change(side(4, 1, {{"create", 2}}), side(4, 1, {{"create", 2}}));
  ASSERT_TRUE(edited.has_value());
  ASSERT_EQ(edited->operations.size(), 1u);
  // A side without the figures, or without a file: nothing is named.
  PerFileTotals incomplete = side(4, 5, {{"create", 2}});
  incomplete.complete = false;
  EXPECT_FALSE(attribute_change(incomplete, side(4, 5, {{"create", 2}})).has_value());
  EXPECT_FALSE(attribute_change(side(4, 5, {}), side(0, 5, {})).has_value());
}

// read_report() sums each operation's total_ns and count over the point's repetitions, for
// the phase compared; a report without the figures (schema 3) is not complete.
TEST(OperationChange, TheReaderSumsTheRepetitionsOfThePhase) {
  const std::string name = "sweep_phases_v4.json";
  const nlohmann::json doc = testing::fixture_json(name);
  for (const std::string phase : {"write", "stat"}) {
    const ReportInput in = read_report(testing::fixture_text(name), name, phase);
    const ReportPoint& p = in.points.at(0);
    ASSERT_TRUE(p.per_file.complete) << phase;
    double latency_ns = 0, create_or_stat_ns = 0;
    const char* op = phase == "write" ? "create" : "stat";
    for (const auto& rep : doc["points"][0]["repetitions"]) {
      const auto& figures = phase == "write" ? rep : rep["phases"][phase];
      latency_ns += figures["latency_us"]["total_ns"].get<double>();
      create_or_stat_ns += figures["operations_us"][op]["total_ns"].get<double>();
    }
    EXPECT_DOUBLE_EQ(p.per_file.latency.total_ns, latency_ns) << phase;
    const auto it = std::find_if(p.per_file.operations.begin(), p.per_file.operations.end(),
                                 [&](const OperationTotal& t) { return t.name == op; });
    ASSERT_NE(it, p.per_file.operations.end()) << phase;
    EXPECT_DOUBLE_EQ(it->total_ns, create_or_stat_ns) << phase;
    EXPECT_EQ(p.per_file.operations.size(), phase == "write" ? 3u : 1u);  // fsync is null
  }
  const ReportInput v3 = read_report(testing::fixture_text("run_old_v3.json"), "run_old_v3.json");
  EXPECT_FALSE(v3.points.at(0).per_file.complete);
}

}  // namespace
}  // namespace mpiwrite
