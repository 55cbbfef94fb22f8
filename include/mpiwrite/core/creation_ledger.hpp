#pragma once
// What this run created, on this rank: the one answer to "what may be removed". The steps
// only record into it (a step started; it completed, was cut short by --time-limit, or
// stopped; the directories made), and removal and the interrupt path only read it
// (for_each_removal_item, cleans_dir, removes_run_directory). Pure: no MPI, no system call.
//
// Memory: it grows neither with the files of a completed step nor with the repetitions. A
// completed step created every name 1..files, so it is walked again from the schedule as it
// started (the same seed) rather than listed; writers' records are kept only for the steps
// that did not create every name: those --time-limit cut short, and the one that stopped.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/created_files.hpp"
#include "mpiwrite/core/schedule.hpp"

namespace mpiwrite {

// How this rank removes the run's files from one directory.
enum class RemoveFiles {
  None,       // none is the run's (the engine creates no file)
  PlanBlock,  // every name 1..files is the run's: this rank removes its plan's block of them
  Records,    // only what this rank's writers recorded (RemovalItem::records)
};

// Which of this rank's layout directories go from one directory, once every rank's files are
// gone.
enum class RemoveDirectories {
  None,
  Layout,  // a scratch step's: all of this rank's directories of the point's layout
  Listed,  // in --dir: only those this rank made (RemovalItem::made), not those found there
};

// One directory the run wrote into, and how this rank removes what the run made in it.
struct RemovalItem {
  std::size_t point = 0;  // whose layout says where each file is (--dir: a plain run's one)
  std::string dir;        // as the schedule names it
  bool scratch = false;   // a step's scratch directory: itself the run's, removed last
  RemoveFiles files = RemoveFiles::None;
  const CreatedFiles* records = nullptr;  // with RemoveFiles::Records
  RemoveDirectories directories = RemoveDirectories::None;
  const std::vector<std::string>* made = nullptr;  // with RemoveDirectories::Listed
  // A directory that still holds something is kept without a failure: the run was not asked
  // to clean up (no --cleanup), it only tidies what its remove phase emptied (dir_emptied).
  bool only_empty = false;

  // Whether anything in it but the directory itself is the run's.
  bool holds_anything() const {
    return files != RemoveFiles::None || directories != RemoveDirectories::None;
  }
};

class CreationLedger {
 public:
  CreationLedger() = default;  // before the run is prepared: nothing was created
  // `schedule`: the run's, before its first step (a copy is walked again by the readers).
  // `dir`: --dir, as the schedule names it. `creates_files`: whether the engine creates files
  // and layout directories (the null engine does not: said here once, from make_engine's
  // side). `cleanup`: --cleanup, which makes what the run wrote into --dir its own to remove.
  CreationLedger(const StepSchedule& schedule, std::string dir, bool creates_files, bool cleanup);

  // ---- Recorded by the run as it goes.
  void run_directory_made();  // --dir did not exist: the run made it
  void scratch_root_made();   // known on every rank (rank 0 made it)
  // `step` begins: its scratch directory was made, or it is to write into --dir. Steps start
  // in the schedule's order; the one before it has ended (completed, cut short or stopped).
  void step_started(const Step& step);
  // This rank made `made` of the step's layout directories (in --dir those are remembered:
  // the others were there before; a scratch step's are all the run's, not listed).
  void layout_directories_made(const Step& step, std::vector<std::string> made);
  // The write phase of the step that started completed on every rank: every name is the run's.
  void step_completed();
  // The same, but --time-limit stopped a writer: only `mine` (this rank's writers' records)
  // holds the run's files.
  void step_cut_short(CreatedFiles mine);
  // The step failed or was interrupted: it stays open, with what this rank's writers created.
  void step_stopped(CreatedFiles mine);
  // --phases remove / tree-remove: the remove phase of the step that started last removed its
  // files on every rank (the world agreed), or its tree-remove phase its layout directories.
  // Every earlier step ran those phases to the end (a run stops at a phase that fails), so
  // with `in_every_step` (said once, before the first step) nothing of theirs is left to
  // remove either: the final removal walks none of their names.
  void removes_in_every_step(bool files, bool tree);
  void step_files_removed() { last_files_removed_ = true; }
  void step_tree_removed() { last_tree_removed_ = true; }

