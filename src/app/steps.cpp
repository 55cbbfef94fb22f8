// The steps of a run (steps.hpp).
#include "steps.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <vector>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/wear_out.hpp"
#include "mpiwrite/core/work_source.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/mpi/shared_counter.hpp"
#include "mpiwrite/sys/interrupt.hpp"
#include "mpiwrite/sys/layout_directories.hpp"
#include "phase_progress.hpp"

namespace mpiwrite {

namespace {

// "4x1 rep 2", "4x1 warm-up 1": a step as the watchdog names it.
std::string label_of(const RunState& run, const Step& step) {
  return fmt::format("{} {} {}", run.points[step.point].label(),
                     step.timed ? "rep" : "warm-up", step.number);
}

}  // namespace

StepRunner::StepRunner(RunState& run, PhaseAgreement& phases, PointResources& resources,
                       RunReport& report)
    : run_(run), phases_(phases), resources_(resources), report_(report) {
  if (run_.config.verify) {
    verifier_ = std::make_unique<FileVerifier>(run_.pattern, run_.config.text, run_.config.lines);
  }
}

bool StepRunner::run_all() {
  Step step;
  while (run_.schedule->next(step)) {
    if (interrupted_now(run_, phases_)) break;
    if (step.scratch) {
      const int code = phases_.root_step([&] { make_scratch_directory(step.dir); },
                                         "creating the scratch directory of " +
                                             label_of(run_, step));
      // Every rank must know whether the root exists: removal is collective.
      if (!run_.scratch_root_made) {
        run_.scratch_root_made = comm::broadcast_int(phases_.world(), run_.root_made) != 0;
        if (run_.scratch_root_made && !hold_scratch_root()) return false;
      }
      if (code != kExitOk) return false;
    }
    ++run_.executed;
    if (!run_step(step)) return false;
    if (run_.interrupted) break;
  }
  if (phases_.root()) {
    summarize_report(report_);
    report_.interrupted_by = run_.interrupted;
  }
  return true;
}

// Rank 0: a step's scratch directory, inside the run's scratch root (made with the first
// one, readable only by the owner: no other user can plant a file where mpiwrite removes).
// Both in held directories: the root in --dir's descriptor, the step's in the root's.
void StepRunner::make_scratch_directory(const std::string& dir) {
  if (!run_.root_made) {
    run_.scratch_fd = make_directory_at(run_.directory.fd.get(), run_.scratch_name(),
                                        run_.scratch_root, 0700);
    run_.root_made = true;
    run_.scratch_identity = identity_of(run_.scratch_fd.get(), run_.scratch_root);
    run_.scratch_lock = lock_scratch_root(run_.scratch_fd.get());  // held until this process ends
  }
  const std::string name = run_.at(dir).relative;
  if (::mkdirat(run_.scratch_fd.get(), name.c_str(), 0755) != 0) {
    throw IoError(errno, dir, "create directory");
  }
}

// Every rank but 0 (which made it): the scratch root, opened once from the held --dir without
// following a link (a network file system may show it late: waited for as a layout directory).
bool StepRunner::hold_scratch_root() {
  std::string failure;
  if (!run_.scratch_fd) {
    guarded([&] {
      run_.scratch_fd = open_at(run_.from_dir(run_.scratch_root), true);
    }, failure);
  }
  return phases_.agree(failure);
}

// One repetition of one point. A repetition during which a signal arrived is discarded: its
// writers stopped early. Until its write phase has completed on every rank, the step is the
// incomplete one, whose files only the records of what each writer created can tell.
bool StepRunner::run_step(const Step& step) {
  PointHandles& h = resources_[step.point];
  run_.incomplete = IncompleteStep{step.dir, {}};
  std::string failure;
  // --overwrite --cleanup: the first step into --dir finds none of its names (checked before
  // the run), so it creates them all with O_EXCL: a file put at a name meanwhile is refused,
  // not rewritten and then removed as if it were the run's.
  const bool exclusive =
      run_.config.overwrite && run_.config.cleanup && !step.scratch && !run_.dir_touched;
  if (!step.scratch) run_.dir_touched = true;
  // Every rank's layout directories exist before any rank opens one: with --layout shared
  // --files-per-dir a rank writes into subdirectories another rank made (on GlusterFS a
  // writer's open raced the other rank's mkdir and got ENOENT). The world agrees, so the
  // condition is the same on every rank, also those outside the point.
  const std::string label = label_of(run_, step);
  if (!run_.layout_of(step.point).flat()) {
    const std::string making = "creating layout directories of " + label;
    phases_.enter(making);
    if (h.comm) guarded([&] { make_layout_directories(step, h); }, failure);
    if (!phases_.agree_after(making, failure)) return false;
    // A signal stops the making at once (10^6 directories take minutes): the step is cut
    // short before it wrote, and what was made is removed as the interrupt path removes.
    if (interrupted_now(run_, phases_)) return true;
  }
  const std::string opening = "opening the directories of " + label;
  phases_.enter(opening);
  if (h.comm) {
    guarded([&] {
      resources_.ready_writer(step.point);  // untimed; may free another point's writer
      // A static partition: each thread opens its directories now, untimed.
      h.writer->open_target(run_.from_dir(step.dir), exclusive, h.layout ? &*h.layout : nullptr,
                            h.counter ? nullptr : &h.plan.thread_writes);
    }, failure);
  }
  if (!phases_.agree_after(opening, failure)) return false;
  std::optional<RepetitionFigures> figures;
  bool cut_short = false;
  const bool written = write(step, h, figures, cut_short);
  if (!written || interrupted_now(run_, phases_)) return written;
  // A step the time limit cut short holds only what its writers created: removal and --verify
  // go by those records (every rank keeps its own), not by the names 1..files.
  const CreatedFiles* limited = nullptr;
  if (cut_short) {
    CreatedFiles& kept = run_.limited_steps[step.dir];
    kept = std::move(run_.incomplete->mine);
    limited = &kept;
  }
  run_.incomplete.reset();
  if (!step.scratch) run_.dir_complete = true;
  if (run_.config.verify && step.timed && !verify(step, h, figures, limited)) return false;
  if (interrupted_now(run_, phases_)) return true;  // verified only in part: discarded too
  if (figures) report_.points[step.point].repetitions.push_back(std::move(*figures));
  return true;
}

// Untimed, before the write phase (docs/metrics.md): this rank makes its directories of the
// point's layout, in parallel with the other ranks. In --dir those it made are remembered for
// --cleanup; with --overwrite the later repetitions find them there.
void StepRunner::make_layout_directories(const Step& step, const PointHandles& h) {
  if (!h.layout || run_.points[step.point].engine == Engine::Null) return;  // null: no I/O
  std::vector<std::string> in_scratch;  // all of them the run's: not remembered one by one
  std::vector<std::string>& made = step.scratch ? in_scratch : run_.dir_layout_made;
  const bool existing_ok = run_.config.overwrite && !step.scratch;
  mpiwrite::make_layout_directories(run_.at(step.dir), h.layout->rank_directories(h.comm.rank()),
                                    made, existing_ok, &interrupt_signal());
}

// The timed write phase of the point's ranks, and its reduction to rank 0 (`figures`, on
// rank 0 for a timed step). `cut_short`, on every rank: --time-limit stopped a writer of the
// point before its share was written.
bool StepRunner::write(const Step& step, PointHandles& h,
                       std::optional<RepetitionFigures>& figures, bool& cut_short) {
  const unsigned threads = run_.points[step.point].threads;
  std::optional<StaticSource> fixed;
  std::optional<SharedCounterSource> dynamic;
  ThreadPool::Poll progress;  // MPI progress for the dynamic counter, every 50 µs
  if (h.counter) {
    h.counter->reset();  // before the barrier, which publishes it
    dynamic.emplace(*h.counter, h.plan.writes, run_.config.chunk);
    if (h.counter->needs_progress()) {
      progress = [counter = h.counter] {
        counter->progress();
        return std::chrono::microseconds(50);
      };
    }
  } else if (h.comm) {
    fixed.emplace(h.plan.thread_writes);
  }
  SliceResult result;
  const double limit_s = run_.config.time_limit_s;
  std::uint64_t files_at_limit = 0;  // this rank's, when its writers stopped at the limit
  std::optional<PhaseProgress> live;
  std::uint64_t files_before = 0;  // --wear-out: the first write's files, progress counts on
  ThreadPool::Poll poll = progress;  // what the main thread does while its writers write
  auto poll_every = std::chrono::microseconds(50);
  TimedPhase phase;
  phase.name = "write phase of " + label_of(run_, step);
  phase.comm = &h.comm;
  phase.before = [&] {
    if (h.counter) h.counter->begin(threads, run_.config.chunk, h.plan.writes.count);
    if (run_.progress.on()) {
      // With a dynamic partition every rank's `writes` is all of them: rank 0 counts them.
      const std::uint64_t mine = !h.counter || h.comm.rank() == 0 ? h.plan.writes.count : 0;
      live.emplace(run_.progress, run_.progress_out.get(), h.comm,
                   subject_of(step, ProgressPhase::Write), mine,
                   h.counter ? h.counter->mpi_lock() : nullptr);
      // The writers' counters at the interval; with a dynamic partition its 50 µs too.
      poll = [&] {
        const std::chrono::microseconds next = live->poll(files_before + h.writer->files_done());
        return progress ? std::min(progress(), next) : next;
      };
      if (!progress) poll_every = live->poll_every();
    }
  };
  phase.work = [&](std::string& failure) {
    // The writers record failures; anything thrown is one more.
    WorkSource& source = h.counter ? static_cast<WorkSource&>(*dynamic) : *fixed;
    // --time-limit counts from this rank's own start of the phase, as mdtest's stonewall.
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline =
        limit_s > 0 ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(limit_s))
                    : Clock::time_point::max();
    guarded([&] { result = h.writer->write(source, poll, poll_every, deadline); }, failure);
    files_at_limit = result.files;
    if (run_.config.wear_out) {
      wear_out(h, {poll, poll_every, live, files_before}, result, failure);
    }
  };
  phase.after = [&](const PhaseClock& clock, std::string& failure) {
    if (h.counter) h.counter->end();
    // After the clock: this rank waits in the rounds until every rank's writers are done.
    if (live) guarded([&] { live->finish(result.files); }, failure);
    h.writer->close_target();
    comm::quiet_barrier(h.comm);  // early finishers leave the CPUs to the ranks still writing
    const RankClockSample mine{h.comm.rank(), clock.start_ns, clock.end_ns, result.files,
                               result.bytes};
    const std::vector<RankClockSample> all = comm::gather_clock_samples(h.comm, mine);
    comm::reduce_histograms(h.comm, {&result.latency, &result.operations[Operation::Create],
                                     &result.operations[Operation::Writes],
                                     &result.operations[Operation::Fsync],
                                     &result.operations[Operation::Close]});
    if (phases_.root() && step.timed) {
      figures = summarize_repetition(step.number, phases_.on_one_axis(all), result.latency);
      figures->operations = operation_figures(result.operations);
    }
    if (limit_s > 0) {
      const std::uint64_t total_at_limit = comm::sum_to_root(h.comm, files_at_limit);
      const bool limited = comm::max_int(h.comm, result.time_limited ? 1 : 0) != 0;
      if (figures) figures->limit = {true, limited, total_at_limit, run_.config.files};
    }
    if (run_.incomplete) run_.incomplete->mine = std::move(result.created);
    if (failure.empty() && result.failure) failure = result.failure->message();
  };
  const bool ok = phases_.timed_phase(phase);
  // Every rank of the world learns it (removal is the world's): also those outside the point.
  if (limit_s > 0) {
    phases_.enter("the agreement on the time limit after the " + phase.name);
    cut_short = comm::max_int(phases_.world(), result.time_limited ? 1 : 0) != 0;
  }
  return ok;
}

