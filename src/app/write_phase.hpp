#pragma once
// The timed write phase of one step (a repetition or warm-up of one point): its ranks' writers
// write their shares, --time-limit may stop them (and --wear-out take them on to the largest
// count), and the figures go to rank 0. One value per step: its state is its members, what it
// gives the step is a WriteOutcome.

#include <chrono>
#include <cstdint>
#include <optional>

#include "mpiwrite/core/created_files.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/core/work_source.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/mpi/shared_counter.hpp"
#include "mpiwrite/sys/thread_pool.hpp"
#include "phase_agreement.hpp"
#include "phase_progress.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

// What a write phase gives its step.
struct WriteOutcome {
  bool ok = false;         // every rank of the world succeeded
  bool cut_short = false;  // every rank: --time-limit stopped a writer of the point
  std::optional<RepetitionFigures> figures;  // rank 0, for a timed step
  CreatedFiles created;  // what this rank's writers created (the ledger's records)
};

class WritePhase final : public TimedPhase {
 public:
  // `step`, `h` (its point on this rank) and `run` must outlive the phase.
  WritePhase(const RunState& run, PhaseAgreement& phases, PointHandles& h, const Step& step);

  // Runs the phase (every rank of the world: those outside the point only agree), then the
  // world's agreement on the time limit.
  WriteOutcome run();

  void before() override;
  void work(std::string& failure) override;
  // The writer's last thread's finish; with --wear-out the read after work(), whose
  // agreement on the count to go on to is part of the phase.
  std::optional<std::int64_t> work_ended_ns() const override;
  void after(const PhaseClock& clock, std::string& failure) override;

 private:
  void make_source();
  void start_progress();
  void wear_out(std::string& failure);
  void gather_figures(const PhaseClock& clock);

  const RunState& run_;
  PhaseAgreement& phases_;
  PointHandles& h_;
  const Step& step_;
  std::optional<StaticSource> fixed_;           // block and cyclic
  std::optional<SharedCounterSource> dynamic_;  // --partition dynamic
  ThreadPool::Poll counter_progress_;  // MPI progress for the dynamic counter, every 50 µs
  ThreadPool::Poll poll_;              // what the main thread does while its writers write
  std::chrono::microseconds poll_every_{50};
  std::optional<PhaseProgress> live_;  // --progress
  std::uint64_t files_before_ = 0;     // --wear-out: the first write's files, progress counts on
  std::uint64_t files_at_limit_ = 0;   // this rank's, when its writers stopped at the limit
  SliceResult result_;
  WriteOutcome outcome_;
};

}  // namespace mpiwrite
