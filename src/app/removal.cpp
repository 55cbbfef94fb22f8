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
#include "mpiwrite/sys/interrupt.hpp"
#include "mpiwrite/sys/layout_directories.hpp"
#include "phase_progress.hpp"

namespace mpiwrite {

namespace {

bool signalled() { return interrupt_signal().load() != 0; }

// Every rank: the run's files of every directory the ledger lists. A directory that fails
// stops only itself: the others are still removed, and the first failure is reported.
void remove_every_file(const RunState& run, std::uint64_t& removed, std::string& failure,
                       ProgressTick* tick) {
  run.ledger.for_each_removal_item([&](const RemovalItem& item) {
    // A signal stops the phase at once, not after visiting every directory (a comparison of
    // 10^5 repetitions has that many), so the report goes out before the launcher's kill; the
    // rest goes to the background removal (finish_interrupted).
    if (signalled() || item.files == RemoveFiles::None) return;
    std::string problem;
    guarded([&] { removed += remove_written(run, item, &interrupt_signal(), tick); }, problem);
    if (failure.empty()) failure = problem;
  });
}

// Every rank, after every rank's files: its layout directories, every one tried (as above).
void remove_every_layout_directory(const RunState& run, std::string& failure) {
  run.ledger.for_each_removal_item([&](const RemovalItem& item) {
    if (signalled() || item.directories == RemoveDirectories::None) return;
    std::string problem;
    guarded([&] { remove_layout_directories_of(run, item, &interrupt_signal()); }, problem);
    if (failure.empty()) failure = problem;
  });
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
  run.ledger.for_each_removal_item([&](const RemovalItem& item) {
    if (item.scratch) rmdir_or_note([&] { remove_step(item.dir); });
  });
  if (run.ledger.scratch_root() && !signalled()) {
    unlock_scratch_root(run.scratch_fd.get(), run.scratch_lock);
    rmdir_or_note([&] {
      const std::string name = run.scratch_name();
      expect_same_directory(run.directory.fd.get(), name, run.scratch_identity, run.scratch_root);
      if (::unlinkat(run.directory.fd.get(), name.c_str(), AT_REMOVEDIR) != 0) {
        throw IoError(errno, run.scratch_root, "remove directory");
      }
    });
  }
  if (run.ledger.removes_run_directory()) {
    rmdir_or_note([&] { remove_held_directory(run.directory.path, run.directory.identity); });
  }
  if (!first.empty()) throw std::runtime_error(first);
}

}  // namespace

std::uint64_t remove_written(const RunState& run, const RemovalItem& item,
                             const std::atomic<int>* stop, ProgressTick* tick) {
  if (item.files == RemoveFiles::None) return 0;
  const DirectoryLayout& layout = run.layout_of(item.point);
  const DirectoryLayout* where = layout.flat() ? nullptr : &layout;
  if (item.files == RemoveFiles::Records) {
    return remove_created(run.at(item.dir), run.pattern, *item.records, stop, where, tick);
  }
  return remove_files(run.at(item.dir), run.pattern, run.world_plan.removes, stop,
                      run.config.overwrite, where, tick);
}

void remove_layout_directories_of(const RunState& run, const RemovalItem& item,
                                  const std::atomic<int>* stop) {
  if (item.directories == RemoveDirectories::Listed) {
    remove_layout_directories(run.at(item.dir), *item.made, stop, item.only_empty);
    return;
  }
  if (item.directories != RemoveDirectories::Layout) return;
  const PointSpec& spec = run.points[item.point];
  const DirectoryLayout& layout = run.layout_of(item.point);
  const int rank = run.world_rank;
  if (layout.flat() || rank >= spec.ranks) return;
  remove_layout_directories(run.at(item.dir), layout.rank_directories(rank), stop);
}

namespace {

// The timed part of the removal: every rank's share of the run's files (the directories go
// after it, untimed). Its figures go into report.cleanup on rank 0.
class RemovalPhase final : public TimedPhase {
 public:
  RemovalPhase(RunState& run, PhaseAgreement& phases, RunReport& report)
      : TimedPhase("removal phase", &phases.world()), run_(run), phases_(phases), report_(report) {}

