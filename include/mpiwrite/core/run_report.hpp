#pragma once
// RunReport: everything rank 0 knows at the end of a run, as plain data for the reporters.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/comparison.hpp"
#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/host_figures.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/stopping_rule.hpp"

namespace mpiwrite {

// 3: unmeasured figures are null, cleanup.in_background. 4: the makespan from a common start,
// intervals, tests and warnings (docs/metrics.md, "JSON"; docs/report.schema.json). 5: one
// type per key, for pandas.json_normalize: the lists once named `ranks` are `per_rank` (a
// repetition's rank figures) and `rank_ids` (a host's ranks).
inline constexpr int kJsonSchemaVersion = 5;

struct RunContext {
  std::string mpiwrite_version;
  int ranks = 1;
  unsigned threads = 1;
  std::vector<HostRanks> hosts;  // in order of first rank
  std::string mpi_library;
  std::string directory;  // absolute
  std::string filesystem;
  std::string started_utc;         // ISO 8601
  std::vector<int> cpus_of_rank;   // CPUs each rank may run on (its affinity mask)
  bool private_fd_tables = true;   // rank 0's writer threads got private descriptor tables
  std::vector<long> peak_rss_kib;  // every rank's peak resident set size at the end
  // Per rank: 1 the launcher (mpirun) bound it to CPUs, 0 it did not (--bind-to none), -1
  // unknown. Empty: unknown for every rank. It decides which advice fits too few CPUs.
  std::vector<int> bound_by_launcher;
  // The ranks' kernels, each with its own monotonic clock; with more than one, the bound on
  // the error of the measured offsets between them (common_clock.hpp).
  int clock_domains = 1;
  double clock_offset_error_s = 0;
  double clock_largest_offset_s = 0;
};

struct CleanupFigures {
  bool ran = false;
  double elapsed_s = 0;  // slowest rank, steady_clock, after a barrier
  std::uint64_t files_removed = 0;
  // Interrupted: the scratch directory was handed to a background process after the report.
  bool in_background = false;
  // Something could not be removed (the errors were printed): what is left stays.
  bool failed = false;
};

// Where a signal stopped the run (docs/metrics.md, "Interruption"): the part of a step under
// way, which the report discards, or the run's final removal.
struct InterruptedIn {
  // A phase's name (phase_name: tree-create, write, stat, read, remove, tree-remove), or
  // "layout" (the untimed making of the layout's directories before the write phase),
  // "verify" (--verify's own phase) or "removal" (the final removal, of no step).
  std::string phase;
  std::string point;        // its point's label; empty for the removal
  bool warmup = false;      // the step was a warm-up
  unsigned repetition = 0;  // 1-based among the point's timed repetitions, or its warm-ups
};

struct RunReport {
  RunConfig config;
  RunContext context;
  RunKind kind = RunKind::Run;
  std::uint64_t seed = 0;                 // the order of points (sweeps and comparisons)
  std::vector<PointReport> points;        // a plain run has exactly one
  std::vector<ComparisonRow> comparison;  // --compare only
  CleanupFigures cleanup;
  int interrupted_by = 0;  // SIGINT or SIGTERM stopped the run; 0: it ran to the end
  // With interrupted_by: what was under way. Empty: the signal came between two steps (or
  // before the first), when nothing was cut.
  std::optional<InterruptedIn> interrupted_in;
  // Why the repetitions ended (every point's summary.stopped_by): Fixed for a numeric -r.
  StoppedBy stopped_by = StoppedBy::Fixed;
  // About the run's statistics as a whole (comparison_warnings); each point has its own.
  std::vector<std::string> warnings;
  // An interrupted run without -o also saves its report here (DIR/mpiwrite-interrupted-<run
  // id>.<format>): after its signal the launcher may stop forwarding standard output.
  std::string saved_copy;
};

// The statistics of every point (with its rates and, from context.hosts, its hosts), the
// comparison rows (--compare) and the run's warnings, from the repetitions; the bootstrap is
// seeded with report.seed. Every figure a reporter prints is computed here. Pure.
void summarize_report(RunReport& report);

// -r auto, after `rounds` timed rounds of every point: why to stop, or empty to go on
// (should_stop over each point's compared times and the seconds of the timed phases so far).
std::optional<StoppedBy> stop_repeating(const RunConfig& config,
                                        const std::vector<PointReport>& points, unsigned rounds);
// -r auto: the worst precision of any point and the seconds of the budget left, for
// --progress: "precision 3.1% (goal 2%), 41 s of 60 s left".
std::string auto_progress_note(const RunConfig& config, const std::vector<PointReport>& points);

// The rank with the largest peak resident set size and that size in MiB; none when unknown.
struct PeakMemory {
  int rank = 0;
  double mib = 0;
};
std::optional<PeakMemory> largest_peak_rss(const RunContext& context);

// "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signal);

// Warnings about the setup that make figures misleading, e.g. more writer threads than the CPUs
// a rank is bound to (mpirun binds each rank to one core by default).
std::vector<std::string> setup_warnings(const RunContext& context);

}  // namespace mpiwrite