  // ---- Read by the steps, removal and the interrupt path.
  bool scratch_root() const { return scratch_root_made_; }
  // Whether the engine creates anything (files, layout directories) in a step's directory.
  bool engine_creates_files() const { return creates_files_; }
  // A step began writing into --dir (the first such one opens with O_EXCL: see steps.cpp).
  bool dir_touched() const { return dir_touched_; }
  // This rank's records of the step in `dir` when that step did not create every name (cut
  // short, or stopped), else null: --verify of a cut-short step goes by them.
  const CreatedFiles* records_of(const std::string& dir) const;
  // Whether the run's files in --dir are to be removed (--cleanup, and a step wrote, or began
  // writing, into it). The one place this is decided.
  bool cleans_dir() const;
  // Whether --dir itself goes at the end (--cleanup, and the run made it).
  bool removes_run_directory() const { return cleanup_ && run_directory_made_; }
  // Without --cleanup, whether --phases remove emptied --dir of the run's files: every step
  // into it ran its remove phase to the end (the world agreed; a step stopped or failed did
  // not). Nothing the run wrote there is then left to keep, so the directories it made there
  // go at the run's end too (mdtest removes its tree), each only while empty: a file someone
  // else put in one keeps it, its parents and --dir (RemovalItem::only_empty). The one place
  // this is decided.
  bool dir_emptied() const;
  // Whether --dir itself goes after the report when it is empty (dir_emptied, and the run
  // made it): a report written into it keeps it.
  bool removes_emptied_run_directory() const { return run_directory_made_ && dir_emptied(); }
  // Whether the removal has anything to do.
  bool anything_to_remove() const {
    return scratch_root_made_ || cleans_dir() || removes_run_directory();
  }
  // --dir's item, when cleans_dir() or dir_emptied() (then only_empty).
  std::optional<RemovalItem> dir_item() const;
  // Calls visit(const RemovalItem&) for every scratch step started, in the schedule's order,
  // then for --dir when dir_item() has one (cleans_dir(), or dir_emptied()).
  template <typename Visit>
  void for_each_removal_item(Visit&& visit) const {
    if (schedule_) {
      StepSchedule again = *schedule_;
      Step step;
      for (std::uint64_t i = 0; i < started_ && again.next(step); ++i) {
        if (step.scratch) visit(item_of(step));
      }
    }
    if (const std::optional<RemovalItem> dir = dir_item()) visit(*dir);
  }
  // The names visited by removing every item's files (--progress's total), this rank's plan
  // block of a completed step being `plan_block` names.
  std::uint64_t names_to_remove(std::uint64_t plan_block) const;

 private:
  // The step that started and has not completed (the open one), with its writers' records.
  struct OpenStep {
    std::string dir;
    bool scratch = false;
    CreatedFiles mine;
  };
  RemovalItem item_of(const Step& step) const;
  const CreatedFiles* cut_short_in(const std::string& dir) const;

  std::optional<StepSchedule> schedule_;  // as it was before the first step
  std::string dir_;
  bool creates_files_ = true;
  bool cleanup_ = false;
  bool run_directory_made_ = false;
  bool scratch_root_made_ = false;
  std::uint64_t started_ = 0;  // steps started: the first started_ of the schedule
  std::optional<OpenStep> open_;
  // The steps --time-limit cut short, by directory, with this rank's writers' records (a few
  // progressions per writer thread; one per chunk with --partition dynamic).
  std::map<std::string, CreatedFiles> cut_short_;
  bool dir_complete_ = false;  // a step into --dir completed: every name there is the run's
  bool dir_touched_ = false;
  std::vector<std::string> dir_layout_made_;  // in --dir, by this rank
  // --phases remove / tree-remove (removes_in_every_step), and whether the step that started
  // last (in last_dir_) got that far.
  bool files_removed_in_steps_ = false;
  bool tree_removed_in_steps_ = false;
  std::string last_dir_;
  bool last_files_removed_ = false;
  bool last_tree_removed_ = false;
};

}  // namespace mpiwrite