  void before() override {
    if (!run_.progress.on()) return;
    live_.emplace(run_.progress, run_.progress_out.get(), phases_.world(),
                  ProgressSubject{ProgressPhase::Removal, "", false, 0, 0},
                  run_.ledger.names_to_remove(run_.world_plan.removes.count));
    tick_.emplace([this](std::uint64_t files) { live_->poll(visited_ += files); });
  }
  void work(std::string& failure) override {
    remove_every_file(run_, removed_, failure, tick_ ? &*tick_ : nullptr);
    if (tick_) tick_->flush();
    run_.dir_files_removed = run_.ledger.cleans_dir() && failure.empty() && !signalled();
  }
  void after(const PhaseClock& clock, std::string& failure) override {
    if (live_) guarded([&] { live_->finish(visited_); }, failure);
    const double elapsed_s = phases_.span_on_root(phases_.world(), clock);
    removed_ = comm::sum_to_root(phases_.world(), removed_);
    report_.cleanup = {true, elapsed_s, removed_, false, true};
  }

 private:
  RunState& run_;
  PhaseAgreement& phases_;
  RunReport& report_;
  std::uint64_t removed_ = 0;
  std::optional<PhaseProgress> live_;
  std::optional<ProgressTick> tick_;
  std::uint64_t visited_ = 0;
};

// A signal after a part of the removal: cut short, not failed (the report said "FAILED" with
// no error before); what is left becomes trash (finish_interrupted).
bool cut_short_by_signal(RunState& run, PhaseAgreement& phases, RunReport& report) {
  if (!interrupted_now(run, phases)) return false;
  report.cleanup.failed = false;
  return true;
}

}  // namespace

// Without --cleanup, after a remove phase emptied --dir (CreationLedger::dir_emptied): the
// layout directories this rank made there, each only while empty; untimed, as the directories
// always are, and with no removal phase of its own (there is no file to time).
bool remove_emptied_layout(RunState& run, PhaseAgreement& phases) {
  const std::optional<RemovalItem> dir = run.ledger.dir_item();
  if (!dir || dir->directories == RemoveDirectories::None) return true;
  std::string failure;
  phases.enter("removing the layout directories of the emptied --dir");
  guarded([&] { remove_layout_directories_of(run, *dir, &interrupt_signal()); }, failure);
  return phases.agree_after("removing the layout directories of the emptied --dir", failure);
}

bool remove_files_and_directories(RunState& run, PhaseAgreement& phases, RunReport& report) {
  run.under_way = {"removal", "", false, 0};  // of no step: a signal cuts the removal only
  if (!run.ledger.anything_to_remove()) return remove_emptied_layout(run, phases);
  RemovalPhase phase(run, phases, report);
  if (!phases.timed_phase(phase)) {
    // Some file could not be removed (said): each rank still removes the layout directories
    // that are empty; the ones that hold what is left stay, without a message of their own.
    std::string already_said;
    phases.enter("removing the empty layout directories");
    remove_every_layout_directory(run, already_said);
    return false;
  }
  if (cut_short_by_signal(run, phases, report)) return true;
  // Untimed: the layouts' directories, each rank its own, now that no file is left in them.
  std::string failure;
  phases.enter("removing layout directories");
  remove_every_layout_directory(run, failure);
  if (!phases.agree_after("removing layout directories", failure)) return false;
  if (cut_short_by_signal(run, phases, report)) return true;
  if (phases.root_step([&] { remove_directories(run); }, "removing the scratch directories") !=
      kExitOk) {
    return false;
  }
  interrupted_now(run, phases);  // a signal now: the removal completed all the same
  report.cleanup.failed = false;
  return true;
}

}  // namespace mpiwrite