// --wear-out, inside the timed phase: once every writer of the point has stopped at the
// limit, each goes on to the largest count any writer reached (a static partition: a
// writer's files are a prefix of its part). Every rank of the point takes part in the
// agreement on that count, also one whose writers failed (it then writes no more).
void StepRunner::wear_out(PointHandles& h, const WearOutProgress& shown,
                          SliceResult& result, std::string& failure) {
  const bool failed = !failure.empty() || result.failure.has_value();
  const std::vector<std::uint64_t> written = h.writer->thread_files();
  // --progress: every rank's rounds of the first write end before the agreement below (they
  // share the point's communicator); the phase's progress then goes on through the wear-out.
  const std::uint64_t mine = failed ? 0 : *std::max_element(written.begin(), written.end());
  std::uint64_t target = 0;
  guarded([&] {
    if (shown.live) shown.live->settle(result.files);
    target = comm::max_u64(h.comm, mine);
  }, failure);
  const std::vector<Progression> parts = wear_out_parts(h.plan.thread_writes, written, target);
  std::uint64_t more_files = 0;
  for (const Progression& part : parts) more_files += failed ? 0 : part.count;
  if (shown.live) {
    shown.files_before = result.files;
    shown.live->set_local_total(result.files + more_files);
  }
  // Failed: it still joins the phase's last progress rounds (phase.after). Nothing left (no
  // writer of this rank was cut short, or none below the count): no pool round inside the
  // timed phase for nothing.
  if (failed || more_files == 0) return;
  StaticSource rest(parts);
  SliceResult more;
  guarded([&] { more = h.writer->write(rest, shown.poll, shown.poll_every); }, failure);
  result.merge(more);
}

