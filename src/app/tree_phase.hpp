#pragma once
// The tree-create and tree-remove phases of one step (--phases): each rank's writer threads
// make (or remove, deepest level first) the rank's directories of the point's layout, a level
// per pool round, timed as the write phase is; rate = directories / makespan. Without
// tree-create the directories are made untimed before the write phase, as they always were
// (steps.cpp). One value per phase of a step, run by timed_phase.

#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "phase_agreement.hpp"
#include "phase_progress.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

struct TreeOutcome {
  bool ok = false;                      // every rank of the world succeeded
  std::optional<PhaseFigures> figures;  // rank 0, for a timed step
  std::vector<std::string> done;        // this rank's directories made (or removed)
};

class TreePhase final : public TimedPhase {
 public:
  // `phase`: TreeCreate or TreeRemove. The point's layout is not flat.
  TreePhase(const RunState& run, PhaseAgreement& phases, PointHandles& h, const Step& step,
            Phase phase);

  TreeOutcome run();

  void before() override;
  void work(std::string& failure) override;
  void after(const PhaseClock& clock, std::string& failure) override;

 private:
  const RunState& run_;
  PhaseAgreement& phases_;
  PointHandles& h_;
  const Step& step_;
  const Phase phase_;
  std::vector<std::vector<std::string>> levels_;
  std::uint64_t items_ = 0;
  ThreadPool::Poll poll_;
  std::chrono::microseconds poll_every_{50};
  std::optional<PhaseProgress> live_;
  SliceResult result_;
  TreeOutcome outcome_;
};

// `directories` (parents before children, relative paths) grouped by depth, the order kept
// within each: level k holds the paths of k + 1 components. Pure.
std::vector<std::vector<std::string>> directory_levels(const std::vector<std::string>& directories);

}  // namespace mpiwrite
