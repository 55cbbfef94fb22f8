// CSV: a fixed header (docs/metrics.md). For every point: one row per timed repetition,
// optional per-rank rows, summary rows named after their statistic and, with --phases, a
// `phase` row per phase; then a comparison's `verdict` rows and the run's `removal` row. Long
// form, so that pandas.read_csv and one filter on `row` give a tidy frame of each kind.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "csv_row.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/report/reporters.hpp"

namespace mpiwrite::csv {

// Every cell goes through csv_field, so a cell with a comma, quote or newline stays one cell.
void print_row(std::ostream& out, const CsvRow& row) {
  std::vector<std::string> cells;
  for (const Column& c : kColumns) cells.push_back(csv_field(row.*c.cell));
  fmt::print(out, "{}\n", fmt::join(cells, ","));
}

namespace {

std::string header() {
  std::vector<std::string> names;
  for (const Column& c : kColumns) names.emplace_back(c.header);
  return fmt::format("{}", fmt::join(names, ","));
}

// Empty when absent (speedup against an unmeasured baseline).
std::string optional_cell(const std::optional<double>& value) { return value ? cell(*value) : ""; }

// The cells every row of a point starts with.
CsvRow point_row(const char* kind, const PointReport& p) {
  CsvRow row;
  row.row = kind;
  row.mode = to_string(p.spec.mode);
  row.ranks = cell(p.spec.ranks);
  row.threads = cell(p.spec.threads);
  row.engine = to_string(p.spec.engine);
  row.queue_depth = cell(p.spec.queue_depth);
  row.layout = to_string(p.spec.layout);
  row.concurrency = cell(p.spec.concurrency());
  return row;
}

// The per-operation cells of a repetition row, operation by operation.
void operation_cells(const OperationFigures& operations, bool fsync, CsvRow& row) {
  std::string CsvRow::*const cells[kWriteOperations.size()][5] = {
      {&CsvRow::create_p50_us, &CsvRow::create_p90_us, &CsvRow::create_p99_us,
       &CsvRow::create_max_us, &CsvRow::create_mean_us},
      {&CsvRow::writes_p50_us, &CsvRow::writes_p90_us, &CsvRow::writes_p99_us,
       &CsvRow::writes_max_us, &CsvRow::writes_mean_us},
      {&CsvRow::fsync_p50_us, &CsvRow::fsync_p90_us, &CsvRow::fsync_p99_us, &CsvRow::fsync_max_us,
       &CsvRow::fsync_mean_us},
      {&CsvRow::close_p50_us, &CsvRow::close_p90_us, &CsvRow::close_p99_us, &CsvRow::close_max_us,
       &CsvRow::close_mean_us},
  };
  for (Operation op : kWriteOperations) {
    if (op == Operation::Fsync && !fsync) continue;  // not measured: empty, not 0
    const auto i = static_cast<std::size_t>(op);
    const LatencyFigures& l = operations[i];
    const double values[5] = {l.p50_us, l.p90_us, l.p99_us, l.max_us, l.mean_us};
    for (std::size_t k = 0; k < 5; ++k) row.*cells[i][k] = cell(values[k]);
  }
}

void write_repetition(const PointReport& p, const RepetitionFigures& rep, bool per_rank, bool fsync,
                      std::ostream& out) {
  CsvRow row = point_row("repetition", p);
  row.repetition = cell(rep.index);
  row.files = cell(rep.files);
  if (rep.limit.applied) {
    row.time_limited = rep.limit.cut_short ? "true" : "false";
    row.files_at_limit = cell(rep.limit.files_at_limit);
  }
  // --phases: the other phases' makespan, items and rate (docs/metrics.md, "Phases").
  for (const PhaseFigures& f : rep.phases) {
    std::string CsvRow::*makespan = nullptr;
    std::string CsvRow::*items = nullptr;
    std::string CsvRow::*rate = nullptr;
    switch (f.phase) {
      case Phase::TreeCreate:
        makespan = &CsvRow::tree_create_makespan_s;
        items = &CsvRow::tree_create_directories;
        rate = &CsvRow::tree_create_directories_per_s;
        break;
      case Phase::Stat:
        makespan = &CsvRow::stat_makespan_s;
        items = &CsvRow::stat_files;
        rate = &CsvRow::stat_files_per_s;
        break;
      case Phase::Read:
        makespan = &CsvRow::read_makespan_s;
        items = &CsvRow::read_files;
        rate = &CsvRow::read_files_per_s;
        break;
      case Phase::Remove:
        makespan = &CsvRow::remove_makespan_s;
        items = &CsvRow::remove_files;
        rate = &CsvRow::remove_files_per_s;
        break;
      case Phase::TreeRemove:
        makespan = &CsvRow::tree_remove_makespan_s;
        items = &CsvRow::tree_remove_directories;
        rate = &CsvRow::tree_remove_directories_per_s;
        break;
      case Phase::Write:
        continue;
    }
    row.*makespan = cell(f.makespan_s);
    row.*items = cell(f.items);
    row.*rate = cell(f.items_per_s);
  }
  if (rep.verified) {
    row.verify_s = cell(rep.verify.elapsed_s);
    row.verify_files_checked = cell(rep.verify.files_checked);
    row.verify_mismatches = cell(rep.verify.mismatches);
  }
  row.bytes = cell(rep.bytes);
  row.elapsed_s = cell(rep.makespan_s);
  row.fastest_s = cell(rep.fastest_s);
  row.mean_s = cell(rep.mean_s);
  row.imbalance = cell(rep.imbalance);
  row.files_per_s = cell(rep.files_per_s);
  row.mib_per_s = cell(rep.mib_per_s);
  row.p50_us = cell(rep.latency.p50_us);
  row.p90_us = cell(rep.latency.p90_us);
  row.p99_us = cell(rep.latency.p99_us);
  row.max_us = cell(rep.latency.max_us);
  row.first_done_s = cell(rep.first_done_s);
  row.start_spread_s = cell(rep.start_spread_s);
  row.slowest_rank_s = cell(rep.slowest_s);
  row.outlier = cell(p.is_outlier(rep.index) ? 1 : 0);
  operation_cells(rep.operations, fsync, row);
  print_row(out, row);
  if (!per_rank) return;
  // With --phases beyond write, every phase's ranks in the order the phases ran, each row
  // naming its phase (the write phase's too), its count in `items`; the write phase's also in
  // `files`, as without --phases, where `phase` stays empty.
  const bool phases = !rep.phases.empty();
  for (const PhaseFigures& f : rep.all_phases()) {
    const bool write = f.phase == Phase::Write;
    for (const RankFigures& rank : write ? rep.ranks : f.ranks) {
      CsvRow r = point_row("rank", p);
      r.repetition = cell(rep.index);
      r.rank = cell(rank.rank);
      if (write) r.files = cell(rank.files);
      if (phases) {
        r.phase = phase_name(f.phase);
        r.items = cell(rank.files);
      }
      r.bytes = cell(rank.bytes);
      r.elapsed_s = cell(rank.elapsed_s);
      r.start_s = cell(rank.start_s);
      print_row(out, r);
    }
  }
}

// elapsed_s is the statistic of the makespan over the timed repetitions; files_per_s is the
// point's rate at it (PointReport::files_per_s; none for stddev). A point that was never
// measured (an interrupted run) keeps its rows with empty cells: no figure rather than a 0.
void write_summary(const PointReport& p, std::ostream& out) {
  const bool measured = p.measured();
  const SeriesSummary& m = p.makespan;
  const MakespanRates rate = p.files_per_s.value_or(MakespanRates{});
  const auto figure = [&](double value) { return measured ? cell(value) : std::string(); };
  const std::tuple<const char*, double, double> rows[] = {{"mean", m.mean, rate.at_mean},
                                                          {"median", m.median, rate.at_median},
                                                          {"min", m.min, rate.at_min},
                                                          {"max", m.max, rate.at_max}};
  for (const auto& [name, seconds, files_per_s] : rows) {
    CsvRow row = point_row(name, p);
    row.files = measured ? cell(p.files) : "";
    row.bytes = measured ? cell(p.bytes) : "";
    row.elapsed_s = figure(seconds);
    row.files_per_s = figure(files_per_s);
    // Speedup and efficiency are of the medians (docs/metrics.md), so the median row has them,
    // with the median's interval and theirs.
    if (std::string_view(name) == "median") {
      row.speedup = optional_cell(p.speedup);
      row.efficiency = optional_cell(p.efficiency);
      row.ci_low = low(m.median_ci);
      row.ci_high = high(m.median_ci);
      row.speedup_ci_low = low(p.speedup_ci);
      row.speedup_ci_high = high(p.speedup_ci);
      row.efficiency_ci_low = low(p.efficiency_ci);
      row.efficiency_ci_high = high(p.efficiency_ci);
      row.precision = optional_cell(p.precision);
      row.stopped_by = stopped_by_name(p.stopped_by);
    }
    print_row(out, row);
  }
  CsvRow spread = point_row("stddev", p);
  spread.files = measured ? cell(p.files) : "";
  spread.bytes = measured ? cell(p.bytes) : "";
  spread.elapsed_s = figure(m.stddev);
  spread.cv = figure(m.cv);
  print_row(out, spread);
}

// --phases beyond write: a `phase` row per phase run (the write phase too), each phase's median
// makespan (elapsed_s) with its interval (ci_low, ci_high), its items of one repetition, its
// rate at the median with that rate's interval, and (a sweep or comparison) its speedup and
// efficiency against the baseline's same phase in the median row's columns, so one column
// holds every speedup. An unmeasured point keeps the rows, empty.
void write_phase_summaries(const PointReport& p, const std::vector<Phase>& phases,
                           std::ostream& out) {
  for (Phase phase : phases) {
    CsvRow row = point_row("phase", p);
    row.phase = phase_name(phase);
    for (const PhaseSummary& s : p.phases) {
      if (s.phase != phase || s.makespan.count == 0) continue;
      row.items = cell(s.items);
      row.elapsed_s = cell(s.makespan.median);
      row.ci_low = low(s.makespan.median_ci);
      row.ci_high = high(s.makespan.median_ci);
      // No rate (a repetition timed no item): empty, as the write phase's.
      if (s.items_per_s.at_median > 0) row.items_per_s = cell(s.items_per_s.at_median);
      row.items_per_s_ci_low = low(s.rate_ci);
      row.items_per_s_ci_high = high(s.rate_ci);
      row.speedup = optional_cell(s.speedup);
      row.efficiency = optional_cell(s.efficiency);
      row.speedup_ci_low = low(s.speedup_ci);
      row.speedup_ci_high = high(s.speedup_ci);
      row.efficiency_ci_low = low(s.efficiency_ci);
      row.efficiency_ci_high = high(s.efficiency_ci);
    }
    print_row(out, row);
  }
}

}  // namespace

}  // namespace mpiwrite::csv

