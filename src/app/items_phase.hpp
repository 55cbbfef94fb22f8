#pragma once
// What every timed phase of --phases other than write shares (files_phase: stat, read,
// remove; tree_phase: tree-create, tree-remove): one step of one point, the writer's threads
// over this rank's items, timed as the write phase is. This class is the common part: the
// untimed set-up and the world's agreement on it before the phase, --progress over the
// items, and the after() step (the progress finished, the target closed, the figures
// gathered to rank 0, the writer's failure as the rank's). A phase derives from it and gives
// its set-up and its loop (work()).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "phase_agreement.hpp"
#include "phase_progress.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

class ItemsPhase : public TimedPhase {
 public:
  // --progress over items_ ("files", or "directories" for a tree phase), untimed.
  void before() override;
  // Untimed, collective over the point's ranks: the progress's last rounds, the writer's
  // target closed, a quiet barrier, the figures gathered (figures_ on rank 0 of a timed
  // step), and the writer's failure as the rank's when nothing failed before.
  void after(const PhaseClock& clock, std::string& failure) override;
  // The writer's last thread's finish (its run_files or run_tree is all of work()).
  std::optional<std::int64_t> work_ended_ns() const override {
    return ns_of(h_.writer->finished_at());
  }

 protected:
  ItemsPhase(const RunState& run, PhaseAgreement& phases, PointHandles& h, const Step& step,
             Phase phase);

  // The phase, after `set_up(failure)` on the point's ranks (watched as `step`; it sets items_
  // and opens the writer's target) and the world's agreement on it (as `agreed`): whether
  // every rank of the world succeeded at both.
  template <typename SetUp>
  bool set_up_then_time(const std::string& step, const std::string& agreed, SetUp&& set_up) {
    std::string failure;
    if (h_.comm) {
      phases_.enter(step);
      set_up(failure);
    }
    if (!phases_.agree_after(agreed, failure)) return false;
    return phases_.timed_phase(*this);
  }

  const RunState& run_;
  PhaseAgreement& phases_;
  PointHandles& h_;
  const Step& step_;
  const Phase phase_;
  std::uint64_t items_ = 0;  // this rank's share
  // What work() passes the writer for --progress (nothing and 50 µs when it is off).
  ThreadPool::Poll poll_;
  std::chrono::microseconds poll_every_{50};
  SliceResult result_;                  // this rank's, from work()
  std::optional<PhaseFigures> figures_;  // rank 0, for a timed step

 private:
  std::optional<PhaseProgress> live_;
};

}  // namespace mpiwrite
