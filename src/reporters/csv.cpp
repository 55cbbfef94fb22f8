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

#include "mpiwrite/report.hpp"
#include "mpiwrite/text_escape.hpp"

namespace mpiwrite {

const char* const kCsvHeader =
    "row,mode,ranks,threads,repetition,rank,files,bytes,elapsed_s,fastest_s,mean_s,imbalance,"
    "files_per_s,mib_per_s,p50_us,p90_us,p99_us,max_us,speedup,efficiency,engine,queue_depth";

namespace {

constexpr std::size_t kColumns = 22;

// Prints the cells, empty cells after them, and the point's engine and queue depth last. Every
// cell goes through csv_field, so a cell with a comma, quote or newline stays one cell.
void print_row(std::ostream& out, std::vector<std::string> cells, const PointSpec& spec) {
  cells.resize(kColumns - 2);
  cells.emplace_back(to_string(spec.engine));
  cells.push_back(fmt::format("{}", spec.queue_depth));
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
  for (const RepetitionFigures& rep : p.repetitions) {
    print_row(out, {"repetition", mode, ranks, threads, cell(rep.index), "", cell(rep.files),
                    cell(rep.bytes), cell(rep.slowest_s), cell(rep.fastest_s), cell(rep.mean_s),
                    cell(rep.imbalance), cell(rep.files_per_s), cell(rep.mib_per_s),
                    cell(rep.latency.p50_us), cell(rep.latency.p90_us), cell(rep.latency.p99_us),
                    cell(rep.latency.max_us)},
              p.spec);
    if (!per_rank) continue;
    for (const RankFigures& rank : rep.ranks) {
      print_row(out, {"rank", mode, ranks, threads, cell(rep.index), cell(rank.rank),
                      cell(rank.files), cell(rank.bytes), cell(rank.elapsed_s)},
                p.spec);
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
  for (const auto& [name, seconds] : rows) {
    std::vector<std::string> cells{name, mode, ranks, threads, "", "", files, bytes, figure(seconds),
                                   "", "", "", figure(seconds > 0 ? files_n / seconds : 0.0)};
    if (std::string_view(name) == "mean") {
      cells.resize(kColumns - 2);
      cells[18] = optional_cell(p.speedup);
      cells[19] = optional_cell(p.efficiency);
    }
    print_row(out, std::move(cells), p.spec);
  }
  print_row(out, {"stddev", mode, ranks, threads, "", "", files, bytes, figure(m.stddev)}, p.spec);
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
