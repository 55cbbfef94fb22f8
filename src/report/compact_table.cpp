// The default table (issue 24): the headline first, then the rows that matter, within 100
// columns for a run and 120 for a sweep or comparison. --wide prints the full grids
// (table.cpp); docs/metrics.md, "The table", says what each line is.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>
#include <ostream>

#include "compact_grids.hpp"
#include "describe.hpp"
#include "mpiwrite/core/difference_source.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "point_grids.hpp"
#include "table_parts.hpp"
#include "text_wrap.hpp"

namespace mpiwrite {

namespace {

void print_wrapped(std::ostream& out, std::string_view first, std::string_view text,
                   std::size_t width, std::size_t indent) {
  for (const std::string& line : wrap_clauses(first, text, width, indent)) {
    fmt::print(out, "{}\n", line);
  }
}

// "files/s 12345 [95% CI 12000-12700], median of 8 repetitions; makespan 0.008100 s", or why
// there is no interval, or that nothing was measured.
std::string headline(const RunReport& r) {
  const PointReport& p = r.points.front();
  if (!p.measured()) {
    return fmt::format("files/s: not measured (no timed repetition of {} completed)",
                       r.config.repetitions);
  }
  const SeriesSummary& m = p.makespan;
  const double rate = p.files_per_s->at_median;
  std::string spread;
  if (m.count == 1) {
    spread = r.config.repetitions == 1
                 ? std::string("(1 repetition: no interval)")
                 : fmt::format("(1 of {} repetitions: no interval)", r.config.repetitions);
  } else if (m.median_ci) {
    const auto n = static_cast<double>(p.files);
    spread = fmt::format("[95% CI {}-{}], median of {}", rate_text(n / m.median_ci->high),
                         rate_text(n / m.median_ci->low), describe::measured(m.count,
                                                                             r.config.repetitions));
  } else {
    spread = fmt::format("median of {} (no 95% CI below 6; range {}-{})",
                         describe::measured(m.count, r.config.repetitions),
                         rate_text(p.files_per_s->at_max), rate_text(p.files_per_s->at_min));
  }
  return fmt::format("files/s {} {}; makespan {:.6f} s", rate_text(rate), spread, m.median);
}

// Per operation, the median over the repetitions of its mean per file, and its share of the
// files' open-to-close time over every repetition.
std::string operations_line(const PointReport& p, bool fsync) {
  std::vector<std::vector<double>> means(kWriteOperations.size());
  std::vector<double> totals(kWriteOperations.size());
  double whole = 0;
  for (const RepetitionFigures& rep : p.repetitions) {  // each rebuilt once
    whole += static_cast<double>(rep.latency.total_ns);
    for (std::size_t slot = 0; slot < kWriteOperations.size(); ++slot) {
      means[slot].push_back(rep.operations[slot].mean_us);
      totals[slot] += static_cast<double>(rep.operations[slot].total_ns);
    }
  }
  std::vector<std::string> parts;
  for (Operation op : kWriteOperations) {
    if (op == Operation::Fsync && !fsync) continue;  // not measured
    const auto slot = static_cast<std::size_t>(op);
    parts.push_back(fmt::format("{} {:.1f} ({})", operation_name(op), median_of(means[slot]),
                                whole > 0 ? fmt::format("{:.1f}%", 100 * totals[slot] / whole)
                                          : "-"));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// "create -38%, writes +2%, close -1% per file": each operation's change from the runner-up to
// the winner, the one that carries the difference first (core/difference_source.hpp).
std::string sources_text(const std::vector<OperationDifference>& changes) {
  std::vector<std::string> parts;
  for (const OperationDifference& c : changes) {
    const std::optional<double> rel = c.relative();
    parts.push_back(rel ? fmt::format("{} {:+.0f}%", operation_name(c.operation), 100 * *rel)
                        : fmt::format("{} {:+.1f} us", operation_name(c.operation), c.change_us()));
  }
  return parts.empty() ? std::string() : fmt::format("{} per file", fmt::join(parts, ", "));
}

const PointReport* point_of(const RunReport& r, const ComparisonRow& row, const std::string& mode) {
  const std::optional<ModeCell>* cell = mode == "processes" ? &row.processes
                                        : mode == "threads" ? &row.threads
                                        : mode == "hybrid"  ? &row.hybrid
                                        : mode == "async"   ? &row.async
                                                            : nullptr;
  if (cell == nullptr || !cell->has_value() || (*cell)->point >= r.points.size()) return nullptr;
  return &r.points[(*cell)->point];
}

// One line per comparison row with a verdict; where a winner is named, the operations that
// carry the difference (docs/metrics.md, "Where a difference comes from").
void write_verdicts(const RunReport& r, std::ostream& out) {
  const bool layouts = std::any_of(r.comparison.begin(), r.comparison.end(),
                                   [&](const ComparisonRow& row) {
                                     return row.layout != r.comparison.front().layout;
                                   });
  fmt::print(out,
             "\nverdicts (Mann-Whitney U, fastest vs runner-up, alpha {}; a winner's lead split "
             "by operation;\n  equivalent: the ratio's 95% CI within 1 +- {:g}):\n",
             kSignificanceLevel, r.config.equivalence);
  for (const ComparisonRow& row : r.comparison) {
    if (!row.verdict) continue;
    std::string line = describe::verdict(row, r.config.equivalence);
    if (!row.winner.empty()) {
      const PointReport* a = point_of(r, row, row.verdict->fastest);
      const PointReport* b = point_of(r, row, row.verdict->runner_up);
      const std::string sources = a && b ? sources_text(difference_sources(*a, *b)) : "";
      line = fmt::format("{} {}{}", row.winner, line, sources.empty() ? "" : ": " + sources);
    }
    const std::string at = layouts ? fmt::format("  {} at {}: ", to_string(row.layout),
                                                 row.concurrency)
                                   : fmt::format("  at {}: ", row.concurrency);
    print_wrapped(out, at, line, kWideColumns, at.size());
  }
  // --phases: a later phase's winner, from that phase's own operations.
  for (const ComparisonRow& row : r.comparison) {
    for (const PhaseVerdict& v : row.phases) {
      if (v.winner.empty()) continue;
      const PointReport* a = point_of(r, row, v.verdict.fastest);
      const PointReport* b = point_of(r, row, v.verdict.runner_up);
      const std::string sources = a && b ? sources_text(difference_sources(*a, *b, v.phase)) : "";
      if (sources.empty()) continue;
      const std::string at =
          fmt::format("  {} at {}{}: ", phase_name(v.phase), row.concurrency,
                      layouts ? fmt::format(" ({})", to_string(row.layout)) : std::string());
      print_wrapped(out, at,
                    fmt::format("{} {:.2f}x faster than {}: {}", v.winner, v.verdict.verdict.ratio,
                                v.verdict.runner_up, sources),
                    kWideColumns, at.size());
    }
  }
}

// The statistics' warnings, the same one for many points said once with the points it covers:
// high variation with each point's CV; any other text shared word for word by several points
// once with their list; the rest as they are.
std::vector<std::string> grouped_warnings(const RunReport& r) {
  if (r.kind == RunKind::Run) return describe::statistics_warnings(r);
  std::vector<std::string> lines = r.warnings;
  std::vector<std::string> variable;
  std::vector<std::pair<std::string, std::vector<std::string>>> same;  // text, its points
  for (const PointReport& p : r.points) {
    const std::string name = fmt::format("{} ({})", p.spec.label(), to_string(p.spec.mode));
    for (const std::string& w : p.warnings) {
      if (w.starts_with("high variation")) {
        variable.push_back(fmt::format("{} {:.1f}%", p.spec.label(), 100 * p.makespan.cv));
        continue;
      }
      auto it = std::find_if(same.begin(), same.end(), [&](const auto& s) { return s.first == w; });
      if (it == same.end()) it = same.insert(same.end(), {w, {}});
      it->second.push_back(name);
    }
  }
  if (!variable.empty()) {
    lines.push_back(fmt::format(
        "high variation (the makespans' CV over {:.0f}%) at {}: the machine or the file system "
        "was unsteady; prefer the medians and their intervals",
        100 * kHighVariation, fmt::join(variable, ", ")));
  }
  for (const auto& [text, points] : same) {
    lines.push_back(fmt::format("{} {}: {}", points.size() == 1 ? "point" : "points",
                                fmt::join(points, ", "), text));
  }
  return lines;
}

void write_header(const RunReport& r, std::size_t width, std::ostream& out) {
  const RunContext& x = r.context;
  if (r.kind == RunKind::Run) fmt::print(out, "{}\n", headline(r));
  fmt::print(out, "mpiwrite {}: {}\n", x.mpiwrite_version, describe::layout(r));
  print_wrapped(out, "workload:  ", describe::workload(r.config), width, 11);
  fmt::print(out, "directory: {} ({})\n", printable(x.directory), x.filesystem);
  print_wrapped(out, "runs:      ", describe::repetitions(r), width, 11);
  for (const std::string& warning : setup_warnings(x)) {
    print_wrapped(out, "WARNING:   ", warning, width, 11);
  }
  for (const std::string& note : describe::notes(r)) print_wrapped(out, "", note, width, 2);
  fmt::print(out, "\n");
}

void write_run(const RunReport& r, std::ostream& out) {
  const PointReport& point = r.points.front();
  if (point.measured()) {
    print_aligned(run_rows_grid(point), out);
    if (!point.makespan.outliers.empty()) {
      fmt::print(out, "* an outlier (outside Tukey's fences, 1.5 IQR)\n");
    }
    const RepetitionFigures last = point.repetitions.back();
    if (last.limit.applied) {  // the count differs from repetition to repetition
      fmt::print(out, "files written in the last repetition: {} of {} asked ({} bytes)\n",
                 last.files, last.limit.files_asked, last.bytes);
    } else {
      fmt::print(out, "files written per repetition: {} ({} bytes)\n", last.files, last.bytes);
    }
    print_wrapped(out, "per operation, mean per file [us] (share of the latency): ",
                  operations_line(point, r.config.fsync), kNarrowColumns, 2);
  }
  fmt::print(out, "{}\n", kDefinitions);
  if (r.config.per_rank && point.measured()) {
    fmt::print(out, "\nper rank:\n");
    print_aligned(rank_rows_grid(point), out);
  }
  if (r.context.hosts.size() > 1) {
    fmt::print(out, "\nper host (files and bytes of the last repetition):\n");
    print_aligned(hosts_grid(point), out);
  }
}

void write_points(const RunReport& r, std::ostream& out) {
  fmt::print(out, "speedup and efficiency against {}; files/s at each point's median makespan\n",
             describe::baseline(r));
  print_aligned(points_long_grid(r), out);
  fmt::print(out, "{}\n", kDefinitions);
  fmt::print(out, "\nper operation (median over the repetitions of each mean latency):\n");
  print_aligned(point_operations_grid(r), out);
  if (r.kind == RunKind::Compare) write_verdicts(r, out);
  for (const PointReport& point : r.points) {  // --per-rank
    if (!r.config.per_rank) break;
    fmt::print(out, "\nper rank, point {} ({}): {}\n", point.spec.label(),
               to_string(point.spec.mode),
               describe::measured(point.repetitions.size(), r.config.repetitions));
    if (point.measured()) print_aligned(rank_rows_grid(point), out);
  }
}

}  // namespace

void write_compact_table(const RunReport& r, std::ostream& out) {
  const std::size_t width = r.kind == RunKind::Run ? kNarrowColumns : kWideColumns;
  write_header(r, width, out);
  if (r.kind == RunKind::Run) {
    write_run(r, out);
  } else {
    write_points(r, out);
  }
  write_phases(r, out);  // the full grids' (table.cpp): their owner folds them
  const std::vector<std::string> warnings = grouped_warnings(r);
  if (!warnings.empty()) fmt::print(out, "\n");
  for (const std::string& w : warnings) print_wrapped(out, "WARNING: ", w, width, 9);
  write_removal(r, out);
}

}  // namespace mpiwrite
