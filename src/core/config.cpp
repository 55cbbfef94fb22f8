#include "mpiwrite/core/config.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/option_dependencies.hpp"
#include "mpiwrite/core/points.hpp"

namespace mpiwrite {

namespace {

void require(bool condition, const std::string& message) {
  if (!condition) throw UsageError(message);
}

// --layout and --files-per-dir (core/directory_layout.hpp).
void validate_layout(const RunConfig& c) {
  require(c.files_per_dir <= kMaxFiles,
          fmt::format("--files-per-dir must be between 1 and {}", kMaxFiles));
  // Each rank lists the directories it makes (and the dry run prints them): a bound keeps that
  // list, and the time to make the tree, to what a run can use.
  if (c.files_per_dir > 0) {
    const std::uint64_t buckets = c.files / c.files_per_dir + (c.files % c.files_per_dir != 0);
    require(buckets <= kMaxSubdirectories,
            fmt::format("--files-per-dir {} with --files {} makes {} subdirectories; at most {} "
                        "(pass a larger --files-per-dir)",
                        c.files_per_dir, c.files, buckets, kMaxSubdirectories));
  }
  // --tree-depth and --branch: one tree's bound here, all the trees' with the ranks (below).
  require(c.tree_depth <= kMaxTreeDepth,
          fmt::format("--tree-depth must be between 0 and {}", kMaxTreeDepth));
  require(c.branch >= 1 && c.branch <= kMaxSubdirectories,
          fmt::format("--branch must be between 1 and {}", kMaxSubdirectories));
  const std::uint64_t tree = tree_directories(c.tree_depth, c.branch);
  require(tree <= kMaxSubdirectories,
          fmt::format("--tree-depth {} --branch {} makes {} directories in each tree; at most {} "
                      "(lower --tree-depth or --branch)",
                      c.tree_depth, c.branch,
                      tree == std::numeric_limits<std::uint64_t>::max() ? "over 10^19"
                                                                        : std::to_string(tree),
                      kMaxSubdirectories));
  require(!c.layouts.empty(), "--layout needs at least one of shared, rank, thread");
  for (std::size_t i = 0; i < c.layouts.size(); ++i) {
    require(std::find(c.layouts.begin(), c.layouts.begin() + static_cast<std::ptrdiff_t>(i),
                      c.layouts[i]) == c.layouts.begin() + static_cast<std::ptrdiff_t>(i),
            fmt::format("--layout names {} twice", to_string(c.layouts[i])));
  }
  // Any layout but shared: a sweep or comparison shares one --partition across its layouts.
  const bool per_writer =
      std::any_of(c.layouts.begin(), c.layouts.end(), [](Layout l) { return l != Layout::Shared; });
  require(!per_writer || c.partition != Partition::Dynamic,
          "--layout rank and --layout thread need --partition block or cyclic: with dynamic a "
          "file's directory would depend on which rank or thread took it");
  // A plain run is one point, so one layout; several are points side by side.
  require(c.layouts.size() == 1 || c.compare || !c.sweep_threads.empty(),
          "--layout with more than one layout needs --compare or --sweep-threads: each layout "
          "is a point of its own, and a plain run measures one point");
}

// --phases (docs/metrics.md, "Phases"): every later phase works on what the write phase of
// the same repetition created, and the tree goes only once its files have.
void validate_phases(const RunConfig& c) {
  require(c.runs(Phase::Write),
          "--phases must include write: every other phase works on the files the write phase "
          "of the same repetition created");
  require(c.shift <= kMaxShift, fmt::format("--shift must be between 0 and {}", kMaxShift));
  if ((c.runs(Phase::TreeCreate) || c.runs(Phase::TreeRemove)) && !has_layout_directories(c)) {
    throw UsageError(
        "--phases tree-create and tree-remove need directories to make: --layout rank or "
        "thread, or --files-per-dir");
  }
  require(!c.runs(Phase::TreeRemove) || c.runs(Phase::Remove),
          "--phases tree-remove needs remove: a directory goes only once its files have");
  require(!c.runs(Phase::Remove) || !c.overwrite,
          "--phases remove and --overwrite cannot be combined: --overwrite rewrites the files of "
          "the repetition before, which remove has removed");
}

// --time-limit and --wear-out (docs/metrics.md "Time-limited write phases").
void validate_time_limit(const RunConfig& c) {
  const double s = c.time_limit_s;
  require(std::isfinite(s) && (s == 0 || (s >= kMinTimeLimitS && s <= kMaxTimeLimitS)),
          fmt::format("--time-limit must be a number of seconds from {} to {:.0f}", kMinTimeLimitS,
                      kMaxTimeLimitS));
  if (c.time_limit_s == 0) return;  // --wear-out without it: option_dependencies.cpp
  // With --overwrite every repetition rewrites the files of the one before: after a limited
  // one, the names on disk would be the longest repetition's, not what the last one wrote.
  require(!c.overwrite,
          "--time-limit and --overwrite cannot be combined: a limited repetition "
          "would leave files of an earlier, longer one looking like its own");
  require(!(c.wear_out && c.partition == Partition::Dynamic),
          "--wear-out needs --partition block or cyclic: with dynamic no writer has a share "
          "of its own to go on in (who writes which file is decided while writing)");
  require(c.timeout_s == 0 || c.timeout_s > c.time_limit_s,
          fmt::format("--timeout {} must be longer than --time-limit {:g}: the watchdog would end "
                      "every limited phase",
                      c.timeout_s, c.time_limit_s));
}

// How many layout directories of `point` hold a file, and so get a tree: every rank's with the
// rank layout, every writer thread's with the thread layout (block and cyclic alike give
// files to min(count, parts) of the parts), the run directory with the shared one.
std::uint64_t trees_of(const RunConfig& c, const PointSpec& point) {
  const auto ranks = static_cast<std::uint64_t>(point.ranks);
  switch (point.layout) {
    case Layout::Shared:
      return 1;
    case Layout::Rank:
      return std::min(ranks, c.files);
    case Layout::Thread: {
      const std::uint64_t each = c.files / ranks, more = c.files % ranks;
      return more * std::min<std::uint64_t>(each + 1, point.threads) +
             (ranks - more) * std::min<std::uint64_t>(each, point.threads);
    }
  }
  return 1;
}

// The trees of a point together, as --files-per-dir's subdirectories: at most
// kMaxSubdirectories (each rank lists what it makes; the dry run prints it).
void validate_trees(const RunConfig& c, int ranks) {
  if (c.tree_depth == 0) return;
  const std::uint64_t tree = tree_directories(c.tree_depth, c.branch);  // bounded in validate
  for (const PointSpec& point : make_points(c, ranks)) {
    const std::uint64_t trees = trees_of(c, point);
    require(trees * tree <= kMaxSubdirectories,
            fmt::format("--tree-depth {} --branch {} makes {} directories: a tree of {} below "
                        "each of {} layout directories (--layout {}, {} x {}); at most {} "
                        "(lower --tree-depth or --branch)",
                        c.tree_depth, c.branch, trees * tree, tree, trees,
                        to_string(point.layout), point.ranks, point.threads,
                        kMaxSubdirectories));
  }
}

// --files-per-rank, --file-size and --write-size (which options they exclude: the table of
// option_dependencies.cpp).
void validate_workload_words(const RunConfig& c) {
  require(!c.files_per_rank || (*c.files_per_rank >= 1 && *c.files_per_rank <= kMaxFiles),
          fmt::format("--files-per-rank must be between 1 and {}", kMaxFiles));
  require(!c.file_size || *c.file_size <= kMaxFileSizeBytes,
          fmt::format("--file-size must be at most {} bytes (1G)", kMaxFileSizeBytes));
  require(!c.write_size || (*c.write_size >= 1 && *c.write_size <= kMaxFileSizeBytes),
          fmt::format("--write-size must be between 1 and {} bytes (1G)", kMaxFileSizeBytes));
}

}  // namespace

void validate(const RunConfig& c) {
  require(c.files >= 1 && c.files <= kMaxFiles,
          fmt::format("--files must be between 1 and {}", kMaxFiles));
  require(c.lines >= 1 && c.lines <= kMaxLines,
          fmt::format("--lines must be between 1 and {}", kMaxLines));
  require(!c.text.empty(), "--text must not be empty");
  require(c.text.find('\n') == std::string::npos && c.text.find('\0') == std::string::npos,
          "--text must not contain a newline or NUL (mpiwrite adds the newline)");
  require(c.text.size() < kMaxFileSizeBytes && c.lines * c.line_bytes() <= kMaxFileSizeBytes,
          fmt::format("--lines x (length of --text + 1) must be at most {} bytes per file",
                      kMaxFileSizeBytes));
  validate_workload_words(c);
  require(!c.dir.empty(), "--dir must not be empty");
  validate_phases(c);
  const FilePattern pattern = parse_pattern(c.pattern);  // throws UsageError with its own message
  const std::size_t longest_name =
      pattern.prefix.size() + std::to_string(c.files).size() + pattern.suffix.size();
  require(longest_name <= kMaxNameBytes,
          fmt::format("--pattern gives names of up to {} bytes; file names are limited to {}",
                      longest_name, kMaxNameBytes));
  require(c.threads >= 1 && c.threads <= kMaxThreads,
          fmt::format("--threads must be between 1 and {}", kMaxThreads));
  require(c.repetitions >= 1 && c.repetitions <= kMaxRepetitions,
          fmt::format("--repetitions must be between 1 and {}", kMaxRepetitions));
  require(!c.auto_repetitions || c.min_repetitions <= c.max_repetitions,
          fmt::format("--min-repetitions {} is more than --max-repetitions {}", c.min_repetitions,
                      c.max_repetitions));
  require(c.warmup <= kMaxRepetitions,
          fmt::format("--warmup must be between 0 and {}", kMaxRepetitions));
  require(!(c.dry_run && !c.output.empty()), "--dry-run and --output cannot be combined");
  for (const auto& [option, file] : {std::pair{"--json", &c.json_output},
                                     std::pair{"--csv", &c.csv_output},
                                     std::pair{"--markdown", &c.markdown_output}}) {
    require(!(c.dry_run && !file->empty()),
            fmt::format("--dry-run and {} cannot be combined (a dry run writes no report)",
                        option));
  }
  require(!(c.compare && !c.sweep_threads.empty()),
          "--compare and --sweep-threads cannot be combined");
  for (unsigned t : c.sweep_threads) {
    require(t >= 1 && t <= kMaxThreads,
            fmt::format("--sweep-threads: every count must be between 1 and {}", kMaxThreads));
  }
  require(c.max_concurrency <= kMaxThreads * 1024u,
          fmt::format("--max-concurrency must be at most {}", kMaxThreads * 1024u));
  require(c.chunk >= 1 && c.chunk <= kMaxFiles, "--chunk must be at least 1");
  require(c.queue_depth >= 1 && c.queue_depth <= kMaxQueueDepth,
          fmt::format("--queue-depth must be between 1 and {}", kMaxQueueDepth));
  // A sweep's largest thread count is its widest point.
  const unsigned widest =
      std::max(c.threads, c.sweep_threads.empty()
                              ? 1u
                              : *std::max_element(c.sweep_threads.begin(), c.sweep_threads.end()));
  const std::uint64_t in_flight =
      std::min<std::uint64_t>(std::uint64_t{widest} * c.queue_depth, c.files);
  require(c.engine != Engine::Uring || in_flight <= kMaxFilesInFlight,
          fmt::format("{} threads x --queue-depth {} keep {} files in flight on a rank; at most "
                      "{} (each holds a ring slot, a fixed file and a name buffer): lower "
                      "--threads or --queue-depth",
                      widest, c.queue_depth, in_flight, kMaxFilesInFlight));
  require(c.timeout_s <= kMaxTimeoutS, fmt::format("--timeout must be at most {}", kMaxTimeoutS));
  validate_time_limit(c);
  require(c.slow_delay_us <= kMaxSlowDelayUs,
          fmt::format("--slow-delay-us must be at most {}", kMaxSlowDelayUs));
  const double p = c.progress_s;
  require(p == kProgressNotGiven || p == kProgressBare || p == 0 ||
              (p >= kMinProgressS && p <= kMaxProgressS),
          fmt::format("--progress must be 0 (off) or between {} and {} seconds", kMinProgressS,
                      kMaxProgressS));
  validate_layout(c);
  // Last: an option that would do nothing is refused once the values themselves are good.
  check_option_dependencies(c);
}

void validate_for_world(const RunConfig& c, int ranks) {
  // 1 is the default, also with one rank (which then stats and reads its own files).
  require(c.shift < static_cast<unsigned>(ranks) || (c.shift == 1 && ranks == 1),
          fmt::format("--shift {} with {} rank{}: rank r takes the files of rank (r + {}) mod {}; "
                      "give 0 to {}",
                      c.shift, ranks, ranks == 1 ? "" : "s", c.shift, ranks, ranks - 1));
  validate_trees(c, ranks);
  for (int rank : c.slow_ranks) {
    require(
        rank >= 0 && rank < ranks,
        fmt::format("--slow-rank {} does not exist: the job has ranks 0 to {}", rank, ranks - 1));
  }
  if (c.compare) {
    // compare_points (points.cpp) runs 1 rank x c threads for every power of two c up to the
    // limit, so the largest such c is what must fit one rank's threads. Hybrids (t = c / p,
    // p >= 2) and async points (1 thread, queue depth c <= 1024 < kMaxQueueDepth) then fit too.
    const bool given = c.max_concurrency != 0;
    const std::uint64_t limit =
        given ? c.max_concurrency : static_cast<std::uint64_t>(ranks) * c.threads;
    std::uint64_t largest = 1;
    while (largest * 2 <= limit) largest *= 2;
    require(
        largest <= kMaxThreads,
        fmt::format("--compare up to concurrency {}{} would run a 1 rank x {} threads point, "
                    "over the cap of {} threads per rank (every c = 2, 4, ... up to the limit "
                    "runs as 1 rank x c threads); pass --max-concurrency {} or less",
                    limit, given ? "" : fmt::format(" ({} ranks x --threads {})", ranks, c.threads),
                    largest, kMaxThreads, kMaxThreads));
  }
  // How many points a comparison has depends on the ranks (validate() cannot know): one point
  // has no order for --seed to shuffle, as a plain run has none.
  if (c.seed && c.compare && !c.random_order) {
    const std::size_t points = make_points(c, ranks).size();
    require(points > 1, fmt::format("--seed needs more than one point to order, and this "
                                    "--compare on {} rank{} has {}: drop --seed, or raise "
                                    "--max-concurrency",
                                    ranks, ranks == 1 ? "" : "s", points));
  }
}

void resolve_for_world(RunConfig& c, int ranks) {
  if (c.files_per_rank) {
    // Checked before the product is formed: N x ranks must not wrap around.
    const std::uint64_t n = *c.files_per_rank;
    const auto world = static_cast<std::uint64_t>(ranks);
    require(n <= kMaxFiles / world,
            fmt::format("--files-per-rank {} x {} rank{} is more than {} files: pass at most {}", n,
                        ranks, ranks == 1 ? "" : "s", kMaxFiles, kMaxFiles / world));
    c.files = n * world;
    validate(c);  // again: its rules on the number of files (names, subdirectories, rings)
  }
  validate_for_world(c, ranks);
}

}  // namespace mpiwrite
