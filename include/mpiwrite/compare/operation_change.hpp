#pragma once
// Where a change between two reports comes from (issue 24 §7): each operation's per-file mean
// in old and in new, and the rule that names the operation carrying the change. Pure: figures
// in, figures out; compare_format.hpp words them. docs/metrics.md, "Comparing two reports".

#include <optional>
#include <string>
#include <vector>

namespace mpiwrite {

// One figure of a report's per-file split (latency_us, or one of operations_us) summed over a
// point's timed repetitions: a mean over every file of those repetitions is total_ns / count.
struct OperationTotal {
  std::string name;     // "create", "writes", ...; "latency" for the whole file
  double total_ns = 0;  // the sum of the repetitions' total_ns
  double count = 0;     // the sum of their count (files, or directories for the tree phases)
};

// A point's per-file figures for the phase compared, as read from one report. `complete` is
// false when a timed repetition lacks them (schema 3, or a version 4 report written before
// issue 23's per-operation figures): then no operation is named.
struct PerFileTotals {
  bool complete = false;
  OperationTotal latency{"latency", 0, 0};
  std::vector<OperationTotal> operations;  // by name; fsync only with --fsync
};

// One operation's per-file mean in each report, in µs.
struct OperationChange {
  std::string name;
  double old_us = 0, new_us = 0;
  double change_us() const { return new_us - old_us; }
  // new / old - 1; empty when old's mean is 0 (a null engine's or --file-size 0's writes).
  std::optional<double> relative() const;
};

// The operation whose per-file mean changed most in absolute time carries the change.
struct ChangeAttribution {
  OperationChange latency;  // the whole file: its mean latency in old and new
  // Every operation in both reports, and "other" (a file's latency outside every operation:
  // --slow-rank's sleep, the engine's bookkeeping), by |change_us|, largest first; ties by name
  // ("other" last). The first carries the change.
  std::vector<OperationChange> operations;
};

// The name of the part of a file's latency outside every operation.
inline constexpr const char* kOtherOperation = "other";

// Empty when either side is not complete or has no file (count 0). An operation only one report
// has is left out (fsync without --fsync in one of them: the workloads differ, as warned); so
// is "other" when either side's operations sum above its latency (a report edited by hand).
std::optional<ChangeAttribution> attribute_change(const PerFileTotals& old_totals,
                                                  const PerFileTotals& new_totals);

}  // namespace mpiwrite
