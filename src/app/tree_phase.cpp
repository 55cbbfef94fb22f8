// The tree-create and tree-remove phases of one step (tree_phase.hpp).
#include "tree_phase.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "mpiwrite/mpi/comm.hpp"
#include "phase_figures.hpp"
#include "step_names.hpp"

namespace mpiwrite {

std::vector<std::vector<std::string>> directory_levels(const std::vector<std::string>& directories) {
  std::vector<std::vector<std::string>> levels;
  for (const std::string& dir : directories) {
    const auto depth = static_cast<std::size_t>(std::count(dir.begin(), dir.end(), '/'));
    if (levels.size() <= depth) levels.resize(depth + 1);
    levels[depth].push_back(dir);
  }
  return levels;
}

TreePhase::TreePhase(const RunState& run, PhaseAgreement& phases, PointHandles& h,
                     const Step& step, Phase phase)
    : TimedPhase(fmt::format("{} phase of {}", phase_name(phase), label_of(run, step)), &h.comm),
      run_(run),
      phases_(phases),
      h_(h),
      step_(step),
      phase_(phase) {}

TreeOutcome TreePhase::run() {
  std::string failure;
  if (h_.comm && h_.layout != nullptr) {
    phases_.enter("opening the directory of the " + name());
    guarded(
        [&] {
          levels_ = directory_levels(h_.layout->rank_directories(h_.comm.rank()));
          for (const auto& level : levels_) items_ += level.size();
          h_.writer->open_target(run_.from_dir(step_.dir), false, nullptr, nullptr);
        },
        failure);
  }
  if (!phases_.agree_after("opening the directory of the " + name(), failure)) return std::move(outcome_);
  outcome_.ok = phases_.timed_phase(*this);
  return std::move(outcome_);
}

void TreePhase::before() {
  if (!run_.progress.on()) return;
  const ProgressPhase which =
      phase_ == Phase::TreeCreate ? ProgressPhase::TreeCreate : ProgressPhase::TreeRemove;
  live_.emplace(run_.progress, run_.progress_out.get(), h_.comm,
                subject_of(run_, step_, which), items_);
  poll_ = [this] { return live_->poll(h_.writer->files_done()); };
  poll_every_ = live_->poll_every();
}

void TreePhase::work(std::string& failure) {
  guarded([&] { result_ = h_.writer->run_tree(phase_, levels_, outcome_.done, poll_, poll_every_); },
          failure);
}

void TreePhase::after(const PhaseClock& clock, std::string& failure) {
  if (live_) guarded([&] { live_->finish(result_.files); }, failure);
  h_.writer->close_target();
  comm::quiet_barrier(h_.comm);
  outcome_.figures = gather_phase_figures(phases_, h_.comm, phase_, clock, result_, step_.timed);
  if (failure.empty() && result_.failure) failure = result_.failure->message();
}

}  // namespace mpiwrite
