#pragma once
// The steps of a run: every repetition of every point in the schedule's order, each a timed
// write phase and, with --verify, a timed read-back phase. Ranks outside a step's point wait
// at its phase boundaries.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/sys/verify.hpp"
#include "phase_agreement.hpp"
#include "phase_progress.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

class StepRunner {
 public:
  StepRunner(RunState& run, PhaseAgreement& phases, PointResources& resources,
             RunReport& report);

  // Every step until the last, a failure (false) or a signal (run.interrupted). Rank 0's
  // report gets the timed repetitions and their summary.
  bool run_all();

 private:
  void make_scratch_directory(const std::string& dir);
  bool hold_scratch_root();
  bool run_step(const Step& step);
  void make_layout_directories(const Step& step, const PointHandles& h);
  bool write(const Step& step, PointHandles& h, std::optional<RepetitionFigures>& figures,
             bool& cut_short);
  // What --progress needs to go on showing a write phase through its wear-out.
  struct WearOutProgress {
    const ThreadPool::Poll& poll;
    std::chrono::microseconds poll_every;
    std::optional<PhaseProgress>& live;
    std::uint64_t& files_before;
  };
  void wear_out(PointHandles& h, const WearOutProgress& shown,
                SliceResult& result, std::string& failure);
  bool verify(const Step& step, PointHandles& h, std::optional<RepetitionFigures>& figures,
              const CreatedFiles* written);
  ProgressSubject subject_of(const Step& step, ProgressPhase phase) const;

  RunState& run_;
  PhaseAgreement& phases_;
  PointResources& resources_;
  RunReport& report_;
  std::unique_ptr<FileVerifier> verifier_;  // with --verify
};

}  // namespace mpiwrite
