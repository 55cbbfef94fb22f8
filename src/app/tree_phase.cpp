// The tree-create and tree-remove phases of one step (tree_phase.hpp).
#include "tree_phase.hpp"

#include <utility>

namespace mpiwrite {

TreePhase::TreePhase(const RunState& run, PhaseAgreement& phases, PointHandles& h,
                     const Step& step, Phase phase)
    : ItemsPhase(run, phases, h, step, phase) {}

TreeOutcome TreePhase::run() {
  const std::string opening = "opening the directory of the " + name();
  const bool ok =
      set_up_then_time(opening, opening, [this](std::string& failure) { set_up(failure); });
  // After the clock: the ledger needs the paths of what was made (tree-remove's are not read).
  std::vector<std::string> made;
  if (phase_ == Phase::TreeCreate) made = done_.paths(levels_);
  return TreeOutcome{ok, std::move(figures_), std::move(made)};
}

void TreePhase::set_up(std::string& failure) {
  if (h_.layout == nullptr) return;
  guarded(
      [&] {
        levels_ = h_.layout->rank_directory_levels(h_.comm.rank());
        for (const auto& level : levels_) items_ += level.size();
        h_.writer->open_target(run_.from_dir(step_.dir), false, nullptr, nullptr);
      },
      failure);
}

void TreePhase::work(std::string& failure) {
  guarded([&] { result_ = h_.writer->run_tree(phase_, levels_, done_, poll_, poll_every_); },
          failure);
}

}  // namespace mpiwrite
