// Which option needs which (option_dependencies.hpp).
#include "mpiwrite/core/option_dependencies.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {

namespace {

const RunConfig kDefaults{};

bool several_points(const RunConfig& c) { return c.compare || !c.sweep_threads.empty(); }

// Whether the run has points to put in an order: a comparison, or a sweep of more than one
// point (thread counts, counted once each, times layouts).
bool points_to_shuffle(const RunConfig& c) {
  if (c.compare) return true;
  std::vector<unsigned> counts = c.sweep_threads;
  std::sort(counts.begin(), counts.end());
  const auto distinct = std::unique(counts.begin(), counts.end()) - counts.begin();
  return static_cast<std::size_t>(distinct) * c.layouts.size() > 1;
}
bool writes_files(const RunConfig& c) { return c.engine != Engine::Null; }
bool sized_by_lines(const RunConfig& c) { return !c.file_size; }

// One row per (option, condition); an option with two conditions has two rows, each with the
// message for the condition it breaks.
const std::array kDependencies{
    OptionDependency{
        "--chunk", [](const RunConfig& c) { return c.chunk != kDefaults.chunk; },
        [](const RunConfig& c) { return c.partition == Partition::Dynamic; },
        "--chunk needs --partition dynamic: block and cyclic split the files up front, in no "
        "chunks"},
    OptionDependency{
        "--slow-delay-us",
        [](const RunConfig& c) { return c.slow_delay_us != kDefaults.slow_delay_us; },
        [](const RunConfig& c) { return !c.slow_ranks.empty(); },
        "--slow-delay-us needs --slow-rank: it is how long the slow ranks sleep after a file"},
    OptionDependency{
        "--max-concurrency", [](const RunConfig& c) { return c.max_concurrency != 0; },
        [](const RunConfig& c) { return c.compare; },
        "--max-concurrency needs --compare: it is the largest concurrency the comparison runs"},
    OptionDependency{
        "--seed", [](const RunConfig& c) { return c.seed.has_value(); },
        [](const RunConfig& c) { return points_to_shuffle(c) || c.random_order; },
        "--seed needs --compare or --sweep-threads with more than one point, or --random-order: "
        "it shuffles the order of the points (and of the files with --random-order), and a plain "
        "run (or a sweep of one point) has one"},
    OptionDependency{
        "--threads", [](const RunConfig& c) { return c.threads != kDefaults.threads; },
        [](const RunConfig& c) { return c.sweep_threads.empty(); },
        "--threads and --sweep-threads cannot be combined: every point of the sweep runs its "
        "own thread count"},
    OptionDependency{
        "--threads", [](const RunConfig& c) { return c.threads != kDefaults.threads; },
        [](const RunConfig& c) { return !(c.compare && c.max_concurrency != 0); },
        "--threads does nothing with --compare --max-concurrency: the comparison's points set "
        "their own threads, and --threads only sets the default concurrency (ranks x threads)"},
    OptionDependency{
        "--queue-depth", [](const RunConfig& c) { return c.queue_depth != 1; },
        [](const RunConfig& c) { return c.engine == Engine::Uring; },
        "--queue-depth needs --engine uring: the posix engine keeps one file in flight per "
        "thread (use --threads)"},
    OptionDependency{
        "--queue-depth", [](const RunConfig& c) { return c.queue_depth != 1; },
        [](const RunConfig& c) { return !c.compare; },
        "--compare chooses the queue depths itself (1, 2, 4, ... up to the concurrency); drop "
        "--queue-depth"},
    OptionDependency{
        "--write-mode", [](const RunConfig& c) { return c.write_mode != kDefaults.write_mode; },
        writes_files, "--write-mode needs --engine posix or uring: the null engine writes nothing"},
    // The workload words (config.hpp): each replaces options that would then do nothing.
    // --files' default is a value too, so only the command line knows it was given.
    OptionDependency{
        "--files", [](const RunConfig&) { return false; },
        [](const RunConfig& c) { return !c.files_per_rank; },
        "--files and --files-per-rank cannot be combined: --files-per-rank sets the files to N "
        "x the ranks"},
    OptionDependency{
        "--lines", [](const RunConfig& c) { return c.lines != kDefaults.lines; }, sized_by_lines,
        "--lines and --file-size cannot be combined: --file-size sets each file's bytes"},
    OptionDependency{
        "--text", [](const RunConfig& c) { return c.text != kDefaults.text; }, sized_by_lines,
        "--text and --file-size cannot be combined: --file-size files hold the default text, "
        "cut at the size"},
    OptionDependency{
        "--write-mode", [](const RunConfig& c) { return c.write_mode != kDefaults.write_mode; },
        sized_by_lines,
        "--write-mode and --file-size cannot be combined: with --file-size, --write-size sets "
        "the bytes of each write() call"},
    OptionDependency{
        "--write-size", [](const RunConfig& c) { return c.write_size.has_value(); },
        [](const RunConfig& c) { return c.file_size.has_value(); },
        "--write-size needs --file-size: without it a file is written a line per write() "
        "(--write-mode line) or whole"},
    OptionDependency{
        "--verify", [](const RunConfig& c) { return c.verify; }, writes_files,
        "--verify and --engine null cannot be combined: the null engine writes nothing"},
    OptionDependency{
        "--branch", [](const RunConfig& c) { return c.branch != kDefaults.branch; },
        [](const RunConfig& c) { return c.tree_depth > 0; },
        "--branch needs --tree-depth: it is how many subdirectories each level of the tree has"},
    OptionDependency{
        "--tree-depth", [](const RunConfig& c) { return c.tree_depth > 0; },
        [](const RunConfig& c) { return c.files_per_dir == 0; },
        "--tree-depth and --files-per-dir cannot be combined: both choose the subdirectories "
        "of a layout directory (a tree's leaves, or d<k> of at most N files)"},
    OptionDependency{
        "--overwrite", [](const RunConfig& c) { return c.overwrite; },
        [](const RunConfig& c) { return !several_points(c); },
        "--overwrite applies to a plain run: every point of a sweep or comparison starts from "
        "fresh files"},
    OptionDependency{"--overwrite", [](const RunConfig& c) { return c.overwrite; }, writes_files,
                     "--overwrite needs --engine posix or uring: the null engine rewrites no file"},
    OptionDependency{
        "--shift", [](const RunConfig& c) { return c.shift != kDefaults.shift; },
        [](const RunConfig& c) { return c.runs(Phase::Stat) || c.runs(Phase::Read); },
        "--shift needs --phases with stat or read: it says whose files those phases take"},
    OptionDependency{
        "--random-order", [](const RunConfig& c) { return c.random_order; },
        [](const RunConfig& c) {
          return c.runs(Phase::Stat) || c.runs(Phase::Read) ||
                 c.runs(Phase::Remove);
        },
        "--random-order needs --phases with stat, read or remove: it shuffles the order in "
        "which those phases take the files (the write phase keeps --partition's)"},
    OptionDependency{
        "--wear-out", [](const RunConfig& c) { return c.wear_out; },
        [](const RunConfig& c) { return c.time_limit_s > 0; },
        "--wear-out needs --time-limit: it says how far every writer goes on after the limit"},
    OptionDependency{
        "--per-rank", [](const RunConfig& c) { return c.per_rank; },
        [](const RunConfig& c) { return c.format != Format::Json; },
        "--per-rank needs --format table, markdown or csv: the JSON report always has every "
        "rank's figures"},
    OptionDependency{
        "--precision", [](const RunConfig&) { return false; },
        [](const RunConfig& c) { return c.auto_repetitions; },
        "--precision needs -r auto: it is the precision at which it stops"},
    OptionDependency{
        "--min-repetitions", [](const RunConfig&) { return false; },
        [](const RunConfig& c) { return c.auto_repetitions; },
        "--min-repetitions needs -r auto: it is the fewest it runs"},
    OptionDependency{
        "--max-repetitions", [](const RunConfig&) { return false; },
        [](const RunConfig& c) { return c.auto_repetitions; },
        "--max-repetitions needs -r auto: it is the most it runs"},
    OptionDependency{
        "--max-time", [](const RunConfig&) { return false; },
        [](const RunConfig& c) { return c.auto_repetitions; },
        "--max-time needs -r auto: it is the seconds of timed phases it may spend"},
    OptionDependency{
        "--equivalence", [](const RunConfig& c) { return c.equivalence != kDefaults.equivalence; },
        [](const RunConfig& c) { return c.compare; },
        "--equivalence needs --compare: only a comparison gives a verdict"},
    OptionDependency{
        "--wide", [](const RunConfig& c) { return c.wide; },
        [](const RunConfig& c) { return c.format == Format::Table; },
        "--wide needs --format table: markdown, CSV and JSON always have every column"},
    OptionDependency{
        "--progress-style",
        [](const RunConfig& c) { return c.progress_style != kDefaults.progress_style; },
        [](const RunConfig& c) {
          // Not given, progress is off with a JSON report (progress_settings), whatever stderr is.
          const bool off_by_default = c.progress_s == kProgressNotGiven && c.format == Format::Json;
          return c.progress_s != 0 && !off_by_default;
        },
        "--progress-style needs progress: --progress 0 turns it off, and so does --format json "
        "without --progress"},
};

}  // namespace

std::span<const OptionDependency> option_dependencies() { return kDependencies; }

void check_option_dependencies(const RunConfig& config,
                               const std::function<bool(std::string_view)>& named) {
  for (const OptionDependency& row : kDependencies) {
    const bool given = row.given(config) || (named && named(row.option));
    if (given && !row.has_effect(config)) throw UsageError(std::string(row.message));
  }
}

}  // namespace mpiwrite
