#pragma once
// Points: the (ranks x threads) configurations one launch measures, and the schedule of steps
// (one repetition of one point each) that measures them. Pure.
//
// A plain run is one point: every rank, --threads each. --sweep-threads gives one point per
// thread count on every rank. --compare gives, for each total concurrency c = 1, 2, 4, ...:
// processes (c ranks x 1 thread, c <= ranks), threads (1 rank x c threads) and hybrids
// (p ranks x t threads, p * t = c, p > 1, t > 1); with --engine uring also async (1 rank x 1
// thread x queue depth c, the uring engine), while the others use the posix engine. A point
// with p ranks runs on ranks 0..p-1.

#include <cstdint>
#include <string>
#include <vector>

#include "mpiwrite/config.hpp"

namespace mpiwrite {

enum class RunKind { Run, Sweep, Compare };
enum class PointMode { Run, Sweep, Processes, Threads, Hybrid, Async };

std::string_view to_string(RunKind kind);
std::string_view to_string(PointMode mode);

struct PointSpec {
  int ranks = 1;
  unsigned threads = 1;
  PointMode mode = PointMode::Run;
  Engine engine = Engine::Posix;
  unsigned queue_depth = 1;  // files in flight per thread (uring)

  // Files in flight at once.
  std::uint64_t concurrency() const {
    return static_cast<std::uint64_t>(ranks) * threads * queue_depth;
  }
  std::string label() const;  // "4x2": ranks x threads; "1x1q8" with the uring engine
  bool operator==(const PointSpec&) const = default;
};

RunKind run_kind(const RunConfig& config);

// Precondition: validate() and validate_for_world() accepted config.
std::vector<PointSpec> make_points(const RunConfig& config, int world_ranks);

// One repetition (or warm-up) of one point, and where it writes.
struct Step {
  std::size_t point = 0;  // index into the points
  bool timed = false;     // false for warm-ups
  unsigned number = 0;    // 1-based among the point's timed repetitions, or its warm-ups
  bool scratch = false;   // a directory this run creates and removes
  std::string dir;        // absolute
};

// A plain run: warm-ups and repetitions in order; all but the last write into scratch
// directories DIR/.mpiwrite-<run id>-{w,r}<k>, the last into DIR (unless --overwrite: all
// into DIR). Sweeps and comparisons: round k measures every point once, in an order shuffled
// by `seed`, each step into its own scratch directory DIR/.mpiwrite-<run id>-<label>-{w,r}<k>,
// so no point starts from another's files and drift of the machine favours no point.
std::vector<Step> plan_steps(const RunConfig& config, const std::vector<PointSpec>& points,
                             const std::string& dir, const std::string& run_id,
                             std::uint64_t seed);

}  // namespace mpiwrite
