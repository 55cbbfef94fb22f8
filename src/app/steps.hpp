#pragma once
// The steps of a run: every repetition of every point in the schedule's order, each a timed
// write phase (write_phase.hpp), with --verify a timed read-back phase (verify_phase.hpp), and
// the other phases --phases asks for (tree_phase.hpp, files_phase.hpp), in their order.
// Ranks outside a step's point wait at its phase boundaries. What each step creates is
// recorded in the run's creation ledger (RunState::ledger), and only recorded.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/sys/verify.hpp"
#include "phase_agreement.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

class StepRunner {
 public:
  StepRunner(RunState& run, PhaseAgreement& phases, PointResources& resources, RunReport& report);

  // Every step until the last, a failure (false) or a signal (run.interrupted). Rank 0's
  // report gets the timed repetitions and their summary.
  bool run_all();

 private:
  std::optional<StoppedBy> enough_rounds(unsigned rounds);
  bool make_step_directory(const Step& step);
  void make_scratch_directory(const std::string& dir);
  bool hold_scratch_root();
  bool run_step(const Step& step);
  void begin_part(const Step& step, std::string phase);
  bool make_layout(const Step& step, PointHandles& h, std::vector<PhaseFigures>& later);
  bool time_tree_create(const Step& step, PointHandles& h, std::vector<PhaseFigures>& later);
  bool run_later_phases(const Step& step, PointHandles& h, const CreatedFiles* records,
                        std::vector<PhaseFigures>& later);
  void make_layout_directories(const Step& step, const PointHandles& h);
  bool open_directories(const Step& step, PointHandles& h, bool exclusive);
  bool verify(const Step& step, PointHandles& h, const CreatedFiles* records,
              std::optional<RepetitionFigures>& figures);

  RunState& run_;
  PhaseAgreement& phases_;
  PointResources& resources_;
  RunReport& report_;
  std::unique_ptr<FileVerifier> verifier_;  // with --verify
};

}  // namespace mpiwrite
