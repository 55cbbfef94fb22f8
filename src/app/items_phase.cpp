// What the timed phases of --phases other than write share (items_phase.hpp).
#include "items_phase.hpp"

#include <fmt/format.h>

#include "mpiwrite/mpi/comm.hpp"
#include "phase_figures.hpp"
#include "step_names.hpp"

namespace mpiwrite {

ItemsPhase::ItemsPhase(const RunState& run, PhaseAgreement& phases, PointHandles& h,
                       const Step& step, Phase phase)
    : TimedPhase(fmt::format("{} phase of {}", phase_name(phase), label_of(run, step)), &h.comm),
      run_(run),
      phases_(phases),
      h_(h),
      step_(step),
      phase_(phase) {}

void ItemsPhase::before() {
  if (!run_.progress.on()) return;
  live_.emplace(run_.progress, run_.progress_out.get(), h_.comm,
                subject_of(run_, step_, progress_phase_of(phase_)), items_);
  poll_ = [this] { return live_->poll(h_.writer->files_done()); };
  poll_every_ = live_->poll_every();
}

void ItemsPhase::after(const PhaseClock& clock, std::string& failure) {
  if (live_) guarded([&] { live_->finish(result_.files); }, failure);
  h_.writer->close_target();
  comm::quiet_barrier(h_.comm, comm::Pace::patient);  // early finishers: as WritePhase::after
  figures_ = gather_phase_figures(phases_, h_.comm, phase_, clock, result_, step_.timed);
  if (failure.empty() && result_.failure) failure = result_.failure->message();
}

}  // namespace mpiwrite
