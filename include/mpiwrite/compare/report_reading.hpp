#pragma once
// An mpiwrite JSON report (schema_version 3 or 4) read back for mpiwrite-compare: the series of
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

namespace mpiwrite {

// The schema versions whose per-repetition time mpiwrite-compare knows: 3 `slowest_s` (the
// slowest rank's own duration), 4 `makespan_s` (from the ranks' common start).
inline constexpr int kOldestComparableSchema = 3;
inline constexpr int kNewestComparableSchema = 4;

// The config keys that make two reports' workloads the same: the files and bytes written and
// how (docs/metrics.md, "Comparing two reports"). Ranks and threads are what one compares.
inline constexpr std::array<const char*, 7> kWorkloadKeys = {
    "files", "lines", "text", "write_mode", "engine", "fsync", "partition"};

struct ReportPoint {
  std::string mode, label;    // together they name the point within its report
  std::vector<double> times;  // seconds, one per timed repetition, in the order measured
};

// What a report says about where and how it was measured. Strings are the report's bytes
// (a \udcXX escape is the byte XX again), so they are printed through text_escape.hpp.
struct ReportAbout {
  std::string file;  // as named on the command line
  int schema_version = 0;
  std::string kind;              // run, sweep, compare; empty when absent
  std::string mpiwrite_version;  // context.mpiwrite_version; empty when absent
  std::string filesystem;        // context.filesystem; empty when absent
  std::vector<std::string> hosts;  // context.hosts[].host, in the report's order
  std::string interrupted;       // "SIGINT", "SIGTERM"; empty when the run ran to its end
  // kWorkloadKeys in that order, each with config's value; empty when the key is absent.
  std::vector<std::pair<std::string, std::optional<nlohmann::json>>> workload;
};

struct ReportInput {
  ReportAbout about;
  std::vector<ReportPoint> points;  // not empty; (mode, label) unique
};

// Parses and checks `text`, the contents of `file`. Throws UsageError with one line naming the
// file when it is not JSON, not an mpiwrite report, of another schema_version, has no points,
// or a field the comparison needs is missing or of the wrong type.
ReportInput read_report(std::string_view text, const std::string& file);

}  // namespace mpiwrite
