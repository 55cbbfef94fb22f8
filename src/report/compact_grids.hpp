#pragma once
// The rows of the default table (issue 24): the columns that matter, fitting 100 columns for a
// run and 120 for a sweep or comparison. Every figure left out stays in --wide, markdown, CSV
// and JSON (point_grids.hpp has the full grids).

#include <string>
#include <vector>

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/grid.hpp"

namespace mpiwrite {

// "12345.6": a rate as every human format prints it (the tests find the same text in each).
std::string rate_text(double per_s);

// Per repetition of a run: files/s first, MiB/s, the makespan, the imbalance and the
// latency's p50 and p99; with --verify what it found, with --time-limit the files written and
// where the limit stopped them.
Grid run_rows_grid(const PointReport& point);
// --per-rank: one row per rank and repetition (start, done, own time, files), long form.
Grid rank_rows_grid(const PointReport& point);
// A sweep or comparison, long form: one row per point, grouped by (layout, concurrency) in the
// comparison's row order, the group's winner ("none" without one) at the left of its first
// row; then the mode, the point, files/s at the median with its 95 % interval, the speedup
// with its interval, the efficiency and the repetitions measured.
Grid points_long_grid(const RunReport& report);

}  // namespace mpiwrite
