// CSV: a fixed header (docs/metrics.md). For every point: one row per timed repetition,
// optional per-rank rows, and summary rows named after their statistic.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/report/reporters.hpp"

namespace mpiwrite {

namespace {

// One CSV row by column name; a row kind fills the cells it has, the rest stay empty.
struct CsvRow {
  std::string row, mode, ranks, threads, repetition, rank, files, bytes, elapsed_s, fastest_s,
      mean_s, imbalance, files_per_s, mib_per_s, p50_us, p90_us, p99_us, max_us, speedup,
      efficiency, engine, queue_depth, start_s, first_done_s, start_spread_s, slowest_rank_s,
      outlier, cv, ci_low, ci_high, speedup_ci_low, speedup_ci_high, efficiency_ci_low,
      efficiency_ci_high, layout;
  // Per operation (docs/metrics.md, "Per-operation latency"), in the order of kWriteOperations.
  std::string create_p50_us, create_p90_us, create_p99_us, create_max_us, create_mean_us;
  std::string writes_p50_us, writes_p90_us, writes_p99_us, writes_max_us, writes_mean_us;
  std::string fsync_p50_us, fsync_p90_us, fsync_p99_us, fsync_max_us, fsync_mean_us;
  std::string close_p50_us, close_p90_us, close_p99_us, close_max_us, close_mean_us;
  std::string time_limited, files_at_limit;  // --time-limit, on repetition rows
  // --phases: each other phase's makespan, items and rate, on repetition rows (else empty).
  std::string tree_create_makespan_s, tree_create_directories, tree_create_directories_per_s, stat_makespan_s, stat_files, stat_files_per_s;
  std::string read_makespan_s, read_files, read_files_per_s, remove_makespan_s, remove_files, remove_files_per_s, tree_remove_makespan_s, tree_remove_directories, tree_remove_directories_per_s;
};

struct Column {
  const char* header;
  std::string CsvRow::*cell;
};

// The columns in order: the header and every row are printed from this one list, so they
// cannot disagree. The columns after queue_depth came with mpiwrite 0.4 (schema 4); the
// first 22 keep their places, so scripts that read them by position still work. `layout`
// came last, with layouts as part of a point (without it two points of a --layout list
// would give rows that cannot be told apart). The per-operation columns came after it, with
// per-operation latency (empty fsync cells without --fsync), and then `time_limited` and
// `files_at_limit` (repetition rows under --time-limit, else empty).
constexpr Column kColumns[] = {
    {"row", &CsvRow::row},
    {"mode", &CsvRow::mode},
    {"ranks", &CsvRow::ranks},
    {"threads", &CsvRow::threads},
    {"repetition", &CsvRow::repetition},
    {"rank", &CsvRow::rank},
    {"files", &CsvRow::files},
    {"bytes", &CsvRow::bytes},
    {"elapsed_s", &CsvRow::elapsed_s},
    {"fastest_s", &CsvRow::fastest_s},
    {"mean_s", &CsvRow::mean_s},
    {"imbalance", &CsvRow::imbalance},
    {"files_per_s", &CsvRow::files_per_s},
    {"mib_per_s", &CsvRow::mib_per_s},
    {"p50_us", &CsvRow::p50_us},
    {"p90_us", &CsvRow::p90_us},
    {"p99_us", &CsvRow::p99_us},
    {"max_us", &CsvRow::max_us},
    {"speedup", &CsvRow::speedup},
    {"efficiency", &CsvRow::efficiency},
    {"engine", &CsvRow::engine},
    {"queue_depth", &CsvRow::queue_depth},
    {"start_s", &CsvRow::start_s},
    {"first_done_s", &CsvRow::first_done_s},
    {"start_spread_s", &CsvRow::start_spread_s},
    {"slowest_rank_s", &CsvRow::slowest_rank_s},
    {"outlier", &CsvRow::outlier},
    {"cv", &CsvRow::cv},
    {"ci_low", &CsvRow::ci_low},
    {"ci_high", &CsvRow::ci_high},
    {"speedup_ci_low", &CsvRow::speedup_ci_low},
    {"speedup_ci_high", &CsvRow::speedup_ci_high},
    {"efficiency_ci_low", &CsvRow::efficiency_ci_low},
    {"efficiency_ci_high", &CsvRow::efficiency_ci_high},
    {"layout", &CsvRow::layout},
    {"create_p50_us", &CsvRow::create_p50_us},
    {"create_p90_us", &CsvRow::create_p90_us},
    {"create_p99_us", &CsvRow::create_p99_us},
    {"create_max_us", &CsvRow::create_max_us},
    {"create_mean_us", &CsvRow::create_mean_us},
    {"writes_p50_us", &CsvRow::writes_p50_us},
    {"writes_p90_us", &CsvRow::writes_p90_us},
    {"writes_p99_us", &CsvRow::writes_p99_us},
    {"writes_max_us", &CsvRow::writes_max_us},
    {"writes_mean_us", &CsvRow::writes_mean_us},
    {"fsync_p50_us", &CsvRow::fsync_p50_us},
    {"fsync_p90_us", &CsvRow::fsync_p90_us},
    {"fsync_p99_us", &CsvRow::fsync_p99_us},
    {"fsync_max_us", &CsvRow::fsync_max_us},
    {"fsync_mean_us", &CsvRow::fsync_mean_us},
    {"close_p50_us", &CsvRow::close_p50_us},
    {"close_p90_us", &CsvRow::close_p90_us},
    {"close_p99_us", &CsvRow::close_p99_us},
    {"close_max_us", &CsvRow::close_max_us},
    {"close_mean_us", &CsvRow::close_mean_us},
    {"time_limited", &CsvRow::time_limited},
    {"files_at_limit", &CsvRow::files_at_limit},
    {"tree_create_makespan_s", &CsvRow::tree_create_makespan_s},
    {"tree_create_directories", &CsvRow::tree_create_directories},
    {"tree_create_directories_per_s", &CsvRow::tree_create_directories_per_s},
    {"stat_makespan_s", &CsvRow::stat_makespan_s},
    {"stat_files", &CsvRow::stat_files},
    {"stat_files_per_s", &CsvRow::stat_files_per_s},
    {"read_makespan_s", &CsvRow::read_makespan_s},
    {"read_files", &CsvRow::read_files},
    {"read_files_per_s", &CsvRow::read_files_per_s},
    {"remove_makespan_s", &CsvRow::remove_makespan_s},
    {"remove_files", &CsvRow::remove_files},
    {"remove_files_per_s", &CsvRow::remove_files_per_s},
    {"tree_remove_makespan_s", &CsvRow::tree_remove_makespan_s},
    {"tree_remove_directories", &CsvRow::tree_remove_directories},
    {"tree_remove_directories_per_s", &CsvRow::tree_remove_directories_per_s},
};
static_assert(std::size(kColumns) * sizeof(std::string) == sizeof(CsvRow),
              "every CsvRow cell has its column");

std::string header() {
  std::vector<std::string> names;
  for (const Column& c : kColumns) names.emplace_back(c.header);
  return fmt::format("{}", fmt::join(names, ","));
}

// Every cell goes through csv_field, so a cell with a comma, quote or newline stays one cell.
void print_row(std::ostream& out, const CsvRow& row) {
  std::vector<std::string> cells;
  for (const Column& c : kColumns) cells.push_back(csv_field(row.*c.cell));
  fmt::print(out, "{}\n", fmt::join(cells, ","));
}

template <typename T>
std::string cell(const T& value) {
  return fmt::format("{}", value);
}

// Empty when absent (speedup against an unmeasured baseline, an interval below 6 repetitions).
std::string optional_cell(const std::optional<double>& value) { return value ? cell(*value) : ""; }
std::string low(const std::optional<Interval>& i) { return i ? cell(i->low) : ""; }
std::string high(const std::optional<Interval>& i) { return i ? cell(i->high) : ""; }

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
  for (const RankFigures& rank : rep.ranks) {
    CsvRow r = point_row("rank", p);
    r.repetition = cell(rep.index);
    r.rank = cell(rank.rank);
    r.files = cell(rank.files);
    r.bytes = cell(rank.bytes);
    r.elapsed_s = cell(rank.elapsed_s);
    r.start_s = cell(rank.start_s);
    print_row(out, r);
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

}  // namespace

const std::string kCsvHeader = header();

void write_csv(const RunReport& r, std::ostream& out) {
  fmt::print(out, "{}\n", header());
  for (const PointReport& p : r.points) {
    for (const RepetitionFigures& rep : p.repetitions) {
      write_repetition(p, rep, r.config.per_rank, r.config.fsync, out);
    }
    write_summary(p, out);
  }
  // A run cut short says so in its last row: the `mode` column names the signal.
  if (r.interrupted_by) {
    CsvRow row;
    row.row = "interrupted";
    row.mode = signal_name(r.interrupted_by);
    print_row(out, row);
  }
}

}  // namespace mpiwrite
