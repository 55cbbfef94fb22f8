// The timed write phase of one step (write_phase.hpp).
#include "write_phase.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "mpiwrite/core/wear_out.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "step_names.hpp"

namespace mpiwrite {

WritePhase::WritePhase(const RunState& run, PhaseAgreement& phases, PointHandles& h,
                       const Step& step)
    : TimedPhase("write phase of " + label_of(run, step), &h.comm),
      run_(run),
      phases_(phases),
      h_(h),
      step_(step) {
  make_source();
  poll_ = counter_progress_;
}

// Which files this rank's threads take: their static parts, or chunks from the shared counter.
void WritePhase::make_source() {
  if (h_.counter) {
    h_.counter->reset();  // before the barrier, which publishes it
    dynamic_.emplace(*h_.counter, h_.plan.writes, run_.config.chunk);
    if (h_.counter->needs_progress()) {
      counter_progress_ = [counter = h_.counter] {
        counter->progress();
        return std::chrono::microseconds(50);
      };
    }
  } else if (h_.comm) {
    fixed_.emplace(h_.plan.thread_writes);
  }
}

WriteOutcome WritePhase::run() {
  outcome_.ok = phases_.timed_phase(*this);
  // Every rank of the world learns it (removal is the world's): also those outside the point.
  if (run_.config.time_limit_s > 0) {
    phases_.enter("the agreement on the time limit after the " + name());
    outcome_.cut_short = comm::max_int(phases_.world(), result_.time_limited ? 1 : 0) != 0;
  }
  return std::move(outcome_);
}

void WritePhase::before() {
  if (h_.counter) {
    h_.counter->begin(run_.plans[step_.point].split.threads, run_.config.chunk,
                      h_.plan.writes.count);
  }
  if (run_.progress.on()) start_progress();
}

// --progress: the writers' counters at the interval; with a dynamic partition its 50 µs too.
void WritePhase::start_progress() {
  // With a dynamic partition every rank's `writes` is all of them: rank 0 counts them.
  const std::uint64_t mine = !h_.counter || h_.comm.rank() == 0 ? h_.plan.writes.count : 0;
  live_.emplace(run_.progress, run_.progress_out.get(), h_.comm,
                subject_of(run_, step_, ProgressPhase::Write), mine,
                h_.counter ? h_.counter->mpi_lock() : nullptr);
  poll_ = [this] {
    const std::chrono::microseconds next = live_->poll(files_before_ + h_.writer->files_done());
    return counter_progress_ ? std::min(counter_progress_(), next) : next;
  };
  if (!counter_progress_) poll_every_ = live_->poll_every();
}

// The writers record failures; anything thrown is one more. --time-limit counts from this
// rank's own start of the phase, as mdtest's stonewall.
void WritePhase::work(std::string& failure) {
  WorkSource& source = h_.counter ? static_cast<WorkSource&>(*dynamic_) : *fixed_;
  using Clock = std::chrono::steady_clock;
  const double limit_s = run_.config.time_limit_s;
  const Clock::time_point deadline =
      limit_s > 0
          ? Clock::now() +
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s))
          : Clock::time_point::max();
  guarded([&] { result_ = h_.writer->write(source, poll_, poll_every_, deadline); }, failure);
  files_at_limit_ = result_.files;
  if (run_.config.wear_out) wear_out(failure);
}

std::optional<std::int64_t> WritePhase::work_ended_ns() const {
  if (run_.config.wear_out) return std::nullopt;
  return ns_of(h_.writer->finished_at());
}

// --wear-out, inside the timed phase: once every writer of the point has stopped at the
// limit, each goes on to the largest count any writer reached (a static partition: a
// writer's files are a prefix of its part). Every rank of the point takes part in the
// agreement on that count, also one whose writers failed (it then writes no more).
void WritePhase::wear_out(std::string& failure) {
  const bool failed = !failure.empty() || result_.failure.has_value();
  const std::vector<std::uint64_t> written = h_.writer->thread_files();
  // --progress: every rank's rounds of the first write end before the agreement below (they
  // share the point's communicator); the phase's progress then goes on through the wear-out.
  const std::uint64_t mine = failed ? 0 : *std::max_element(written.begin(), written.end());
  std::uint64_t target = 0;
  guarded(
      [&] {
        if (live_) live_->settle(result_.files);
        target = comm::max_u64(h_.comm, mine);
      },
      failure);
  const std::vector<Progression> parts = wear_out_parts(h_.plan.thread_writes, written, target);
  std::uint64_t more_files = 0;
  for (const Progression& part : parts) more_files += failed ? 0 : part.count;
  if (live_) {
    files_before_ = result_.files;
    live_->set_local_total(result_.files + more_files);
  }
  // Failed: it still joins the phase's last progress rounds (after()). Nothing left (no
  // writer of this rank was cut short, or none below the count): no pool round inside the
  // timed phase for nothing.
  if (failed || more_files == 0) return;
  StaticSource rest(parts);
  SliceResult more;
  guarded([&] { more = h_.writer->write(rest, poll_, poll_every_); }, failure);
  result_.merge(more);
}

void WritePhase::after(const PhaseClock& clock, std::string& failure) {
  if (h_.counter) h_.counter->end();
  // After the clock: this rank waits in the rounds until every rank's writers are done.
  if (live_) guarded([&] { live_->finish(result_.files); }, failure);
  h_.writer->close_target();
  // Early finishers leave the CPUs to the ranks still writing: they wait patiently (comm::Pace).
  comm::quiet_barrier(h_.comm, comm::Pace::patient);
  gather_figures(clock);
  outcome_.created = std::move(result_.created);
  if (failure.empty() && result_.failure) failure = result_.failure->message();
}

// The point's samples and histograms, reduced to rank 0 (its figures, for a timed step).
void WritePhase::gather_figures(const PhaseClock& clock) {
  const RankClockSample mine{h_.comm.rank(), clock.start_ns, clock.end_ns, result_.files,
                             result_.bytes};
  const std::vector<RankClockSample> all = comm::gather_clock_samples(h_.comm, mine);
  comm::reduce_histograms(
      h_.comm, {&result_.latency, &result_.operations[Operation::Create],
                &result_.operations[Operation::Writes], &result_.operations[Operation::Fsync],
                &result_.operations[Operation::Close]});
  std::optional<RepetitionFigures>& figures = outcome_.figures;
  if (phases_.root() && step_.timed) {
    figures = summarize_repetition(step_.number, phases_.on_one_axis(all), result_.latency);
    figures->operations = operation_figures(result_.operations);
  }
  if (run_.config.time_limit_s > 0) {
    const std::uint64_t total_at_limit = comm::sum_to_root(h_.comm, files_at_limit_);
    const bool limited = comm::max_int(h_.comm, result_.time_limited ? 1 : 0) != 0;
    if (figures) figures->limit = {true, limited, total_at_limit, run_.config.files};
  }
}

}  // namespace mpiwrite
