#pragma once
// RunConfig: everything the user asked for, as one plain value. Built by the CLI on rank 0,
// validated there, then broadcast; each module receives only the slice it needs.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mpiwrite/core/file_bytes.hpp"
#include "mpiwrite/core/option_enums.hpp"
#include "mpiwrite/core/phase.hpp"

namespace mpiwrite {

// Documented limits (docs/errors.md). They keep sizes and products far from overflow.
inline constexpr std::uint64_t kMaxFiles = 1'000'000'000'000;  // 10^12
inline constexpr std::uint64_t kMaxLines = 1'000'000'000;
inline constexpr std::uint64_t kMaxFileSizeBytes = std::uint64_t{1} << 30;  // 1 GiB
inline constexpr unsigned kMaxThreads = 1024;
inline constexpr std::size_t kMaxNameBytes = 255;  // NAME_MAX on Linux file systems
inline constexpr unsigned kMaxRepetitions = 1'000'000;
inline constexpr std::uint64_t kMaxSlowDelayUs = 100'000'000;  // 100 s per file
inline constexpr unsigned kMaxTimeoutS = 7 * 24 * 3600;        // a week
inline constexpr double kMaxTimeLimitS = 7 * 24 * 3600;        // --time-limit: a week
// and at least 10 ms: a shorter limit ends a phase before its writers have started (on a
// loaded machine starting a thread alone can take that long), measuring nothing.
inline constexpr double kMinTimeLimitS = 0.01;
inline constexpr std::uint64_t kMaxSubdirectories = 1'000'000;  // of --files-per-dir, per run
inline constexpr unsigned kMaxTreeDepth = 10;  // --tree-depth (its directories count too)
inline constexpr unsigned kMaxQueueDepth = 4096;  // files in flight per thread with io_uring
// Files in flight on one rank with io_uring: --threads x --queue-depth, or --files when fewer
// (no rank has more in flight than there are files). Each costs a slot of its thread's ring,
// a fixed-file entry and a 256-byte name buffer (docs/uring.md, "Ring sizing").
inline constexpr std::uint64_t kMaxFilesInFlight = 65536;
inline constexpr unsigned kMaxShift = 1u << 30;  // --shift: ranks of the job at most
inline constexpr double kMaxProgressS = 86400;  // --progress: a day between lines at most
inline constexpr double kMinProgressS = 0.01;   // and at least 10 ms (0: off)
// --progress's two values that are not seconds: not given (the default applies), and given
// without a value (the bare option's interval applies). Both resolved by progress_settings.
inline constexpr double kProgressNotGiven = -1;
inline constexpr double kProgressBare = -2;

struct RunConfig {
  std::uint64_t files = 100;
  std::uint64_t lines = 100;
  // mdtest's workload words (docs/metrics.md, "Workload"). --files-per-rank N: `files` becomes
  // N x the world's ranks, once, on rank 0 (resolve_for_world), for every point alike.
  // --file-size BYTES: each file is the lines' text cut at BYTES (0: no write at all) instead
  // of --lines lines, written in write() calls of --write-size bytes (not given: one call).
  std::optional<std::uint64_t> files_per_rank;
  std::optional<std::uint64_t> file_size;
  std::optional<std::uint64_t> write_size;
  std::string text = "Hello, world!";
  std::string dir = "mpiwrite-data";
  std::string pattern = "write{}.txt";
  unsigned threads = 1;
  Partition partition = Partition::Block;
  WriteMode write_mode = WriteMode::Line;
  Engine engine = Engine::Posix;
  unsigned queue_depth = 1;  // --queue-depth: files in flight per thread (--engine uring only)
  bool fsync = false;
  unsigned repetitions = 1;
  unsigned warmup = 0;
  // -r auto (core/stopping_rule.hpp, docs/metrics.md "How many repetitions"): rounds of every
  // point until each point's median is `precision` precise (half-width of its 95 % interval
  // over it), after at least min_repetitions, at most max_repetitions, within max_time_s of
  // timed phases. The report's copy of `repetitions` then holds the rounds begun.
  bool auto_repetitions = false;
  double precision = 0.02;  // --precision: a fraction in (0, 1)
  unsigned min_repetitions = 6;
  unsigned max_repetitions = 1000;
  double max_time_s = 60;
  // --equivalence D: two points are equivalent when the 95 % interval of the ratio of their
  // medians lies inside [1 - D, 1 + D]; a faster one must be beyond D (verdict.hpp).
  double equivalence = 0.02;
  bool overwrite = false;
  bool cleanup = false;
  Format format = Format::Table;
  std::string output;  // empty: the report goes to standard output only
  // --json, --csv, --markdown FILE: the report in that format too (empty: not written);
  // core/report_outputs.hpp derives the list of files from these and `output`.
  std::string json_output;
  std::string csv_output;
  std::string markdown_output;
  bool per_rank = false;
  bool wide = false;  // --wide: the table keeps every column (the default fits 100 / 120)
  bool dry_run = false;

