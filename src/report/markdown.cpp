// A Markdown report: the seed's results table, ready to paste into a write-up.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "describe.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/report/reporters.hpp"
#include "point_grids.hpp"

namespace mpiwrite {

void write_markdown(const RunReport& r, std::ostream& out) {
  fmt::print(out, "### mpiwrite {}: {}\n\n", r.context.mpiwrite_version, describe::layout(r));
  fmt::print(out, "- workload: {}\n", describe::workload(r.config));
  fmt::print(out, "- directory: {} ({})\n", markdown_code(r.context.directory),
             r.context.filesystem);
  fmt::print(out, "- runs: {}\n", describe::repetitions(r));
  fmt::print(out, "- timing: {}\n", describe::kTiming);
  for (const std::string& warning : setup_warnings(r.context)) {
    fmt::print(out, "- **warning**: {}\n", warning);
  }
  for (const std::string& note : describe::notes(r)) fmt::print(out, "- {}\n", note);
  fmt::print(out, "\n");
  print_markdown(points_grid(r), out);
  if (r.kind != RunKind::Run) {  // a run shows them per repetition, below
    fmt::print(out,
               "\nPer operation (median over the repetitions of each mean latency; "
               "docs/metrics.md):\n\n");
    print_markdown(point_operations_grid(r), out);
  }
  if (r.kind == RunKind::Compare) {
    fmt::print(out,
               "\nAt equal concurrency (speedup and efficiency of the medians against {}; a "
               "winner only when significantly faster, alpha {}; equivalent when the ratio's 95% "
               "CI is within 1 +- {:g}):\n\n",
               describe::baseline(r), kSignificanceLevel, r.config.equivalence);
    print_markdown(comparison_grid(r), out);
  }
  for (const PointReport& point : r.points) {  // --per-rank, as in the table and the CSV
    if (!r.config.per_rank || r.kind == RunKind::Run) break;
    fmt::print(out, "\nPer rank, point {} ({}): {}\n", point.spec.label(),
               to_string(point.spec.mode),
               describe::measured(point.repetitions.size(), r.config.repetitions));
    if (point.measured()) {
      fmt::print(out, "\n");
      print_markdown(repetitions_grid(point, true), out);
    }
  }
  if (r.kind == RunKind::Run) {
    fmt::print(out, "\n");
    print_markdown(repetitions_grid(r.points.front(), r.config.per_rank), out);
    if (!r.points.front().makespan.outliers.empty()) {
      fmt::print(out, "\n\\* an outlier (outside Tukey's fences, 1.5 IQR)\n");
    }
    if (!r.points.front().repetitions.empty()) {
      fmt::print(out, "\nPer operation (latency over every file; docs/metrics.md):\n\n");
      print_markdown(operations_grid(r.points.front(), r.config.fsync), out);
    }
    if (r.context.hosts.size() > 1) {
      fmt::print(out, "\nPer host (files and bytes of the last repetition):\n\n");
      print_markdown(hosts_grid(r.points.front()), out);
    }
  }
  if (r.config.phases.size() > 1) {
    fmt::print(out,
               "\nPhases (medians over the repetitions; rate = items / the phase's makespan{}; "
               "docs/metrics.md):\n\n",
               r.points.size() > 1
                   ? fmt::format("; speedup against {}'s same phase", describe::baseline(r))
                   : std::string());
    print_markdown(phases_grid(r), out);
    if (r.config.per_rank) {
      fmt::print(out,
                 "\nPer rank and phase (start, done: after the phase's common start; "
                 "write: per rank above):\n\n");
      print_markdown(phase_ranks_grid(r), out);
    }
    if (r.kind == RunKind::Compare) {
      fmt::print(out, "\nAt equal concurrency, by phase (alpha {}):\n\n", kSignificanceLevel);
      print_markdown(phase_verdicts_grid(r), out);
    }
  }
  const std::vector<std::string> warnings = describe::statistics_warnings(r);
  if (!warnings.empty()) fmt::print(out, "\n");
  for (const std::string& w : warnings) fmt::print(out, "- **warning**: {}\n", w);
}

}  // namespace mpiwrite
