// CSV: a fixed header (docs/metrics.md). For every point: one row per timed repetition,
// optional per-rank rows, and summary rows named after their statistic.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <ostream>
#include <vector>

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/reporters.hpp"
#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {

// The columns after queue_depth came with mpiwrite 0.4 (schema 4); the first 22 keep their
// places, so scripts that read them by position still work.
const char* const kCsvHeader =
    "row,mode,ranks,threads,repetition,rank,files,bytes,elapsed_s,fastest_s,mean_s,imbalance,"
    "files_per_s,mib_per_s,p50_us,p90_us,p99_us,max_us,speedup,efficiency,engine,queue_depth,"
    "start_s,first_done_s,start_spread_s,slowest_rank_s,outlier,cv,ci_low,ci_high,"
    "speedup_ci_low,speedup_ci_high,efficiency_ci_low,efficiency_ci_high";

namespace {

constexpr std::size_t kFirstColumns = 20;  // before engine and queue_depth
constexpr std::size_t kLaterColumns = 12;  // after them

// The cells of the columns after queue_depth, by name.
struct Later {
  std::string start_s, first_done_s, start_spread_s, slowest_rank_s, outlier, cv, ci_low, ci_high,
      speedup_ci_low, speedup_ci_high, efficiency_ci_low, efficiency_ci_high;
};

// Prints the cells, empty cells after them, the point's engine and queue depth, then the later
// columns. Every cell goes through csv_field, so a cell with a comma, quote or newline stays
// one cell.
void print_row(std::ostream& out, std::vector<std::string> cells, const PointSpec& spec,
               const Later& later = {}) {
  cells.resize(kFirstColumns);
  cells.emplace_back(to_string(spec.engine));
  cells.push_back(fmt::format("{}", spec.queue_depth));
  for (const std::string* c : {&later.start_s, &later.first_done_s, &later.start_spread_s,
                               &later.slowest_rank_s, &later.outlier, &later.cv, &later.ci_low,
                               &later.ci_high, &later.speedup_ci_low, &later.speedup_ci_high,
                               &later.efficiency_ci_low, &later.efficiency_ci_high}) {
    cells.push_back(*c);
  }
  static_assert(kLaterColumns == 12);
  for (std::string& c : cells) c = csv_field(c);
  fmt::print(out, "{}\n", fmt::join(cells, ","));
}

template <typename T>
std::string cell(const T& value) {
  return fmt::format("{}", value);
}

// Empty when absent (speedup against an unmeasured baseline).
std::string optional_cell(const std::optional<double>& value) { return value ? cell(*value) : ""; }

void write_point(const PointReport& p, bool per_rank, std::ostream& out) {
  const std::string mode(to_string(p.spec.mode));
  const std::string ranks = cell(p.spec.ranks), threads = cell(p.spec.threads);
  const std::vector<std::size_t>& outliers = p.makespan.outliers;
  for (const RepetitionFigures& rep : p.repetitions) {
    Later later;
    later.first_done_s = cell(rep.first_done_s);
    later.start_spread_s = cell(rep.start_spread_s);
    later.slowest_rank_s = cell(rep.slowest_s);
    const bool outlier = std::binary_search(outliers.begin(), outliers.end(), std::size_t{rep.index - 1});
    later.outlier = cell(outlier ? 1 : 0);
    print_row(out, {"repetition", mode, ranks, threads, cell(rep.index), "", cell(rep.files),
                    cell(rep.bytes), cell(rep.makespan_s), cell(rep.fastest_s), cell(rep.mean_s),
                    cell(rep.imbalance), cell(rep.files_per_s), cell(rep.mib_per_s),
                    cell(rep.latency.p50_us), cell(rep.latency.p90_us), cell(rep.latency.p99_us),
                    cell(rep.latency.max_us)},
              p.spec, later);
    if (!per_rank) continue;
    for (const RankFigures& rank : rep.ranks) {
      Later at;
      at.start_s = cell(rank.start_s);
      print_row(out, {"rank", mode, ranks, threads, cell(rep.index), cell(rank.rank),
                      cell(rank.files), cell(rank.bytes), cell(rank.elapsed_s)},
                p.spec, at);
    }
  }
  // elapsed_s is the statistic of the makespan over the timed repetitions; files_per_s is the
  // files of one repetition over that time (not for stddev). A point that was never measured
  // (an interrupted run) keeps its rows with empty cells: no figure rather than a 0.
  const bool measured = p.measured();
  const std::string files = measured ? cell(p.repetitions.back().files) : "";
  const std::string bytes = measured ? cell(p.repetitions.back().bytes) : "";
  const double files_n = measured ? static_cast<double>(p.repetitions.back().files) : 0.0;
  const SeriesSummary& m = p.makespan;
  const auto figure = [&](double value) { return measured ? cell(value) : std::string(); };
  const std::pair<const char*, double> rows[] = {
      {"mean", m.mean}, {"median", m.median}, {"min", m.min}, {"max", m.max}};
  const auto low = [](const std::optional<Interval>& i) { return i ? cell(i->low) : std::string(); };
  const auto high = [](const std::optional<Interval>& i) { return i ? cell(i->high) : std::string(); };
  for (const auto& [name, seconds] : rows) {
    std::vector<std::string> cells{name, mode, ranks, threads, "", "", files, bytes, figure(seconds),
                                   "", "", "", figure(seconds > 0 ? files_n / seconds : 0.0)};
    Later later;
    // Speedup and efficiency are of the medians (docs/metrics.md), so the median row has them,
    // with the median's interval and theirs.
    if (std::string_view(name) == "median") {
      cells.resize(kFirstColumns);
      cells[18] = optional_cell(p.speedup);
      cells[19] = optional_cell(p.efficiency);
      later.ci_low = low(m.median_ci);
      later.ci_high = high(m.median_ci);
      later.speedup_ci_low = low(p.speedup_ci);
      later.speedup_ci_high = high(p.speedup_ci);
      later.efficiency_ci_low = low(p.efficiency_ci);
      later.efficiency_ci_high = high(p.efficiency_ci);
    }
    print_row(out, std::move(cells), p.spec, later);
  }
  Later spread;
  spread.cv = figure(m.cv);
  print_row(out, {"stddev", mode, ranks, threads, "", "", files, bytes, figure(m.stddev)}, p.spec,
            spread);
}

}  // namespace

void write_csv(const RunReport& r, std::ostream& out) {
  fmt::print(out, "{}\n", kCsvHeader);
  for (const PointReport& p : r.points) write_point(p, r.config.per_rank, out);
  // A run cut short says so in its last row: the `mode` column names the signal.
  if (r.interrupted_by) {
    fmt::print(out, "interrupted,{}{}\n", signal_name(r.interrupted_by),
               std::string(std::count(kCsvHeader, kCsvHeader + std::strlen(kCsvHeader), ',') - 1, ','));
  }
}

}  // namespace mpiwrite