  // Sweeps and comparisons (docs/metrics.md, "Points").
  std::vector<unsigned> sweep_threads;  // --sweep-threads: one point per thread count
  bool compare = false;                 // --compare: processes vs threads vs hybrid
  unsigned max_concurrency = 0;         // --compare limit; 0: ranks x --threads
  // --seed: shuffles the order of points; not given: from the clock. Every value, 0 too, is
  // a seed of its own (0 once meant "the clock").
  std::optional<std::uint64_t> seed;

  std::uint64_t chunk = 8;  // --chunk: files per hand-out with --partition dynamic

  bool verify = false;     // --verify: read every file back after each timed write phase
  unsigned timeout_s = 0;  // --timeout: a rank whose phase runs longer aborts the job; 0: none
  // --time-limit and --wear-out (docs/metrics.md "Time-limited write phases"): a writer
  // takes no new file once its rank's write phase has run this long (0: no limit); with
  // wear_out every writer then goes on to the largest count any writer of the point reached.
  double time_limit_s = 0;
  bool wear_out = false;

  // --layout and --files-per-dir (core/directory_layout.hpp): where the files live. A list:
  // every point is measured in each layout, in this order (points.hpp); more than one only
  // in a sweep or comparison. No duplicates (the command line drops them). --files-per-dir
  // is one value for every layout.
  std::vector<Layout> layouts{Layout::Shared};
  std::uint64_t files_per_dir = 0;  // 0: no subdirectories
  // --tree-depth and --branch (mdtest -z, -b): a tree of tree_depth levels of `branch`
  // subdirectories below every layout directory, files in its leaves. 0: no tree.
  unsigned tree_depth = 0;
  std::uint64_t branch = 1;  // mdtest's default too

  // --phases (core/phase.hpp): what each repetition times, in kAllPhases' order; the write
  // phase always. --shift: the stat and read phases of rank r go to the files of rank
  // (r + shift) mod ranks of the point (mdtest -N), so no rank reads what its own client cache
  // holds; 0: its own. --random-order: each rank takes those files in a shuffled order, seeded
  // from the run's seed (mdtest -R).
  std::vector<Phase> phases{Phase::Write};  // each once, in kAllPhases' order
  unsigned shift = 1;
  bool random_order = false;

  // Test and demonstration aid: these ranks sleep slow_delay_us after every file.
  std::vector<int> slow_ranks;
  std::uint64_t slow_delay_us = 1000;

  // --progress[=SECONDS] and --progress-style: live progress on rank 0's standard error
  // (core/progress_line.hpp). Seconds between lines, 0: off, or one of kProgressNotGiven and
  // kProgressBare. Not in the report: progress changes nothing that is measured.
  double progress_s = kProgressNotGiven;
  ProgressStyle progress_style = ProgressStyle::Auto;

  // Bytes in one line (`text` followed by '\n'), in one file, and in one write() call (the
  // last of a file may be shorter); write() calls per file (0 for an empty file).
  std::uint64_t line_bytes() const { return text.size() + 1; }
  FileBytes bytes() const {
    return file_bytes_of(lines, line_bytes(), write_mode, file_size, write_size);
  }
  std::uint64_t file_size_bytes() const { return bytes().file; }
  std::uint64_t write_size_bytes() const { return bytes().write; }
  std::uint64_t writes_per_file() const { return bytes().writes(); }
  // Whether --phases has `phase`: for the rules on the configuration itself (validation, the
  // option dependencies). The run asks RunState::phases, the set derived once from `phases`.
  // The timed rounds the schedule may run: -r, or -r auto's most.
  unsigned rounds_asked() const { return auto_repetitions ? max_repetitions : repetitions; }
  bool runs(Phase phase) const {
    for (Phase p : phases) {
      if (p == phase) return true;
    }
    return false;
  }
};

// Throws UsageError naming the first offending option. Values that CLI11 already range-checks
// are checked again here, so a RunConfig built in code is held to the same rules.
void validate(const RunConfig& config);
// The rules that need the number of ranks (known on rank 0 after MPI starts).
void validate_for_world(const RunConfig& config, int ranks);
// What needs the number of ranks, filled in once on rank 0 before the broadcast:
// --files-per-rank N sets `files` to N x ranks. Then validate() (its rules on `files`) and
// validate_for_world(). Throws UsageError.
void resolve_for_world(RunConfig& config, int ranks);

}  // namespace mpiwrite
