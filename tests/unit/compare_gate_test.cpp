// --fail-on: which verdicts fail the gate, and the one line that says which points.
#include "mpiwrite/compare/compare_gate.hpp"

#include <gtest/gtest.h>

namespace mpiwrite {
namespace {

ReportComparison with_verdicts(std::vector<CompareVerdict> verdicts) {
  ReportComparison c;
  int i = 0;
  for (CompareVerdict v : verdicts) {
    PointComparison p;
    p.old_side.mode = p.new_side.mode = "processes";
    p.old_side.label = p.new_side.label = std::to_string(++i) + "x1";
    p.verdict = v;
    c.points.push_back(p);
  }
  return c;
}

constexpr FailOn kSlower{true, false}, kDifferent{false, true}, kBoth{true, true}, kOff{};

TEST(CompareGate, SlowerFailsOnlyOnSlower) {
  using V = CompareVerdict;
  const ReportComparison c = with_verdicts({V::Faster, V::Slower, V::NoDifference});
  const GateOutcome g = apply_gate(c, kSlower);
  EXPECT_TRUE(g.failed);
  EXPECT_EQ(g.points, std::vector<std::size_t>{1});
  EXPECT_EQ(g.message,
            "mpiwrite-compare: --fail-on slower: new is slower at 1 of 3 points: slower 2x1 "
            "(processes)");
  EXPECT_FALSE(apply_gate(with_verdicts({V::Faster, V::BelowNoise}), kSlower).failed);
}

TEST(CompareGate, DifferentFailsOnFasterAndSlower) {
  using V = CompareVerdict;
  const GateOutcome g = apply_gate(with_verdicts({V::Faster, V::Slower}), kDifferent);
  EXPECT_TRUE(g.failed);
  EXPECT_EQ(g.points, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(g.message,
            "mpiwrite-compare: --fail-on different: new is slower or faster at 2 of 2 points: "
            "faster 1x1 (processes), slower 2x1 (processes)");
  EXPECT_TRUE(apply_gate(with_verdicts({V::Faster}), kBoth).failed);
}

TEST(CompareGate, VerdictsThatDecideNothingPass) {
  using V = CompareVerdict;
  const ReportComparison c =
      with_verdicts({V::NoDifference, V::BelowNoise, V::TooFewRepetitions, V::NotComparable});
  for (FailOn f : {kSlower, kDifferent, kBoth}) {
    const GateOutcome g = apply_gate(c, f);
    EXPECT_FALSE(g.failed);
    EXPECT_TRUE(g.message.empty());
  }
  EXPECT_FALSE(apply_gate(with_verdicts({}), kBoth).failed);  // nothing matched
  EXPECT_FALSE(apply_gate(with_verdicts({V::Slower, V::Faster}), kOff).failed);
}

}  // namespace
}  // namespace mpiwrite
