#pragma once
// The rows the human formats show: repetitions of a run, the points of a sweep or comparison,
// and the processes / threads / hybrid comparison.

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/grid.hpp"

namespace mpiwrite {

Grid repetitions_grid(const PointReport& point, bool per_rank);
// Per repetition, each operation's latency over every file (fsync only if `fsync`), and its
// share of the files' open-to-close latency.
Grid operations_grid(const PointReport& point, bool fsync);
Grid points_grid(const RunReport& report);
// Per point of a sweep or comparison: the median over its repetitions of the files' mean
// latency and of each operation's.
Grid point_operations_grid(const RunReport& report);
Grid comparison_grid(const RunReport& report);
// --phases: per point and phase, the items, the median makespan and the rate (items / makespan)
// at the median with its 95 % interval, in a sweep or comparison the speedup (with its
// interval) and efficiency against the baseline's same phase, the median over the repetitions
// of the phase's imbalance and of its per-item mean latency, and each operation's median mean
// latency.
// `latency`: with each phase's mean latency and its per-operation split (markdown and the
// --wide table); the default table leaves them out to fit 120 columns.
Grid phases_grid(const RunReport& report, bool latency = true);
// --per-rank with --phases: each rank's own figures in every phase but write (whose ranks are
// the repetitions' rank rows), by point, repetition and phase in the order they ran.
Grid phase_ranks_grid(const RunReport& report);
// --compare --phases: per row (layout, concurrency) and phase other than write, the fastest
// mode and the runner-up by that phase's median makespan, the ratio of their medians, the
// test's p-value and the winner (none unless significant: the write phase's rule).
Grid phase_verdicts_grid(const RunReport& report);
// Per host over the point's repetitions (shown when more than one host took part).
Grid hosts_grid(const PointReport& point);

}  // namespace mpiwrite
