#pragma once
// The phase boundaries of a run. Every phase ends with every rank's verdict (no rank leaves a
// phase alone, so none waits forever), and rank 0 prints each failing rank's message once.
// The three timed phases (write, verify, removal) share one shape, timed_phase(): barrier ->
// clock start -> work -> clock end -> figures -> agreement.
// --timeout: from the configuration's broadcast until the run ends, every rank's watchdog is
// armed, always with the name of the step the rank is in: each step (a phase, a barrier, an
// agreement, a directory made or removed, the clock exchange, the report...) gets the whole
// limit, so no step and no wait is unbounded (docs/metrics.md lists them).

#include <boost/mpi/communicator.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "mpiwrite/core/common_clock.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/mpi/host_doorbell.hpp"
#include "mpiwrite/sys/watchdog.hpp"

namespace mpiwrite {

// A step's verdict that lets the run go on (every other value is the exit code).
inline constexpr int kContinue = -1;

// The monotonic clock in nanoseconds: what ranks of one kernel share (common_clock.hpp).
std::int64_t now_ns();
// A steady_clock time point on now_ns()'s axis.
std::int64_t ns_of(std::chrono::steady_clock::time_point t);
// The same, or empty.
std::optional<std::int64_t> ns_of(const std::optional<std::chrono::steady_clock::time_point>& t);

// Runs `step` and turns what it throws into an exit code and a message.
template <typename Step>
int guarded(Step&& step, std::string& message) {
  try {
    step();
    return kExitOk;
  } catch (const UsageError& e) {
    message = e.what();
    return kExitUsage;
  } catch (const std::exception& e) {
    message = e.what();
    return kExitIo;
  }
}

// This rank's clock readings around the work of a timed phase.
struct PhaseClock {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

// One timed phase of the ranks of `comm()` (write, verify, removal): a class with its state
// as members, whose result the caller reads after PhaseAgreement::timed_phase ran it. A rank
// outside it (comm() null or a null communicator) only takes part in the agreement, which is
// over the world. A new phase is one new file deriving from this.
class TimedPhase {
 public:
  virtual ~TimedPhase() = default;
  TimedPhase(const TimedPhase&) = delete;
  TimedPhase& operator=(const TimedPhase&) = delete;

  // "write phase of 4x1 rep 2": the watchdog's steps are "the barrier before the NAME",
  // "the NAME", "the figures after the NAME" and "the agreement after the NAME".
  const std::string& name() const { return name_; }
  const boost::mpi::communicator* comm() const { return comm_; }

  virtual void before() {}                      // after the barrier, untimed
  virtual void work(std::string& failure) = 0;  // timed; records what fails
  // When the work ended on this rank, where the phase knows it better than a clock read after
  // work() returns: the phases run by the rank's writer say when its last thread finished
  // (Writer::finished_at), which leaves out that thread's wake-up of this one (20-70 us on
  // the project's VM: half the time of a 100-file stat phase). Empty: the read after work().
  virtual std::optional<std::int64_t> work_ended_ns() const { return std::nullopt; }
  // After the watchdog is disarmed, untimed: collective over comm (the gathers of figures).
  virtual void after(const PhaseClock& /*clock*/, std::string& /*failure*/) {}

 protected:
  TimedPhase(std::string name, const boost::mpi::communicator* comm)
      : name_(std::move(name)), comm_(comm) {}

 private:
  std::string name_;
  const boost::mpi::communicator* comm_;
};

class PhaseAgreement {
 public:
  // Collective over the world: makes the host's doorbell, on which the patient waits of the
  // boundaries sleep (comm::HostDoorbell).
  PhaseAgreement(const boost::mpi::communicator& world, std::ostream& err);

  const boost::mpi::communicator& world() const { return world_; }
  bool root() const { return root_; }

  // --timeout (seconds == 0: never fires): from here on every step is watched; the waits of
  // the phase boundaries (comm.hpp) tell the watchdog whom they wait for.
  void start_watchdog(unsigned timeout_s);
  // The step this rank is in from now (the watchdog names it), with the whole --timeout
  // (`limits` times it: a wait that spans that many steps of the ranks it waits for).
  void enter(std::string step, unsigned limits = 1);

  // Every rank's verdict on a step, watched as "the agreement after STEP".
  bool agree_after(const std::string& step, const std::string& local_failure) {
    enter("the agreement after " + step);
    return agree(local_failure);
  }

  // Every rank's verdict on a phase; rank 0 prints each failing rank's message once. Patient:
  // a rank that waits through other ranks' timed work (comm::Pace).
  bool agree(const std::string& local_failure, comm::Pace pace = comm::Pace::prompt);

  // A step only rank 0 performs, followed by its verdict (an exit code) for everyone; watched
  // as `name` when given.
  template <typename Step>
  int root_step(Step&& step, const std::string& name = {}) {
    if (!name.empty()) enter(name);
    std::string message;
    // Every code is >= kExitOk (0): the largest is rank 0's. An observable wait (comm.hpp):
    // a rank waiting for rank 0 says so when --timeout expires.
    const int code = comm::max_int(world_, root_ ? guarded(step, message) : kExitOk);
    if (root_ && code != kExitOk) print_error(message);
    return code;
  }

  // Runs `phase` (see TimedPhase) and returns whether every rank of the world succeeded.
  bool timed_phase(TimedPhase& phase);

  // The signal (SIGINT, SIGTERM) any rank got, or 0: all ranks learn it together.
  int agree_on_signal();
  // The same, as every rank had it when it entered the last agreement (agree(): each carries
  // the ranks' signals), without a boundary of its own: right after a phase's agreement.
  int signal_at_last_agreement() const { return agreed_signal_; }

  // Ranks of one kernel share the monotonic clock; for ranks of other kernels rank 0 measures
  // their clock's offset to its own once, here, outside any timed phase. Collective.
  void put_clocks_on_one_axis();
  int clock_domains() const { return clock_domains_; }
  const comm::ClockOffsets& clock_offsets() const { return clock_offsets_; }
  // Rank 0: every rank's samples on rank 0's time axis.
  std::vector<RankFigures> on_one_axis(const std::vector<RankClockSample>& samples) const;
  // A phase of `comm`'s ranks on rank 0, from the earliest start to the latest end on one time
  // axis; 0 on the other ranks. Collective over comm.
  double span_on_root(const boost::mpi::communicator& comm, const PhaseClock& clock) const;

  // "mpiwrite: error: " and the message on one line (printable(): no terminal escape of a
  // file name reaches the terminal).
  void print_error(const std::string& message) const;

 private:
  const boost::mpi::communicator& world_;
  const bool root_;
  std::ostream& err_;
  const std::string host_;  // the watchdog's thread names it without calling MPI
  std::unique_ptr<Watchdog> watchdog_;
  // After the watchdog: freed (collectively, on each host) while it still watches the run's end.
  comm::HostDoorbell doorbell_;
  int clock_domains_ = 1;             // kernels (monotonic clocks) among the ranks
  int agreed_signal_ = 0;             // the last agreement's (every rank's the same)
  comm::ClockOffsets clock_offsets_;  // to rank 0's clock, on rank 0; empty with one kernel
};

}  // namespace mpiwrite
