#pragma once
// The tree-create and tree-remove phases of one step (--phases): each rank's writer threads
// make (or remove, deepest level first) the rank's directories of the point's layout, a level
// per pool round, timed as the write phase is; rate = directories / makespan. Without
// tree-create the directories are made untimed before the write phase, as they always were
// (steps.cpp). One value per phase of a step, run by timed_phase; what it shares with the
// stat, read and remove phases is ItemsPhase's.

#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/core/tree_progress.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "items_phase.hpp"
#include "phase_agreement.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

struct TreeOutcome {
  bool ok = false;                      // every rank of the world succeeded
  std::optional<PhaseFigures> figures;  // rank 0, for a timed step
  std::vector<std::string> made;        // tree-create: this rank's directories made
};

class TreePhase final : public ItemsPhase {
 public:
  // `phase`: TreeCreate or TreeRemove. The point's layout is not flat.
  TreePhase(const RunState& run, PhaseAgreement& phases, PointHandles& h, const Step& step,
            Phase phase);

  // Untimed first: this rank's directories, level by level, and the writer's target opened;
  // then the phase.
  TreeOutcome run();

  void work(std::string& failure) override;

 private:
  void set_up(std::string& failure);

  std::vector<std::vector<std::string>> levels_;
  TreeProgress done_;  // which of levels_ this rank made (or removed)
};

}  // namespace mpiwrite