// What a step's progress lines are about.
ProgressSubject StepRunner::subject_of(const Step& step, ProgressPhase phase) const {
  return {phase, run_.points[step.point].label(), !step.timed, step.number,
          step.timed ? run_.config.repetitions : run_.config.warmup,
          phase == ProgressPhase::Write ? run_.config.time_limit_s : 0};
}

// --verify: each rank reads back what its plan says (the block its neighbour wrote). After a
// step the time limit cut short (`written`: this rank's records), what its neighbour created.
bool StepRunner::verify(const Step& step, PointHandles& h,
                        std::optional<RepetitionFigures>& figures, const CreatedFiles* written) {
  std::optional<CreatedFiles> theirs;
  if (written != nullptr && h.comm) {
    phases_.enter("the exchange of records before the verify phase of " + label_of(run_, step));
    theirs = comm::created_of_next_rank(h.comm, *written);
  }
  VerifyResult result;
  std::optional<PhaseProgress> live;
  std::optional<ProgressTick> tick;
  std::uint64_t checked = 0;
  TimedPhase phase;
  phase.name = "verify phase of " + label_of(run_, step);
  phase.comm = &h.comm;
  phase.before = [&] {
    if (!run_.progress.on()) return;
    live.emplace(run_.progress, run_.progress_out.get(), h.comm,
                 subject_of(step, ProgressPhase::Verify),
                 theirs ? theirs->files_taken() : h.plan.verifies.count);
    tick.emplace([&](std::uint64_t files) { live->poll(checked += files); });
  };
  phase.work = [&](std::string& failure) {
    guarded([&] {
      const DirectoryLayout* layout = h.layout ? &*h.layout : nullptr;
      ProgressTick* ticks = tick ? &*tick : nullptr;
      result = theirs ? verifier_->verify(run_.at(step.dir), theirs->taken, &interrupt_signal(), 3,
                                          layout, ticks)
                      : verifier_->verify(run_.at(step.dir), h.plan.verifies, &interrupt_signal(), 3,
                                          layout, ticks);
    }, failure);
  };
  phase.after = [&](const PhaseClock& clock, std::string& failure) {
    if (live) guarded([&] { live->finish(result.checked); }, failure);
    if (failure.empty() && result.mismatches != 0) {
      failure = fmt::format("verify: {} of {} files wrong: {}", result.mismatches,
                            result.checked, fmt::join(result.problems, "; "));
    }
    const VerifyFigures total{phases_.span_on_root(h.comm, clock),
                              comm::sum_to_root(h.comm, result.checked),
                              comm::sum_to_root(h.comm, result.mismatches)};
    if (figures) {
      figures->verified = true;
      figures->verify = total;
    }
  };
  return phases_.timed_phase(phase);
}

}  // namespace mpiwrite
