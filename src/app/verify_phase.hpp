#pragma once
// --verify's timed read-back phase of one step: each rank reads back what its neighbour wrote:
// its slice of a block or cyclic write (the plan's `verifies`), or, after a dynamic write or a
// step --time-limit cut short, what its neighbour's writers recorded. One value per step, run
// by timed_phase as the write phase is.

#include <optional>
#include <string>

#include "mpiwrite/core/created_files.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/sys/verify.hpp"
#include "phase_agreement.hpp"
#include "phase_progress.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

struct VerifyOutcome {
  bool ok = false;        // every rank of the world succeeded (and found every file right)
  VerifyFigures figures;  // rank 0: the point's (the slowest rank's time, the sums)
};

class VerifyPhase final : public TimedPhase {
 public:
  // `written`: this rank's writers' records of a dynamic or cut-short write, else null (the
  // names say who wrote which).
  VerifyPhase(const RunState& run, PhaseAgreement& phases, PointHandles& h, const Step& step,
              FileVerifier& verifier, const CreatedFiles* written);

  // The exchange of records (with `written`), then the phase.
  VerifyOutcome run();

  void before() override;
  void work(std::string& failure) override;
  void after(const PhaseClock& clock, std::string& failure) override;

 private:
  const RunState& run_;
  PhaseAgreement& phases_;
  PointHandles& h_;
  const Step& step_;
  FileVerifier& verifier_;
  const CreatedFiles* written_;
  std::optional<CreatedFiles> theirs_;  // the next rank's records, with `written`
  VerifyResult result_;
  std::optional<PhaseProgress> live_;
  std::optional<ProgressTick> tick_;
  std::uint64_t checked_ = 0;
  VerifyOutcome outcome_;
};

}  // namespace mpiwrite
