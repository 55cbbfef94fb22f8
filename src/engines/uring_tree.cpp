// The uring engine's tree phases (Writer::run_tree): one thread's block of one level of the
// tree, queue_depth directories in flight, each one IORING_OP_MKDIRAT (0755) or
// IORING_OP_UNLINKAT (AT_REMOVEDIR) in its parent directory.
//
// Never through a symbolic link: a level's paths have several components ("rank1/t0/t2"), and
// a MKDIRAT or UNLINKAT of the whole path relative to the run directory would follow a link
// put in place of "rank1/t0" out of --dir (neither takes RESOLVE_* flags; only OPENAT2 does,
// and its descriptor, unknown until it completes, cannot be linked to the MKDIRAT, which
// refuses fixed files). So the parent is opened as every layout directory is, one component
// at a time with O_DIRECTORY | O_NOFOLLOW (open_directory_beneath), and held while its
// children are in flight; only the last component goes to the kernel as a name, and neither
// MKDIRAT nor UNLINKAT follows a link there (EEXIST, ENOTDIR). A level lists a parent's
// children together, so one open serves a parent's `branch` children; like the write loop's
// directories, that open is the phase's cost, outside any directory's own time.
//
// What a thread did of its block must be a prefix of it (Writer::run_tree's `done` is built
// from the count): with several directories in flight, those after a failed one may still
// succeed. They are not counted; the ones made are removed again (the run records, and later
// removes, only what it counted), and the ones removed are gone, which a later removal skips.
// Their latencies stay in the histograms of a phase that failed.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "mpiwrite/sys/layout_directories.hpp"
#include "uring_engine.hpp"
#include "uring_tag.hpp"

