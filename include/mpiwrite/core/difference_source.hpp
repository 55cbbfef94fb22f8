#pragma once
// Where a verdict's difference comes from (issue 24 §7): for a verdict that names a winner, the
// change of each operation's per-file mean latency from the runner-up to the winner, largest
// first, so a report can say "threads faster: create -38% per file, writes +2%". Pure: it reads
// the per-operation figures every point already has (docs/metrics.md, "Where a difference
// comes from").

#include <optional>
#include <vector>

#include "mpiwrite/core/comparison.hpp"
#include "mpiwrite/core/phase.hpp"

namespace mpiwrite {

// One operation of the phase: the median over each point's timed repetitions of the
// operation's mean latency per item (as the per-operation grid shows it), in microseconds.
struct OperationDifference {
  Operation operation = Operation::Create;
  double winner_us = 0, runner_up_us = 0;
  double change_us() const { return winner_us - runner_up_us; }  // < 0: the winner spent less
  // change_us / runner_up_us; none when the runner-up's mean is 0 (no ratio to give).
  std::optional<double> relative() const;
};

// Every operation of `phase` that either point measured (a mean above 0 in one of them: fsync
// without --fsync is left out), ordered by the absolute change in microseconds per item,
// largest first; ties keep the phase's own order. The first carries the difference. Empty when
// either point has no timed repetition or did not run the phase.
std::vector<OperationDifference> difference_sources(const PointReport& winner,
                                                const PointReport& runner_up,
                                                Phase phase = Phase::Write);

}  // namespace mpiwrite
