#pragma once
// The schedule of a launch: its steps (one repetition or warm-up of one point each), where
// each writes, generated one at a time. Pure.
//
// Lazily, because a launch may have up to (2 x 10^6 rounds) x points steps: a list of them
// made up front grew every rank by ~140 bytes per step (1.5 GiB at --repetitions 1000000
// --warmup 1000000 --compare -t 16). The schedule holds the point order of one round only.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/points.hpp"

namespace mpiwrite {

// One repetition (or warm-up) of one point, and where it writes.
struct Step {
  std::size_t point = 0;  // index into the points
  bool timed = false;     // false for warm-ups
  unsigned number = 0;    // 1-based among the point's timed repetitions, or its warm-ups
  bool scratch = false;   // a directory this run creates and removes
  std::string dir;        // absolute
};

// The scratch directory of a run: every step that does not write into --dir writes into its own
// subdirectory of this one directory, so a run's scratch is one entry in --dir.
std::string scratch_root_path(const std::string& dir,
                              const std::string& run_id);  // dir + "/.mpiwrite-" + run_id

// A plain run: warm-ups and repetitions in order; all but the last write into scratch
// subdirectories {w,r}<k> of the scratch root, the last into --dir (with --overwrite all into
// --dir; with -r auto none, as the last is not known in advance). -r auto schedules
// --max-repetitions rounds and the run stops at a round's end (StepRunner): the steps begun are
// the same as a schedule of fewer rounds would give, so the ledger's walk again still holds. Sweeps and comparisons: round k measures every point once, in an order shuffled by
// the seed, each step into the scratch subdirectory <label>-{w,r}<k>, so no point starts from
// another's files and drift of the machine favours no point.
class StepSchedule {
 public:
  // dir: --dir (absolute); scratch_root: scratch_root_path(dir, run_id).
  StepSchedule(const RunConfig& config, const std::vector<PointSpec>& points, std::string dir,
               std::string scratch_root, std::uint64_t seed);
  // Fills `step` with the next step (reusing its string's capacity); false after the last one.
  bool next(Step& step);
  // Whether the next step begins a round (or there is none): -r auto decides between rounds.
  bool at_round_end() const { return position_ == order_.size(); }
  unsigned rounds_begun() const { return begun_; }
  std::uint64_t size() const;  // total steps: (warmup + repetitions) * points

 private:
  std::vector<std::string> labels_;  // of the points, for their scratch names
  std::string dir_;
  std::string scratch_root_;
  unsigned warmup_ = 0;
  unsigned rounds_ = 0;
  bool auto_ = false;   // -r auto
  bool single_ = true;  // a plain run: one point, no shuffle
  bool overwrite_ = false;
  std::vector<std::size_t> order_;  // of the current round
  std::mt19937_64 random_;
  unsigned begun_ = 0;        // rounds begun; the current one is begun_ - 1
  std::size_t position_ = 0;  // in order_ of the next step; order_.size(): the round is done
};

}  // namespace mpiwrite
