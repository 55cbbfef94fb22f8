#pragma once
// The parts of the table that its two layouts share: the default (compact_table.cpp) and
// --wide (table.cpp).

#include <cstddef>
#include <ostream>

#include "mpiwrite/core/run_report.hpp"

namespace mpiwrite {

// The default table's widths: a run's report fits kNarrowColumns, a sweep's or comparison's
// kWideColumns (issue 24; tests/unit/report_width_test.cpp and tests/e2e/report_width.sh).
inline constexpr std::size_t kNarrowColumns = 100;
inline constexpr std::size_t kWideColumns = 120;

// The definitions in one line, with where the rest is.
inline constexpr const char* kDefinitions =
    "makespan = first rank start after a barrier to last close; rate = files / makespan; "
    "docs/metrics.md";

void write_compact_table(const RunReport& report, std::ostream& out);
// --phases: every phase's grid, and by phase for a comparison.
void write_phases(const RunReport& report, std::ostream& out);
// The statistics' warnings one per line as they are (--wide), then the removal phase's line.
void write_warnings(const RunReport& report, std::ostream& out);
void write_removal(const RunReport& report, std::ostream& out);

}  // namespace mpiwrite
