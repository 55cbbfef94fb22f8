#pragma once
// mpiwrite-compare as a CI gate (--fail-on): whether the verdicts of a comparison fail the job,
// and the one line that says why. Pure: the caller prints the line and exits with the code.

#include <cstddef>
#include <string>
#include <vector>

#include "mpiwrite/compare/report_comparison.hpp"

namespace mpiwrite {

// The exit code when --fail-on's condition holds: above kExitUsage (2), so a CI job can tell a
// regression from a bad command line or report (docs/metrics.md, "Comparing two reports").
inline constexpr int kExitGate = 3;

// What fails the gate; both false: the gate is off (exit 0 whatever the verdicts).
struct FailOn {
  bool slower = false;     // a point whose verdict is "slower"
  bool different = false;  // a point whose verdict is "faster" or "slower"
};

struct GateOutcome {
  bool failed = false;
  std::vector<std::size_t> points;  // the indices in ReportComparison::points that fail it
  // When failed, one line for standard error, e.g. "mpiwrite-compare: --fail-on slower: new is
  // slower at 1 of 3 points: 2x1 (processes)"; else empty.
  std::string message;
};

// Only "faster" and "slower" fail the gate: "below noise threshold" is significant but within
// kNoiseThreshold, and the verdicts that decide nothing (no significant difference, too few
// repetitions, not comparable) and unmatched points pass it.
GateOutcome apply_gate(const ReportComparison& comparison, FailOn fail_on);

}  // namespace mpiwrite
