// The phase boundaries of a run (phase_agreement.hpp).
#include "phase_agreement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/mpi/environment.hpp>
#include <chrono>

#include "mpiwrite/sys/interrupt.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/system_facts.hpp"

namespace mpiwrite {

namespace mpi = boost::mpi;

std::int64_t ns_of(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

std::optional<std::int64_t> ns_of(const std::optional<std::chrono::steady_clock::time_point>& t) {
  return t ? std::optional<std::int64_t>(ns_of(*t)) : std::nullopt;
}

std::int64_t now_ns() { return ns_of(std::chrono::steady_clock::now()); }

PhaseAgreement::PhaseAgreement(const mpi::communicator& world, std::ostream& err)
    : world_(world),
      root_(world.rank() == 0),
      err_(err),
      host_(boost::mpi::environment::processor_name()) {}

void PhaseAgreement::start_watchdog(unsigned timeout_s) {
  watchdog_ = std::make_unique<Watchdog>(timeout_s, [this, timeout_s](const Watchdog::Expiry& e) {
    // Each rank that gives up says so itself (once), then ends the whole job rather than hang
    // it. This thread must not call MPI but MPI_Abort: the host name was read before.
    std::string waited;
    if (e.waiting && !e.exact) {
      waited = fmt::format("; waited in a collective for one of ranks {}", fmt::join(e.for_, ", "));
    } else if (e.waiting) {
      waited = e.for_.size() == 1 ? fmt::format("; waited for rank {}", e.for_[0])
                                  : fmt::format("; waited for ranks {}", fmt::join(e.for_, ", "));
    }
    err_ << fmt::format(
                "mpiwrite: error: rank {} ({}): {} has not finished after {} s "
                "(--timeout {}){}; aborting the job\n",
                world_.rank(), host_, e.step, timeout_s, timeout_s, waited)
         << std::flush;
    MPI_Abort(MPI_COMM_WORLD, kExitTimeout);
  });
  if (timeout_s == 0) return;  // nobody to tell: the waits need not translate ranks
  // A rank other than 0 that waits gives rank 0 a second more to speak first: at a boundary
  // rank 0 knows which ranks have not arrived, the others only that they wait for rank 0 (or
  // for one of the ranks of a collective).
  comm::observe_waits([this](const std::vector<int>& ranks, bool exact) {
    watchdog_->waiting_for(ranks, exact, std::chrono::milliseconds(root_ ? 0 : 1000));
  });
}

void PhaseAgreement::enter(std::string step, unsigned limits) {
  if (watchdog_) watchdog_->arm(std::move(step), limits);
}

void PhaseAgreement::print_error(const std::string& message) const {
  err_ << "mpiwrite: error: " << printable(message) << '\n' << std::flush;
}

bool PhaseAgreement::agree(const std::string& local_failure, comm::Pace pace) {
  const comm::Agreement agreement =
      comm::agree(world_, local_failure, interrupt_signal().load(), pace);
  agreed_signal_ = agreement.signal;
  if (root_) {
    for (const std::string& line : agreement.failures) {
      err_ << "mpiwrite: error: " << printable(line) << '\n';
    }
    err_ << std::flush;
  }
  return agreement.all_ok;
}

bool PhaseAgreement::timed_phase(TimedPhase& phase) {
  std::string failure;
  if (phase.comm() != nullptr && *phase.comm()) {
    enter("the barrier before the " + phase.name());
    // The phase's ranks start it together. The quiet barrier is the wait --timeout names the
    // missing ranks in; MPI's own barrier then releases every rank within microseconds (all
    // have arrived, so its busy poll is short), where the quiet one's sleeps would skew the
    // starts. A rank stopped between the two leaves the others in MPI's barrier, which names
    // every other rank as the one it may wait for (e2e.watchdog (b) once failed on it in CI).
    comm::settle_outside_ranks(*phase.comm());
    comm::quiet_barrier(*phase.comm());
    comm::barrier(*phase.comm());
    enter("the " + phase.name());
    phase.before();
    PhaseClock clock;
    clock.start_ns = now_ns();
    phase.work(failure);
    clock.end_ns = now_ns();
    // The writer's own end where it has one from inside this phase (docs/metrics.md, "The
    // timed phase").
    if (const std::optional<std::int64_t> ended = phase.work_ended_ns();
        ended && *ended >= clock.start_ns && *ended <= clock.end_ns) {
      clock.end_ns = *ended;
    }
    enter("the figures after the " + phase.name());
    phase.after(clock, failure);
    return agree_after("the " + phase.name(), failure);
  }
  // A rank outside the phase (a smaller point of a comparison) waits here through the phase's
  // three steps on its ranks (barrier, work, figures), each with its own --timeout. Patiently:
  // its wake-ups would take the CPU from the point's ranks while they are timed (comm::Pace).
  enter("the agreement after the " + phase.name() + " (outside its point)", 3);
  return agree(failure, comm::Pace::patient);
}

int PhaseAgreement::agree_on_signal() { return comm::max_int(world_, interrupt_signal().load()); }

void PhaseAgreement::put_clocks_on_one_axis() {
  const std::vector<std::string> boot_ids = comm::gather_strings(world_, kernel_boot_id());
  std::vector<int> domains = root_ ? mpiwrite::clock_domains(boot_ids) : std::vector<int>{};
  domains = comm::broadcast_ints(world_, std::move(domains));
  // A domain is numbered by its first rank, so the domains are the ranks that lead one.
  clock_domains_ = static_cast<int>(
      std::count_if(domains.begin(), domains.end(), [r = 0](int d) mutable { return d == r++; }));
  if (clock_domains_ > 1) clock_offsets_ = comm::measure_clock_offsets(world_, domains, now_ns);
}

std::vector<RankFigures> PhaseAgreement::on_one_axis(
    const std::vector<RankClockSample>& samples) const {
  return on_common_axis(samples, clock_offsets_.offset_ns);
}

double PhaseAgreement::span_on_root(const mpi::communicator& comm, const PhaseClock& clock) const {
  const std::vector<RankClockSample> all =
      comm::gather_clock_samples(comm, {comm.rank(), clock.start_ns, clock.end_ns, 0, 0});
  if (!root_) return 0;
  double span = 0;
  for (const RankFigures& f : on_one_axis(all)) span = std::max(span, f.start_s + f.elapsed_s);
  return span;
}

}  // namespace mpiwrite