namespace mpiwrite {

const std::string kCsvHeader = csv::header();

void write_csv(const RunReport& r, std::ostream& out) {
  fmt::print(out, "{}\n", csv::header());
  for (const PointReport& p : r.points) {
    for (const RepetitionFigures& rep : p.repetitions) {
      csv::write_repetition(p, rep, r.config.per_rank, r.config.fsync, out);
    }
    csv::write_summary(p, out);
    if (r.config.phases.size() > 1) csv::write_phase_summaries(p, r.config.phases, out);
  }
  if (r.kind == RunKind::Compare) csv::write_verdicts(r.comparison, r.config.phases, out);
  if (r.cleanup.ran) csv::write_removal(r.cleanup, out);
  // A run cut short says so in its last row: the `mode` column names the signal, `phase`
  // what it cut (RunReport::interrupted_in) and `repetition` which timed repetition.
  if (r.interrupted_by) {
    csv::CsvRow row;
    row.row = "interrupted";
    row.mode = signal_name(r.interrupted_by);
    if (r.interrupted_in) {
      row.phase = r.interrupted_in->phase;
      if (!r.interrupted_in->point.empty() && !r.interrupted_in->warmup) {
        row.repetition = csv::cell(r.interrupted_in->repetition);
      }
    }
    csv::print_row(out, row);
  }
}

}  // namespace mpiwrite
