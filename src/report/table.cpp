// The people-facing report: aligned columns with units in the headers.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "describe.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/report/reporters.hpp"
#include "point_grids.hpp"
#include "table_parts.hpp"
#include "text_wrap.hpp"

namespace mpiwrite {

namespace {

void write_header(const RunReport& r, std::ostream& out) {
  const RunContext& x = r.context;
  fmt::print(out, "mpiwrite {}: {}\n", x.mpiwrite_version, describe::layout(r));
  fmt::print(out, "workload:  {}\n", describe::workload(r.config));
  fmt::print(out, "directory: {} ({})\n", printable(x.directory), x.filesystem);
  fmt::print(out, "runs:      {}\n", describe::repetitions(r));
  fmt::print(out, "timing:    {}\n", describe::kTiming);
  for (const std::string& warning : setup_warnings(x)) fmt::print(out, "WARNING:   {}\n", warning);
  for (const std::string& note : describe::notes(r)) fmt::print(out, "{}\n", note);
  fmt::print(out, "\n");
}

void write_run(const RunReport& r, std::ostream& out) {
  const PointReport& point = r.points.front();
  print_aligned(repetitions_grid(point, r.config.per_rank), out);
  const SeriesSummary& m = point.makespan;
  if (!point.measured()) {  // interrupted during the first: no figures, not zeros
    fmt::print(out, "\nmakespan: not measured (no timed repetition of {} completed)\n",
               r.config.repetitions);
  } else {
    const std::string over =
        m.count < r.config.repetitions
            ? fmt::format("{} of {} repetitions", m.count, r.config.repetitions)
            : describe::plural(m.count, "repetition");
    fmt::print(out,
               "\nmakespan over {} [s]: median {:.6f} ({})  mean {:.6f} +- {:.6f} "
               "(CV {:.1f}%)  min {:.6f}  max {:.6f}\n",
               over, m.median,
               m.median_ci ? "95% CI " + describe::interval(m.median_ci)
                           : std::string("no 95% CI below 6 repetitions"),
               m.mean, m.stddev, 100 * m.cv, m.min, m.max);
    if (!m.outliers.empty()) fmt::print(out, "* an outlier (outside Tukey's fences, 1.5 IQR)\n");
  }
  if (!point.repetitions.empty()) {
    const RepetitionFigures& last = point.repetitions.back();
    if (last.limit.applied) {  // the count differs from repetition to repetition
      fmt::print(out, "files written in the last repetition: {} of {} asked ({} bytes)\n",
                 last.files, last.limit.files_asked, last.bytes);
    } else {
      fmt::print(out, "files written per repetition: {} ({} bytes)\n", last.files, last.bytes);
    }
  }
  if (!point.repetitions.empty()) {
    fmt::print(out, "\nper operation (latency over every file; docs/metrics.md):\n");
    print_aligned(operations_grid(point, r.config.fsync), out);
  }
  if (r.context.hosts.size() > 1) {
    fmt::print(out, "\nper host (files and bytes of the last repetition):\n");
    print_aligned(hosts_grid(point), out);
  }
}

}  // namespace

// --wide: every column of every grid (the default is compact_table.cpp).
void write_table(const RunReport& report, std::ostream& out) {
  if (!report.config.wide) return write_compact_table(report, out);
  write_header(report, out);
  if (report.kind == RunKind::Run) {
    write_run(report, out);
  } else {
    print_aligned(points_grid(report), out);
    fmt::print(out,
               "\nper operation (median over the repetitions of each mean latency; "
               "docs/metrics.md):\n");
    print_aligned(point_operations_grid(report), out);
    if (report.kind == RunKind::Compare) {
      fmt::print(out,
                 "\nat equal concurrency (speedup and efficiency of the medians against {}; a "
                 "winner only when significantly faster, alpha {};\n  equivalent when the "
                 "ratio's 95% CI is within 1 +- {:g}):\n",
                 describe::baseline(report), kSignificanceLevel, report.config.equivalence);
      print_aligned(comparison_grid(report), out);
    }
    // --per-rank: every point's repetitions with their ranks, the rows the CSV has.
    for (const PointReport& point : report.points) {
      if (!report.config.per_rank) break;
      fmt::print(out, "\nper rank, point {} ({}): {}\n", point.spec.label(),
                 to_string(point.spec.mode),
                 describe::measured(point.repetitions.size(), report.config.repetitions));
      if (point.measured()) print_aligned(repetitions_grid(point, true), out);
    }
  }
  write_phases(report, out);
  write_warnings(report, out);
  write_removal(report, out);
}

void write_phases(const RunReport& report, std::ostream& out) {
  // --phases: every phase's rate with its interval (write's too, beside the others).
  if (report.config.phases.size() > 1) {
    const std::string heading = fmt::format(
        "medians over the repetitions; rate = items / the phase's makespan, each phase from "
        "its own barrier{}; docs/metrics.md, \"Phases\"{}):",
        report.points.size() > 1
            ? fmt::format("; speedup against {}'s same phase", describe::baseline(report))
            : std::string(),
        report.config.wide ? "" : "; latencies: --wide");
    // The default table fits 100 columns (a sweep's 120): the heading wrapped, the latencies left
    // to --wide and markdown.
    if (report.config.wide) {
      fmt::print(out, "\nphases ({}\n", heading);
    } else {
      fmt::print(out, "\n");
      for (const std::string& line : wrap_clauses("phases (", heading, report.points.size() > 1 ? 120 : 100, 2)) {
        fmt::print(out, "{}\n", line);
      }
    }
    print_aligned(phases_grid(report, report.config.wide), out);
    if (report.config.per_rank) {
      fmt::print(out,
                 "\nper rank and phase (start, done: after the phase's common start; "
                 "write: per rank above):\n");
      print_aligned(phase_ranks_grid(report), out);
    }
    if (report.kind == RunKind::Compare) {
      fmt::print(out,
                 "\nat equal concurrency, by phase (each phase's own medians and test; a winner "
                 "only when significantly faster, alpha {}):\n",
                 kSignificanceLevel);
      print_aligned(phase_verdicts_grid(report), out);
    }
  }
}

void write_warnings(const RunReport& report, std::ostream& out) {
  const std::vector<std::string> warnings = describe::statistics_warnings(report);
  if (!warnings.empty()) fmt::print(out, "\n");
  for (const std::string& w : warnings) fmt::print(out, "WARNING: {}\n", w);
}

void write_removal(const RunReport& report, std::ostream& out) {
  if (report.cleanup.ran) {
    fmt::print(out, "removal phase (not in any write time): {} removed in {:.6f} s{}\n",
               describe::plural(report.cleanup.files_removed, "file"), report.cleanup.elapsed_s,
               report.cleanup.failed ? "; FAILED (see the errors above): what is left stays" : "");
  }
}

}  // namespace mpiwrite