namespace mpiwrite {

using uring_tag::ItemOp;
using uring_tag::tag;

void UringEngine::run_tree(Phase phase, const WriteTarget& target,
                           const std::vector<std::string>& level, const Progression& part,
                           SliceResult& result, std::atomic<bool>& stop) {
  if (!counts_directories(phase)) {
    return record_failure(result, stop, wrong_phase_failure(target, phase, "run_tree"));
  }
  begin(target, result, stop);
  if (lacks_operation(phase)) return;
  phase_ = phase;
  if (parents_.empty()) parents_.resize(slots_.size());  // once: a parent per slot at most
  // However this returns, the parents are closed: the next level has others.
  struct CloseParents {
    UringEngine& engine;
    ~CloseParents() {
      for (Parent& p : engine.parents_) {
        p.fd = UniqueFd();
        p.path.clear();
        p.users = 0;
      }
      engine.last_parent_ = kRunDirectory;
    }
  } close_parents{*this};
  tree_done_.assign(part.count, 0);  // reuses its memory: a level, not a directory
  const std::uint64_t files_before = result.files;
  std::uint64_t i = 0;
  for (;;) {
    while (i < part.count && !free_slots_.empty() && !stop.load(std::memory_order_relaxed) &&
           !recipe_.interrupted() && start_directory(phase, level[part.at(i)], i)) {
      ++i;
    }
    if (free_slots_.size() == slots_.size()) break;  // nothing in flight
    if (!submit_and_complete(&UringEngine::complete_directory)) return;
  }
  const auto prefix = static_cast<std::uint64_t>(
      std::find(tree_done_.begin(), tree_done_.end(), 0) - tree_done_.begin());
  if (result.files - files_before == prefix) return;
  result.files = files_before + prefix;
  publish_files_done(target, result.files);
  if (phase != Phase::TreeCreate) return;
  for (std::uint64_t k = prefix; k < part.count; ++k) {
    if (tree_done_[k] == 0) continue;
    const std::string& path = level[part.at(k)];
    const std::size_t slash = path.rfind('/');
    UniqueFd parent;
    if (slash != std::string::npos) {
      parent = open_directory_beneath(target.dir_fd, std::string_view(path).substr(0, slash));
      if (!parent) continue;  // the failure already recorded says why the run stopped
    }
    (void)::unlinkat(parent ? parent.get() : target.dir_fd,
                     path.c_str() + (slash == std::string::npos ? 0 : slash + 1), AT_REMOVEDIR);
  }
}

// The entry holding `parent` (a path below the run directory) open, opened now if it is not
// the last one used; -1 and errno if it cannot be opened. A free entry always exists: there
// are as many as slots, and this runs for a free slot.
int UringEngine::parent_of(std::string_view parent) {
  if (last_parent_ != kRunDirectory) {
    Parent& last = parents_[last_parent_];
    if (last.fd && last.path == parent) {
      ++last.users;
      return static_cast<int>(last_parent_);
    }
  }
  const auto entries = static_cast<unsigned>(parents_.size());
  unsigned p = last_parent_ == kRunDirectory ? 0 : (last_parent_ + 1) % entries;
  while (parents_[p].users != 0) p = (p + 1) % entries;
  Parent& entry = parents_[p];
  entry.path.assign(parent);
  // A parent another rank made in the level before may show up late on a network file
  // system (layout_directories.cpp): the tree's creation waits for it as writers wait for
  // their directories.
  entry.fd = open_directory_beneath(target_->dir_fd, parent, phase_ == Phase::TreeCreate);
  if (!entry.fd) {
    entry.path.clear();
    return -1;
  }
  entry.users = 1;
  last_parent_ = p;
  return static_cast<int>(p);
}

// False: its parent could not be opened (recorded as the failure of its mkdir or rmdir).
bool UringEngine::start_directory(Phase phase, const std::string& path, std::uint64_t position) {
  const bool making = phase == Phase::TreeCreate;
  const std::size_t slash = path.rfind('/');
  unsigned parent = kRunDirectory;
  int dir_fd = target_->dir_fd;
  const char* leaf = path.c_str();
  if (slash != std::string::npos) {
    const int entry = parent_of(std::string_view(path).substr(0, slash));
    if (entry < 0) {
      record_failure(
          *result_, *stop_,
          file_failure(target_->dir_path, path.c_str(), making ? "mkdir" : "rmdir", errno));
      return false;
    }
    parent = static_cast<unsigned>(entry);
    dir_fd = parents_[parent].fd.get();
    leaf += slash + 1;
  }
  const std::uint32_t s = free_slots_.back();
  free_slots_.pop_back();
  Slot& slot = slots_[s];
  slot.busy = true;
  slot.item = path.c_str();  // `level` outlives the call
  slot.parent = parent;
  slot.index = position;
  slot.failed = slot.delayed = false;
  slot.pending = 1;
  const std::uint16_t gen = ++slot.generation;
  io_uring_sqe* sqe = take_sqe();
  if (making) {
    io_uring_prep_mkdirat(sqe, dir_fd, leaf, 0755);
    sqe->user_data = tag(ItemOp::Mkdir, s, gen);
  } else {
    io_uring_prep_unlinkat(sqe, dir_fd, leaf, AT_REMOVEDIR);
    sqe->user_data = tag(ItemOp::Rmdir, s, gen);
  }
  starting_.push_back(s);
  return true;
}

void UringEngine::complete_directory(const io_uring_cqe& cqe, Clock::time_point now) {
  const std::uint32_t s = uring_tag::slot_of(cqe.user_data);
  Slot& slot = slots_[s];
  if (!slot.busy || uring_tag::generation_of(cqe.user_data) != slot.generation ||
      slot.pending == 0) {
    return;  // stale
  }
  slot.pending = 0;
  const bool delay = uring_tag::op_of<ItemOp>(cqe.user_data) == ItemOp::Delay;
  if (delay && cqe.res < 0 && cqe.res != -ETIME) {  // expired (-ETIME) is its success
    fail_item(s, "delay", -cqe.res);
  } else if (!delay && cqe.res < 0) {
    fail_item(s, phase_ == Phase::TreeCreate ? "mkdir" : "rmdir", -cqe.res);
  } else {
    if (!delay) tree_done_[slot.index] = 1;  // made or removed, whatever the delay does
    if (queue_item_delay(s)) return;         // --slow-rank: the directory ends after it
    slot.times.end = now;
    count_item(s);
  }
  if (slot.parent != kRunDirectory) --parents_[slot.parent].users;
  slot.item = nullptr;
  release_slot(s);
}

}  // namespace mpiwrite
