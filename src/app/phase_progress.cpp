// --progress for one phase on one rank (phase_progress.hpp).
#include "phase_progress.hpp"

#include <algorithm>

namespace mpiwrite {

PhaseProgress::PhaseProgress(const ProgressSettings& settings, ProgressOutput* out,
                             const boost::mpi::communicator& comm, ProgressSubject subject,
                             std::uint64_t local_total, std::mutex* mpi_lock)
    : interval_s_(settings.interval_s),
      out_(out),
      local_total_(local_total),
      rounds_(comm, mpi_lock) {
  const double start = now_s();
  next_s_ = start + interval_s_;
  if (out_ != nullptr) meter_.emplace(std::move(subject), 0, start);
}

double PhaseProgress::now_s() const {
  const auto since = std::chrono::steady_clock::now().time_since_epoch();
  return std::chrono::duration<double>(since).count();
}

std::chrono::microseconds PhaseProgress::poll_every() const {
  // A quarter of the interval: a round starts at most that late after its tick (its line
  // keeps the time it started) and completes one wake later; 4 ranks on 2 cores waking every
  // 5 ms cost measurably more.
  const auto us = static_cast<std::int64_t>(interval_s_ * 1e6 / 4);
  return std::chrono::microseconds(std::clamp<std::int64_t>(us, 1000, 1'000'000));
}

std::chrono::microseconds PhaseProgress::poll(std::uint64_t local_files) {
  constexpr std::chrono::microseconds kInFlight{1000};
  comm::ProgressSum sum;
  if (rounds_.test(sum)) show(sum, round_started_s_);
  const double now = now_s();
  if (rounds_.outstanding()) return kInFlight;
  if (now >= next_s_) {
    // Every rank starts its rounds on the same ticks from the phase's barrier, so a round
    // completes about when it starts; a tick missed while one was outstanding is skipped.
    while (next_s_ <= now) next_s_ += interval_s_;
    round_started_s_ = now;
    rounds_.start(local_files, false, local_total_);
    return kInFlight;
  }
  // Until the next tick, at most poll_every() (the tick is on this rank's clock).
  const auto until =
      std::chrono::microseconds(static_cast<std::int64_t>((next_s_ - now) * 1e6) + 1);
  return std::clamp(until, kInFlight, poll_every());
}

void PhaseProgress::finish(std::uint64_t local_files) {
  // A round's figures are as of its start (the one outstanding: when poll started it).
  rounds_.finish(
      local_files, local_total_,
      [&](const comm::ProgressSum& sum) {
        // The last round: the phase is over ("done in", also when a time limit, a signal or
        // a failure ended it short); shown if the phase showed lines at all (a phase
        // shorter than the interval prints nothing).
        if (!rounds_.all_done(sum)) {
          show(sum, round_started_s_);
        } else if (lines_ != 0) {
          show(sum, now_s(), true);
        }
      },
      [&] { round_started_s_ = now_s(); });
  if (out_ != nullptr) out_->end_phase();
}

void PhaseProgress::settle(std::uint64_t local_files) {
  rounds_.finish(
      local_files, local_total_,
      [&](const comm::ProgressSum& sum) {
        if (!rounds_.all_done(sum)) show(sum, round_started_s_);
      },
      [&] { round_started_s_ = now_s(); });
  if (meter_) meter_->set_time_limit(0);
}

void PhaseProgress::show(const comm::ProgressSum& sum, double at_s, bool last) {
  if (!meter_) return;
  meter_->set_total(sum.total);
  out_->show(meter_->line(at_s, sum.files, last));
  ++lines_;
}

}  // namespace mpiwrite
