#pragma once
// The CSV's one row shape (docs/metrics.md, "CSV columns"): every row kind is a CsvRow that fills
// the cells it has, printed in the order of kColumns under the one header. Private to the CSV
// reporter: csv.cpp writes the points' rows, csv_run_rows.cpp the rows about the whole run.

#include <fmt/format.h>

#include <iosfwd>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/run_report.hpp"

namespace mpiwrite::csv {

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
  std::string tree_create_makespan_s, tree_create_directories, tree_create_directories_per_s;
  std::string stat_makespan_s, stat_files, stat_files_per_s;
  std::string read_makespan_s, read_files, read_files_per_s;
  std::string remove_makespan_s, remove_files, remove_files_per_s;
  std::string tree_remove_makespan_s, tree_remove_directories, tree_remove_directories_per_s;
  std::string verify_s, verify_files_checked, verify_mismatches;  // --verify, repetition rows
  std::string removal_s, removal_files, removal_failed;           // the `removal` row
  std::string phase, items, items_per_s, items_per_s_ci_low, items_per_s_ci_high;  // `phase`
  std::string concurrency;  // every point's row and every `verdict` row
  // The `verdict` rows: a comparison row's (or one of its phases') fastest against runner-up.
  std::string fastest, runner_up, outcome, ratio, ratio_ci_low, ratio_ci_high, p_value, winner;
  // -r auto (issue 26): the median row's precision and why the repetitions stopped; a
  // verdict row's three-way verdict (faster, equivalent, undecided).
  std::string precision, stopped_by, verdict;
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
// `files_at_limit` (repetition rows under --time-limit, else empty), each later phase's
// figures, and with issue 24 the verify, removal, per-phase summary and verdict columns; with
// issue 26 precision, stopped_by and the three-way verdict.
inline constexpr Column kColumns[] = {
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
    {"verify_s", &CsvRow::verify_s},
    {"verify_files_checked", &CsvRow::verify_files_checked},
    {"verify_mismatches", &CsvRow::verify_mismatches},
    {"removal_s", &CsvRow::removal_s},
    {"removal_files", &CsvRow::removal_files},
    {"removal_failed", &CsvRow::removal_failed},
    {"phase", &CsvRow::phase},
    {"items", &CsvRow::items},
    {"items_per_s", &CsvRow::items_per_s},
    {"items_per_s_ci_low", &CsvRow::items_per_s_ci_low},
    {"items_per_s_ci_high", &CsvRow::items_per_s_ci_high},
    {"concurrency", &CsvRow::concurrency},
    {"fastest", &CsvRow::fastest},
    {"runner_up", &CsvRow::runner_up},
    {"outcome", &CsvRow::outcome},
    {"ratio", &CsvRow::ratio},
    {"ratio_ci_low", &CsvRow::ratio_ci_low},
    {"ratio_ci_high", &CsvRow::ratio_ci_high},
    {"p_value", &CsvRow::p_value},
    {"winner", &CsvRow::winner},
    {"precision", &CsvRow::precision},
    {"stopped_by", &CsvRow::stopped_by},
    {"verdict", &CsvRow::verdict},
};
static_assert(std::size(kColumns) * sizeof(std::string) == sizeof(CsvRow),
              "every CsvRow cell has its column");

// Prints every cell through csv_field, so a cell with a comma, quote or newline stays one cell.
void print_row(std::ostream& out, const CsvRow& row);

template <typename T>
std::string cell(const T& value) {
  return fmt::format("{}", value);
}

// Empty when absent (an interval below 6 repetitions, or none to take).
inline std::string low(const std::optional<Interval>& i) { return i ? cell(i->low) : ""; }
inline std::string high(const std::optional<Interval>& i) { return i ? cell(i->high) : ""; }

// With --compare: a `verdict` row per comparison row and phase run (`phases`, in their order).
void write_verdicts(const std::vector<ComparisonRow>& rows, const std::vector<Phase>& phases,
                    std::ostream& out);
// The run's final removal phase (when it ran): the `removal` row.
void write_removal(const CleanupFigures& cleanup, std::ostream& out);

}  // namespace mpiwrite::csv
