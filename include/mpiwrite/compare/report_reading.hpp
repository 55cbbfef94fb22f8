#pragma once
// An mpiwrite JSON report (schema_version 3 to 5) read back for mpiwrite-compare: the series of
// times each point measured, and what says whether two reports measured the same thing. Pure:
// text in, data out. The report is untrusted input: every field used is checked, and a report
// that cannot be compared is refused with one line naming the file and the field.

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mpiwrite/compare/operation_change.hpp"

namespace mpiwrite {

// The schema versions whose per-repetition time mpiwrite-compare knows: 3 `slowest_s` (the
// slowest rank's own duration), 4 and 5 `makespan_s` (from the ranks' common start; 5 only
// renamed lists this reader does not read: `per_rank`, `rank_ids`).
inline constexpr int kOldestComparableSchema = 3;
inline constexpr int kNewestComparableSchema = 5;

// The limits of a time mpiwrite-compare accepts, in seconds: the clock's resolution (a time of 0
// is a clock that could not resolve the phase, or an edited report) up to about 31 years. Within
// them every median, ratio and bootstrap interval of two series is a finite double (the largest
// ratio, a time scaled by at most 2^53 asked files against 1 ns, is about 1e34), so no NaN or
// infinity can reach a verdict.
inline constexpr double kShortestSeconds = 1e-9;
inline constexpr double kLongestSeconds = 1e9;
// Counts (files) are integers up to 2^53: each is exactly a double.
inline constexpr std::uint64_t kLargestCount = std::uint64_t{1} << 53;
// The deepest nesting of arrays and objects read (a report of mpiwrite's has 7 levels). Deeper
// is refused while parsing, so nothing that walks the document can recurse without bound.
inline constexpr int kMaxNesting = 64;

// What a workload key's value must be.
enum class ConfigKind { Count, CountOrNull, Seconds, Text, Flag, Name, Names, Ranks };

// A config key that changes what is written or how, so two reports that differ in it measured
// different workloads. `fallback` (JSON text) is the value a report without the key ran with:
// mpiwrite's default, which is what every older mpiwrite that lacked the option did. Ranks,
// threads, the thread counts and layouts of points (matched by label) are what one compares;
// where (dir), how often (repetitions, warmup), checks after the timed phase (verify, timeout)
// and output options are not the workload. docs/metrics.md, "Comparing two reports", lists
// them; tests/unit/report_reading_test.cpp fails for a config field this table does not
// classify.
struct WorkloadKey {
  const char* name;
  ConfigKind kind;
  const char* fallback;
};
inline constexpr std::array<WorkloadKey, 23> kWorkloadKeys = {{
    {"files", ConfigKind::Count, "100"},
    {"lines", ConfigKind::Count, "100"},
    {"text", ConfigKind::Text, "\"Hello, world!\""},
    {"pattern", ConfigKind::Text, "\"write{}.txt\""},
    {"partition", ConfigKind::Name, "\"block\""},
    {"write_mode", ConfigKind::Name, "\"line\""},
    {"engine", ConfigKind::Name, "\"posix\""},
    {"queue_depth", ConfigKind::Count, "1"},
    {"fsync", ConfigKind::Flag, "false"},
    {"overwrite", ConfigKind::Flag, "false"},
    {"chunk", ConfigKind::Count, "8"},
    {"slow_ranks", ConfigKind::Ranks, "[]"},
    {"slow_delay_us", ConfigKind::Count, "1000"},
    {"time_limit_s", ConfigKind::Seconds, "0"},
    {"wear_out", ConfigKind::Flag, "false"},
    {"layouts", ConfigKind::Names, "[\"shared\"]"},
    {"files_per_dir", ConfigKind::Count, "0"},
    {"tree_depth", ConfigKind::Count, "0"},
    {"branch", ConfigKind::Count, "1"},
    {"file_size", ConfigKind::CountOrNull, "null"},
    {"write_size", ConfigKind::CountOrNull, "null"},
    {"shift", ConfigKind::Count, "1"},
    {"random_order", ConfigKind::Flag, "false"},
}};
// The config fields of the report that do not change the workload (the test above checks that
// these and kWorkloadKeys together are every field the report's config holds).
// file_size_bytes and write_size_bytes are derived from the keys above; files_per_rank is
// how `files` was given; `phases` says which phases were timed, and two reports are compared
// on the phase --phase names (write unless asked), which both must have: one call per phase.
// -r auto's settings and --equivalence decide how long and how a run decides, not what it writes.
inline constexpr std::array<const char*, 23> kNotWorkloadKeys = {
    "dir",           "threads",   "repetitions",     "warmup",          "cleanup",
    "format",        "output",    "per_rank",        "sweep_threads",   "compare",
    "verify",        "timeout_s", "max_concurrency", "file_size_bytes", "write_size_bytes",
    "files_per_rank", "phases",   "auto_repetitions", "precision",      "min_repetitions",
    "max_repetitions", "max_time_s", "equivalence"};

// One workload key of a report: config's value, or the fallback when the report lacks it.
struct WorkloadValue {
  std::string key;
  nlohmann::json value;
  bool absent = false;  // the report lacks the key: `value` is the fallback
};

struct ReportPoint {
  std::string mode, label;    // together they name the point within its report
  std::vector<double> times;  // seconds, one per timed repetition, in the order measured
  // Repetitions cut short by --time-limit before their first file: no rate, so no time for
  // the asked files; they are not in `times`, and the point cannot be compared.
  std::size_t without_time = 0;
  // The phase's latency_us and operations_us (count, total_ns) summed over the repetitions in
  // `times`: where a change comes from (operation_change.hpp).
  PerFileTotals per_file;
};

// What a report says about where and how it was measured. Strings are the report's bytes
// (a \udcXX escape is the byte XX again), so they are printed through text_escape.hpp.
struct ReportAbout {
  std::string file;  // as named on the command line
  int schema_version = 0;
  std::string kind;                     // run, sweep, compare; empty when absent
  std::string mpiwrite_version;         // context.mpiwrite_version; empty when absent
  std::string filesystem;               // context.filesystem; empty when absent
  std::vector<std::string> hosts;       // context.hosts[].host, in the report's order
  std::string interrupted;              // "SIGINT", "SIGTERM"; empty when the run ran to its end
  // The phase whose makespans ReportPoint::times holds (--phase): "write" is each repetition's
  // makespan_s (slowest_s in schema 3), another is its phases.<phase>.makespan_s.
  std::string phase = "write";
  std::vector<WorkloadValue> workload;  // kWorkloadKeys, in that order
};

struct ReportInput {
  ReportAbout about;
  std::vector<ReportPoint> points;  // not empty; (mode, label) unique
};

// Parses and checks `text`, the contents of `file`: every field read is checked here, against
// its type and range, and nowhere else. Throws UsageError with one line, "FILE: FIELD: expected
// ..., got ...", when it is not JSON, nested deeper than kMaxNesting, holds a number beyond a
// double, is not an mpiwrite report, of another schema_version, has no points, did not time
// `phase` (a name of core/phase.hpp), or a field the comparison reads is missing, of the wrong
// type or out of range.
ReportInput read_report(std::string_view text, const std::string& file,
                        const std::string& phase = "write");

}  // namespace mpiwrite
