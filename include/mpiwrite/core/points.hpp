#pragma once
// Points: the (ranks x threads) configurations one launch measures (schedule.hpp orders their
// steps). Pure.
//
// A plain run is one point: every rank, --threads each. --sweep-threads gives one point per
// thread count on every rank. --compare gives, for each total concurrency c = 1, 2, 4, ...:
// processes (c ranks x 1 thread, c <= ranks), threads (1 rank x c threads) and hybrids
// (p ranks x t threads, p * t = c, p > 1, t > 1); with --engine uring also async (1 rank x 1
// thread x queue depth c, the uring engine), while the others use the posix engine. A point
// with p ranks runs on ranks 0..p-1.
//
// Every point has a directory layout (--layout): with several, the points above are made for
// each layout in turn, in the order given (layout-major), so points.front() -- the baseline
// of every speedup -- is the first point of the first layout, and speedups across layouts
// compare to that one baseline.

#include <cstdint>
#include <string>
#include <vector>

#include "mpiwrite/core/config.hpp"

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
  Layout layout = Layout::Shared;

  // Files in flight at once.
  std::uint64_t concurrency() const {
    return static_cast<std::uint64_t>(ranks) * threads * queue_depth;
  }
  // "4x2": ranks x threads; "1x1q8" with the uring engine; "4x2-rank", "1x1q8-thread" in a
  // layout other than shared. Labels name scratch directories: never a '/'.
  std::string label() const;
  bool operator==(const PointSpec&) const = default;
};

RunKind run_kind(const RunConfig& config);

// Precondition: validate() and validate_for_world() accepted config.
std::vector<PointSpec> make_points(const RunConfig& config, int world_ranks);
// Not a measured point: every rank of the world with --threads, the point removal plans by
// (each rank removes its block of the run's names, whichever point wrote them).
PointSpec world_point(const RunConfig& config, int world_ranks);

}  // namespace mpiwrite
