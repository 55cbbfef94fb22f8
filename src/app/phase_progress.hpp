#pragma once
// --progress for one phase on one rank (docs/metrics.md, "Live progress"). The main thread
// calls poll() while the phase's work runs: from the writer pool's wait during a write phase
// (it wakes every poll_every(), never spins), from a ProgressTick in the verify and removal
// loops. At every interval it starts a round of the phase's ranks (comm::ProgressRounds); when
// one completes, rank 0 prints a line (core ProgressMeter, sys ProgressOutput). finish() runs
// after the phase's clock has stopped: it joins rounds until every rank is done.

#include <boost/mpi/communicator.hpp>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

#include "mpiwrite/core/progress_line.hpp"
#include "mpiwrite/mpi/progress_rounds.hpp"
#include "mpiwrite/sys/progress_output.hpp"

namespace mpiwrite {

class PhaseProgress {
 public:
  // `out`: where rank 0 prints (null on the other ranks). `local_total`: this rank's share of
  // the phase's files (the lines show the sum). `mpi_lock`: see ProgressRounds. Collective
  // only through the rounds; call it on every rank of `comm`, at the start of the work.
  PhaseProgress(const ProgressSettings& settings, ProgressOutput* out,
                const boost::mpi::communicator& comm, ProgressSubject subject,
                std::uint64_t local_total, std::mutex* mpi_lock = nullptr);
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

  // While the work runs: `local_files` this rank has done. Cheap when no interval has passed
  // and no round is outstanding (one clock read).
  // Returns how long the caller may wait before the next poll: until the next interval, or
  // 1 ms while a round is in flight (Open MPI moves a non-blocking collective on only inside
  // MPI calls, so a round tested once per quarter interval took several quarters to end).
  std::chrono::microseconds poll(std::uint64_t local_files);
  // How often the writer pool's wait should call poll(): a quarter of the interval (1 ms to
  // 1 s), so a round's line follows its tick closely, without a busy loop.
  std::chrono::microseconds poll_every() const;
  // After the work, untimed: rounds until every rank is done; then rank 0's last line (if the
  // phase printed any) and the end of its line on a terminal.
  void finish(std::uint64_t local_files);
  // --wear-out, inside the phase: rounds until every rank's first write is over (the
  // agreement on the count that follows uses the same communicator); then the phase goes on,
  // without its time limit, towards the total set_local_total() gives. The lines keep the
  // phase's start, so the rates stay the whole phase's.
  void settle(std::uint64_t local_files);
  void set_local_total(std::uint64_t local_total) { local_total_ = local_total; }

 private:
  double now_s() const;
  void show(const comm::ProgressSum& sum, double at_s, bool last = false);

  double interval_s_;
  ProgressOutput* out_;
  std::uint64_t local_total_;
  comm::ProgressRounds rounds_;
  std::optional<ProgressMeter> meter_;  // rank 0
  double next_s_;                       // when the next round starts
  double round_started_s_ = 0;
  unsigned lines_ = 0;  // rank 0: shown in this phase
};

}  // namespace mpiwrite
