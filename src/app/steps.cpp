// The steps of a run (steps.hpp).
#include "steps.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/sys/interrupt.hpp"
#include "mpiwrite/sys/layout_directories.hpp"
#include "files_phase.hpp"
#include "step_names.hpp"
#include "tree_phase.hpp"
#include "verify_phase.hpp"
#include "write_phase.hpp"

namespace mpiwrite {

StepRunner::StepRunner(RunState& run, PhaseAgreement& phases, PointResources& resources,
                       RunReport& report)
    : run_(run), phases_(phases), resources_(resources), report_(report) {
  if (run_.config.verify) {
    verifier_ = std::make_unique<FileVerifier>(run_.pattern, run_.config.text, run_.config.bytes());
  }
}

bool StepRunner::run_all() {
  Step step;
  StepSchedule& schedule = *run_.schedule;
  std::optional<StoppedBy> stopped;
  if (!run_.config.auto_repetitions) stopped = StoppedBy::Fixed;
  // --progress of the first round: no precision yet, the whole budget left.
  if (run_.config.auto_repetitions && phases_.root()) {
    run_.auto_note = auto_progress_note(run_.config, report_.points);
  }
  while (schedule.next(step)) {
    run_.under_way = {};  // between two steps: a signal now cuts nothing
    if (interrupted_now(run_, phases_)) break;
    if (step.scratch && !make_step_directory(step)) return false;
    if (!run_step(step)) return false;
    if (run_.interrupted) break;
    if (run_.config.auto_repetitions && step.timed && schedule.at_round_end()) {
      stopped = enough_rounds(schedule.rounds_begun() - run_.config.warmup);
      if (stopped) break;
    }
  }
  if (phases_.root()) {
    // -r auto: the schedule's end is the maximum (decided after its last round already).
    report_.stopped_by = run_.interrupted ? StoppedBy::Interrupted
                                          : stopped.value_or(StoppedBy::Maximum);
    // The repetitions asked are those begun: "3 of 4" then means a round cut short.
    if (run_.config.auto_repetitions) {
      report_.config.repetitions = std::max(1u, schedule.rounds_begun() - std::min(
                                                    schedule.rounds_begun(), run_.config.warmup));
    }
    summarize_report(report_);
    report_.interrupted_by = run_.interrupted;
  }
  return true;
}

// -r auto, after a round: rank 0 decides (it alone holds the figures) and every rank learns
// the same answer, so all leave the loop at the same step.
std::optional<StoppedBy> StepRunner::enough_rounds(unsigned rounds) {
  int code = 0;  // 0: go on; else 1 + the StoppedBy
  if (phases_.root()) {
    const std::optional<StoppedBy> why = stop_repeating(run_.config, report_.points, rounds);
    if (why) code = 1 + static_cast<int>(*why);
    run_.auto_note = auto_progress_note(run_.config, report_.points);
  }
  phases_.enter("deciding whether -r auto repeats");
  code = comm::broadcast_int(phases_.world(), code);
  if (code == 0) return std::nullopt;
  return static_cast<StoppedBy>(code - 1);
}

// Every rank: rank 0 makes a scratch step's directory (and the scratch root with the first);
// every rank learns whether the root exists (removal is collective) and holds it.
bool StepRunner::make_step_directory(const Step& step) {
  const int code = phases_.root_step([&] { make_scratch_directory(step.dir); },
                                     "creating the scratch directory of " + label_of(run_, step));
  // Rank 0 holds the root from the moment it made it.
  if (!run_.ledger.scratch_root() &&
      comm::broadcast_int(phases_.world(), run_.scratch_fd ? 1 : 0) != 0) {
    run_.ledger.scratch_root_made();
    if (!hold_scratch_root()) return false;
  }
  return code == kExitOk;
}

// Rank 0: a step's scratch directory, inside the run's scratch root (made with the first
// one, readable only by the owner: no other user can plant a file where mpiwrite removes).
// Both in held directories: the root in --dir's descriptor, the step's in the root's.
void StepRunner::make_scratch_directory(const std::string& dir) {
  if (!run_.scratch_fd) {
    run_.scratch_fd =
        make_directory_at(run_.directory.fd.get(), run_.scratch_name(), run_.scratch_root, 0700);
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
    guarded([&] { run_.scratch_fd = open_at(run_.from_dir(run_.scratch_root), true); }, failure);
  }
  return phases_.agree(failure);
}

// The part of `step` now under way, which a signal would cut (RunState::under_way).
void StepRunner::begin_part(const Step& step, std::string phase) {
  run_.under_way = {std::move(phase), run_.points[step.point].label(), !step.timed, step.number};
}

// One repetition of one point. A repetition during which a signal arrived is discarded: its
// writers stopped early. Until its write phase has completed on every rank, the step is the
// ledger's open one, whose files only the records of what each writer created can tell.
bool StepRunner::run_step(const Step& step) {
  PointHandles& h = resources_[step.point];
  // --overwrite --cleanup: the first step into --dir finds none of its names (checked before
  // the run), so it creates them all with O_EXCL: a file put at a name meanwhile is refused,
  // not rewritten and then removed as if it were the run's.
  const bool exclusive =
      run_.config.overwrite && run_.config.cleanup && !step.scratch && !run_.ledger.dir_touched();
  run_.ledger.step_started(step);
  std::vector<PhaseFigures> later;  // rank 0: the other phases' figures, for a timed step
  if (!make_layout(step, h, later)) return false;
  // A signal stops the making at once (10^6 directories take minutes): the step is cut
  // short before it wrote, and what was made is removed as the interrupt path removes.
  if (run_.interrupted) return true;
  if (!open_directories(step, h, exclusive)) return false;
  begin_part(step, "write");
  WriteOutcome written = WritePhase(run_, phases_, h, step).run();
  if (!written.ok || interrupted_at_agreement(run_, phases_)) {
    run_.ledger.step_stopped(std::move(written.created));
    return written.ok;
  }
  // A step the time limit cut short holds only what its writers created: removal and --verify
  // go by those records (every rank keeps its own), not by the names 1..files.
  if (written.cut_short) {
    run_.ledger.step_cut_short(std::move(written.created));
  } else {
    run_.ledger.step_completed();
  }
  // Who wrote which file, where the names cannot say: the records of a step the time limit
  // cut short (the ledger's), or of a dynamic write (each writer took chunks as it ran; the
  // null engine records none, and its later phases take blocks of names). --verify and the
  // later phases go by them.
  const bool dynamic = run_.plans[step.point].split.partition == Partition::Dynamic &&
                       run_.ledger.engine_creates_files();
  const CreatedFiles* records = written.cut_short ? run_.ledger.records_of(step.dir)
                                : dynamic         ? &written.created
                                                  : nullptr;
  // With the read phase, --verify checks the content there, inside the read phase.
  const bool verify_apart = run_.config.verify && !run_.phases.has(Phase::Read);
  if (verify_apart && step.timed) {
    begin_part(step, "verify");
    if (!verify(step, h, records, written.figures)) return false;
    // Verified only in part: discarded too. (Without a verification nothing ran since the
    // agreement after the write phase: a second one would cost a boundary of every rank.)
    if (interrupted_at_agreement(run_, phases_)) return true;
  }
  if (!run_later_phases(step, h, records, later)) return false;
  if (run_.interrupted) return true;  // a phase of it was cut short: discarded too
  if (written.figures) {
    written.figures->phases = std::move(later);
    report_.points[step.point].repetitions.push_back(std::move(*written.figures));
  }
  return true;
}

// --phases stat, read, remove, tree-remove, in that order, each timed over what the write phase
// created (by `records`, this rank's writers', where given: see run_step). A phase removed what it
// removed on every rank once the world agreed it succeeded and no signal cut it short: then the
// ledger says so (a remove or tree-remove a signal stopped left files or directories, which the
// interrupt path must still remove).
bool StepRunner::run_later_phases(const Step& step, PointHandles& h, const CreatedFiles* records,
                                  std::vector<PhaseFigures>& later) {
  for (Phase phase : {Phase::Stat, Phase::Read, Phase::Remove}) {
    if (!run_.phases.has(phase)) continue;
    begin_part(step, std::string(phase_name(phase)));
    FilesOutcome done = FilesPhase(run_, phases_, h, step, phase, records).run();
    if (!done.ok) return false;
    if (done.figures) later.push_back(*done.figures);
    if (interrupted_at_agreement(run_, phases_)) return true;
    if (phase == Phase::Remove) run_.ledger.step_files_removed();
  }
  if (run_.phases.has(Phase::TreeRemove)) {
    begin_part(step, std::string(phase_name(Phase::TreeRemove)));
    TreeOutcome done = TreePhase(run_, phases_, h, step, Phase::TreeRemove).run();
    if (!done.ok) return false;
    if (done.figures) later.push_back(*done.figures);
    if (interrupted_at_agreement(run_, phases_)) return true;
    run_.ledger.step_tree_removed();
  }
  return true;
}

// Every rank's layout directories exist before any rank opens one: with --layout shared
// --files-per-dir a rank writes into subdirectories another rank made (on GlusterFS a
// writer's open raced the other rank's mkdir and got ENOENT). The world agrees, so the
// condition is the same on every rank, also those outside the point. False: it failed (said);
// a signal during it is in run_.interrupted.
bool StepRunner::make_layout(const Step& step, PointHandles& h,
                             std::vector<PhaseFigures>& later) {
  if (run_.phases.has(Phase::TreeCreate)) return time_tree_create(step, h, later);
  if (run_.layout_of(step.point).flat()) return true;
  begin_part(step, "layout");
  std::string failure;
  const std::string making = "creating layout directories of " + label_of(run_, step);
  phases_.enter(making);
  if (h.comm) guarded([&] { make_layout_directories(step, h); }, failure);
  if (!phases_.agree_after(making, failure)) return false;
  interrupted_at_agreement(run_, phases_);
  return true;
}

// --phases tree-create: the layout's directories made in a timed phase of their own (none for a
// flat point: a phase of 0 directories, so that every point times the same phases). What this
// rank made is recorded in the ledger, also when the phase stopped part-way.
bool StepRunner::time_tree_create(const Step& step, PointHandles& h,
                                  std::vector<PhaseFigures>& later) {
  std::string failure;
  const std::string readying = "starting the writer of " + label_of(run_, step);
  phases_.enter(readying);
  if (h.comm) guarded([&] { resources_.ready_writer(step.point); }, failure);
  if (!phases_.agree_after(readying, failure)) return false;
  begin_part(step, std::string(phase_name(Phase::TreeCreate)));
  TreeOutcome made = TreePhase(run_, phases_, h, step, Phase::TreeCreate).run();
  run_.ledger.layout_directories_made(step, std::move(made.made));
  if (!made.ok) return false;
  if (made.figures) later.push_back(*made.figures);
  interrupted_at_agreement(run_, phases_);
  return true;
}

// Untimed, before the write phase (docs/metrics.md): this rank makes its directories of the
// point's layout, in parallel with the other ranks. Those it made are recorded in the ledger,
// also when the making stops part-way (a failure, a signal); with --overwrite the later
// repetitions find them there.
void StepRunner::make_layout_directories(const Step& step, const PointHandles& h) {
  if (!h.layout || !run_.ledger.engine_creates_files()) return;  // the null engine: no I/O
  std::vector<std::string> made;
  const bool existing_ok = run_.config.overwrite && !step.scratch;
  try {
    mpiwrite::make_layout_directories(run_.at(step.dir), h.layout->rank_directories(h.comm.rank()),
                                      made, existing_ok, &interrupt_signal());
  } catch (...) {
    run_.ledger.layout_directories_made(step, std::move(made));
    throw;
  }
  run_.ledger.layout_directories_made(step, std::move(made));
}

// Untimed: the point's writer is made ready and, with a static partition, each thread opens
// its directories now.
bool StepRunner::open_directories(const Step& step, PointHandles& h, bool exclusive) {
  std::string failure;
  const std::string opening = "opening the directories of " + label_of(run_, step);
  phases_.enter(opening);
  if (h.comm) {
    guarded(
        [&] {
          resources_.ready_writer(step.point);  // may free another point's writer
          std::vector<std::span<const Progression>> parts;  // a static partition's: one each
          for (const Progression& part : h.plan.thread_writes) parts.emplace_back(&part, 1);
          h.writer->open_target(run_.from_dir(step.dir), exclusive, h.layout,
                                h.counter ? nullptr : &parts);
        },
        failure);
  }
  return phases_.agree_after(opening, failure);
}

// --verify of a timed step: the next rank's writing, by `records` where given (see run_step).
bool StepRunner::verify(const Step& step, PointHandles& h, const CreatedFiles* records,
                        std::optional<RepetitionFigures>& figures) {
  const VerifyOutcome checked = VerifyPhase(run_, phases_, h, step, *verifier_, records).run();
  if (figures) {
    figures->verified = true;
    figures->verify = checked.figures;
  }
  return checked.ok;
}

}  // namespace mpiwrite
