// The removal phase (removal.hpp). Removal goes by what the run created: a step that
// completed created every name 1..files in its directory (O_EXCL), and each rank removes its
// plan's block of them, so removal is spread evenly whoever wrote them; the one step that did
// not complete is removed by each rank from its writers' records.
#include "removal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <stdexcept>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/layout_directories.hpp"
#include "mpiwrite/sys/interrupt.hpp"
#include "phase_progress.hpp"

namespace mpiwrite {

namespace {

bool signalled() { return interrupt_signal().load() != 0; }

// Every rank: the files of every executed scratch step and, with `clean_dir`, of --dir.
// A directory that fails stops only itself: the others are still removed, and the first
// failure is reported.
void remove_every_file(const RunState& run, bool clean_dir, std::uint64_t& removed,
                       std::string& failure, ProgressTick* tick) {
  if (run.config.engine == Engine::Null) return;  // the null engine created no file to remove
  auto remove_in = [&](std::size_t point, const std::string& dir, bool all) {
    // A signal stops the phase at once, not after visiting every directory (a comparison of
    // 10^5 repetitions has that many), so the report goes out before the launcher's kill; the
    // rest goes to the background removal (finish_interrupted).
    if (signalled()) return;
    std::string problem;
    guarded([&] { removed += remove_written(run, point, dir, all, &interrupt_signal(), tick); },
            problem);
    if (failure.empty()) failure = problem;
  };
  run.for_each_executed_step([&](const Step& step) {
    if (step.scratch) remove_in(step.point, step.dir, !run.incomplete_in(step.dir));
  });
  if (clean_dir) remove_in(0, run.directory.path, run.dir_complete);  // a plain run: one point
}

// Every rank: the names remove_every_file visits (--progress's total), without visiting them.
std::uint64_t names_to_remove(const RunState& run, bool clean_dir) {
  if (run.config.engine == Engine::Null) return 0;
  std::uint64_t names = 0;
  auto count_in = [&](const std::string& dir, bool all) {
    if (const auto limited = run.limited_steps.find(dir); all && limited != run.limited_steps.end()) {
      names += limited->second.files_taken();  // --time-limit cut it short: its records
    } else if (all) {
      names += run.world_plan.removes.count;
    } else if (run.incomplete) {
      for (const Progression& part : run.incomplete->mine.taken) names += part.count;
    }
  };
  run.for_each_executed_step([&](const Step& step) {
    if (step.scratch) count_in(step.dir, !run.incomplete_in(step.dir));
  });
  if (clean_dir) count_in(run.directory.path, run.dir_complete);
  return names;
}

// Every rank, after every rank's files: its layout directories, every one tried (as above).
void remove_every_layout_directory(const RunState& run, bool clean_dir, std::string& failure) {
  auto remove_in = [&](std::size_t point, const std::string& dir, bool scratch) {
    if (signalled()) return;
    std::string problem;
    guarded([&] { remove_layout_directories_of(run, point, dir, scratch, &interrupt_signal()); },
            problem);
    if (failure.empty()) failure = problem;
  };
  run.for_each_executed_step([&](const Step& step) {
    if (step.scratch) remove_in(step.point, step.dir, true);
  });
  if (clean_dir) remove_in(0, run.directory.path, false);
}

// Rank 0: the directories the run made, every one tried; throws the first failure.
void remove_directories(RunState& run) {
  std::string first;
  auto rmdir_or_note = [&](auto&& remove) {
    if (signalled()) return;  // as above: the trash takes the rest
    std::string problem;
    guarded(remove, problem);
    if (first.empty()) first = problem;
  };
  // Each by its name in a held directory; the scratch root and --dir, whose names are in
  // directories the run does not hold, only while the name still leads to the held one.
  auto remove_step = [&](const std::string& dir) {
    const DirectoryAt step = run.at(dir);
    if (::unlinkat(step.base_fd, step.relative.c_str(), AT_REMOVEDIR) != 0) {
      throw IoError(errno, dir, "remove directory");
    }
  };
  run.for_each_executed_step([&](const Step& step) {
    if (step.scratch) rmdir_or_note([&] { remove_step(step.dir); });
  });
  if (run.scratch_root_made && !signalled()) {
    unlock_scratch_root(run.scratch_fd.get(), run.scratch_lock);
    rmdir_or_note([&] {
      const std::string name = run.scratch_name();
      expect_same_directory(run.directory.fd.get(), name, run.scratch_identity, run.scratch_root);
      if (::unlinkat(run.directory.fd.get(), name.c_str(), AT_REMOVEDIR) != 0) {
        throw IoError(errno, run.scratch_root, "remove directory");
      }
    });
  }
  if (run.config.cleanup && run.directory.created) {
    rmdir_or_note([&] { remove_held_directory(run.directory.path, run.directory.identity); });
  }
  if (!first.empty()) throw std::runtime_error(first);
}

}  // namespace

std::uint64_t remove_written(const RunState& run, std::size_t point, const std::string& dir,
                             bool all, const std::atomic<int>* stop, ProgressTick* tick) {
  const DirectoryLayout& layout = run.layout_of(point);
  const DirectoryLayout* where = layout.flat() ? nullptr : &layout;
  if (const auto limited = run.limited_steps.find(dir); all && limited != run.limited_steps.end()) {
    return remove_created(run.at(dir), run.pattern, limited->second, stop, where, tick);
  }
  if (all) {
    return remove_files(run.at(dir), run.pattern, run.world_plan.removes, stop,
                        run.config.overwrite, where, tick);
  }
  return remove_created(run.at(dir), run.pattern, run.incomplete->mine, stop, where, tick);
}

void remove_layout_directories_of(const RunState& run, std::size_t point, const std::string& dir,
                                  bool scratch, const std::atomic<int>* stop) {
  if (!scratch) {
    remove_layout_directories(run.at(dir), run.dir_layout_made, stop);
    return;
  }
  const PointSpec& spec = run.points[point];
  const DirectoryLayout& layout = run.layout_of(point);
  const int rank = run.world_rank;
  if (layout.flat() || rank >= spec.ranks) return;
  remove_layout_directories(run.at(dir), layout.rank_directories(rank), stop);
}

bool remove_files_and_directories(RunState& run, PhaseAgreement& phases, RunReport& report) {
  const RunConfig& c = run.config;
  const bool clean_dir = c.cleanup && (run.dir_complete || run.incomplete_in(run.directory.path));
  if (!run.scratch_root_made && !clean_dir && !(c.cleanup && run.directory.created)) return true;
  std::uint64_t removed = 0;
  std::optional<PhaseProgress> live;
  std::optional<ProgressTick> tick;
  std::uint64_t visited = 0;
  TimedPhase phase;
  phase.name = "removal phase";
  phase.comm = &phases.world();
  phase.before = [&] {
    if (!run.progress.on()) return;
    live.emplace(run.progress, run.progress_out.get(), phases.world(),
                 ProgressSubject{ProgressPhase::Removal, "", false, 0, 0},
                 names_to_remove(run, clean_dir));
    tick.emplace([&](std::uint64_t files) { live->poll(visited += files); });
  };
  phase.work = [&](std::string& failure) {
    remove_every_file(run, clean_dir, removed, failure, tick ? &*tick : nullptr);
    if (tick) tick->flush();
    run.dir_files_removed = clean_dir && failure.empty() && !signalled();
  };
  phase.after = [&](const PhaseClock& clock, std::string& failure) {
    if (live) guarded([&] { live->finish(visited); }, failure);
    const double elapsed_s = phases.span_on_root(phases.world(), clock);
    removed = comm::sum_to_root(phases.world(), removed);
    report.cleanup = {true, elapsed_s, removed, false, true};
  };
  const bool layouts = c.engine != Engine::Null;  // the null engine made no directory
  if (!phases.timed_phase(phase)) {
    // Some file could not be removed (said): each rank still removes the layout directories
    // that are empty; the ones that hold what is left stay, without a message of their own.
    std::string already_said;
    phases.enter("removing the empty layout directories");
    if (layouts) remove_every_layout_directory(run, clean_dir, already_said);
    return false;
  }
  if (interrupted_now(run, phases)) {
    report.cleanup.failed = false;  // cut short, and the rest goes to the background
    return true;
  }
  // Untimed: the layouts' directories, each rank its own, now that no file is left in them.
  std::string failure;
  phases.enter("removing layout directories");
  if (layouts) remove_every_layout_directory(run, clean_dir, failure);
  if (!phases.agree_after("removing layout directories", failure)) return false;
  // Interrupted while the layouts' directories went: cut short, not failed (the report said
  // "FAILED" with no error before); what is left becomes trash (finish_interrupted).
  if (interrupted_now(run, phases)) {
    report.cleanup.failed = false;
    return true;
  }
  if (phases.root_step([&] { remove_directories(run); }, "removing the scratch directories") !=
      kExitOk) {
    return false;
  }
  if (interrupted_now(run, phases)) {
    report.cleanup.failed = false;
    return true;
  }
  report.cleanup.failed = false;
  return true;
}

}  // namespace mpiwrite
