// What this run created, on this rank (creation_ledger.hpp).
#include "mpiwrite/core/creation_ledger.hpp"

#include <iterator>
#include <utility>

namespace mpiwrite {

CreationLedger::CreationLedger(const StepSchedule& schedule, std::string dir, bool creates_files,
                               bool cleanup)
    : schedule_(schedule), dir_(std::move(dir)), creates_files_(creates_files), cleanup_(cleanup) {}

void CreationLedger::run_directory_made() { run_directory_made_ = true; }

void CreationLedger::scratch_root_made() { scratch_root_made_ = true; }

void CreationLedger::removes_in_every_step(bool files, bool tree) {
  files_removed_in_steps_ = files;
  tree_removed_in_steps_ = tree;
}

void CreationLedger::step_started(const Step& step) {
  ++started_;
  last_dir_ = step.dir;
  last_files_removed_ = last_tree_removed_ = false;
  open_ = OpenStep{step.dir, step.scratch, {}};
  if (!step.scratch) dir_touched_ = true;
}

void CreationLedger::layout_directories_made(const Step& step, std::vector<std::string> made) {
  if (step.scratch || !creates_files_) return;
  if (dir_layout_made_.empty()) {
    dir_layout_made_ = std::move(made);  // 10^6 names: not copied
  } else {
    dir_layout_made_.insert(dir_layout_made_.end(), std::make_move_iterator(made.begin()),
                            std::make_move_iterator(made.end()));
  }
}

void CreationLedger::step_completed() {
  if (!open_) return;
  if (!open_->scratch) dir_complete_ = true;
  open_.reset();
}

void CreationLedger::step_cut_short(CreatedFiles mine) {
  if (!open_) return;
  if (creates_files_) cut_short_[open_->dir] = std::move(mine);
  step_completed();
}

void CreationLedger::step_stopped(CreatedFiles mine) {
  if (open_ && creates_files_) open_->mine = std::move(mine);
}

const CreatedFiles* CreationLedger::cut_short_in(const std::string& dir) const {
  const auto found = cut_short_.find(dir);
  return found == cut_short_.end() ? nullptr : &found->second;
}

const CreatedFiles* CreationLedger::records_of(const std::string& dir) const {
  if (open_ && open_->dir == dir) return &open_->mine;
  return cut_short_in(dir);
}

bool CreationLedger::cleans_dir() const {
  return cleanup_ && (dir_complete_ || (open_ && !open_->scratch));
}

// A directory whose step is open holds what its writers recorded; one whose step completed
// every name, unless --time-limit cut it short (then its records). In --dir, a later step
// (--overwrite) that did not complete does not undo an earlier one that did.
RemovalItem CreationLedger::item_of(const Step& step) const {
  RemovalItem item;
  item.point = step.point;
  item.dir = step.dir;
  item.scratch = step.scratch;
  if (!creates_files_) return item;  // the step's directory only
  const bool completed = step.scratch ? !(open_ && open_->dir == step.dir) : dir_complete_;
  const CreatedFiles* records = completed ? cut_short_in(step.dir) : &open_->mine;
  item.files = records != nullptr ? RemoveFiles::Records : RemoveFiles::PlanBlock;
  item.records = records;
  if (step.scratch) {
    item.directories = RemoveDirectories::Layout;
  } else {
    item.directories = RemoveDirectories::Listed;
    item.made = &dir_layout_made_;
  }
  // The later phases removed them already (the step that started last only if it got there).
  const bool last = step.dir == last_dir_;
  if (files_removed_in_steps_ && (!last || last_files_removed_)) {
    item.files = RemoveFiles::None;
    item.records = nullptr;
  }
  if (tree_removed_in_steps_ && (!last || last_tree_removed_)) {
    item.directories = RemoveDirectories::None;
    item.made = nullptr;
  }
  return item;
}

bool CreationLedger::dir_emptied() const {
  const bool open_in_dir = open_ && !open_->scratch;
  return !cleanup_ && creates_files_ && files_removed_in_steps_ && dir_touched_ && !open_in_dir &&
         (last_dir_ != dir_ || last_files_removed_);
}

std::optional<RemovalItem> CreationLedger::dir_item() const {
  const bool emptied = dir_emptied();
  if (!cleans_dir() && !emptied) return std::nullopt;
  Step in_dir;  // a plain run's one point: with several, every step is a scratch step
  in_dir.dir = dir_;
  RemovalItem item = item_of(in_dir);
  item.only_empty = emptied;
  return item;
}

std::uint64_t CreationLedger::names_to_remove(std::uint64_t plan_block) const {
  std::uint64_t names = 0;
  for_each_removal_item([&](const RemovalItem& item) {
    if (item.files == RemoveFiles::PlanBlock) names += plan_block;
    if (item.files == RemoveFiles::Records) names += item.records->files_taken();
  });
  return names;
}

}  // namespace mpiwrite
