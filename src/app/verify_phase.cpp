// --verify's read-back phase of one step (verify_phase.hpp).
#include "verify_phase.hpp"

#include <fmt/format.h>

#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/sys/interrupt.hpp"
#include "step_names.hpp"

namespace mpiwrite {

VerifyPhase::VerifyPhase(const RunState& run, PhaseAgreement& phases, PointHandles& h,
                         const Step& step, FileVerifier& verifier, const CreatedFiles* written)
    : TimedPhase("verify phase of " + label_of(run, step), &h.comm),
      run_(run),
      phases_(phases),
      h_(h),
      step_(step),
      verifier_(verifier),
      written_(written) {}

VerifyOutcome VerifyPhase::run() {
  if (written_ != nullptr && h_.comm) {
    phases_.enter("the exchange of records before the " + name());
    theirs_ = comm::created_of_next_rank(h_.comm, *written_);
  }
  outcome_.ok = phases_.timed_phase(*this);
  return outcome_;
}

void VerifyPhase::before() {
  if (!run_.progress.on()) return;
  live_.emplace(run_.progress, run_.progress_out.get(), h_.comm,
                subject_of(run_, step_, ProgressPhase::Verify),
                theirs_ ? theirs_->files_taken() : h_.plan.verifies.count);
  tick_.emplace([this](std::uint64_t files) { live_->poll(checked_ += files); });
}

void VerifyPhase::work(std::string& failure) {
  guarded(
      [&] {
        const DirectoryLayout* layout = h_.layout;
        ProgressTick* ticks = tick_ ? &*tick_ : nullptr;
        const DirectoryAt dir = run_.at(step_.dir);
        result_ =
            theirs_
                ? verifier_.verify(dir, theirs_->taken, &interrupt_signal(), 3, layout, ticks)
                : verifier_.verify(dir, h_.plan.verifies, &interrupt_signal(), 3, layout, ticks);
      },
      failure);
}

void VerifyPhase::after(const PhaseClock& clock, std::string& failure) {
  if (live_) guarded([&] { live_->finish(result_.checked); }, failure);
  if (failure.empty() && result_.mismatches != 0) {
    failure = fmt::format("verify: {} of {} files wrong: {}", result_.mismatches, result_.checked,
                          fmt::join(result_.problems, "; "));
  }
  outcome_.figures = {phases_.span_on_root(h_.comm, clock),
                      comm::sum_to_root(h_.comm, result_.checked),
                      comm::sum_to_root(h_.comm, result_.mismatches)};
}

}  // namespace mpiwrite
