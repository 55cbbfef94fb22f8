#pragma once
// The directories a run writes into, and removing exactly what the run wrote. POSIX only.
//
// Where each repetition writes is planned by StepSchedule (schedule.hpp): fresh scratch directories
// that are emptied only after the last repetition, so no repetition creates files right after
// a removal (ext4 then avoids reusing freed inodes and creates are 5-30x slower for about a
// minute).

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/created_files.hpp"
#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/core/progress_tick.hpp"
#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

struct PreparedDirectory {
  std::string path;      // absolute
  bool created = false;  // mpiwrite made it, so --cleanup may remove it if empty
  std::string filesystem;
  UniqueFd fd;                 // held for the whole run: every step works relative to it
  DirectoryIdentity identity;  // what `path` must still lead to where the name is used again
};

// Rank 0, before anything is written, with no side effect (this is also all that --dry-run
// does to DIR): refuses (UsageError) a DIR that is not a directory, a dangling symbolic link,
// or whose parent is missing; a plain run that would create a name DIR already holds, unless
// --overwrite; and with --overwrite, a name that is not a regular file of its own (a symbolic
// link, a directory, a FIFO or device, a file with other hard links: rewriting it would write
// outside DIR or block), or any such name at all with --cleanup (which removes only what this
// run created). Returns whether DIR is missing (the run creates it). Throws IoError when DIR
// could not be created or read for another reason (permission, read-only).
// `plans`: the run's points (plan_points). A plain run's one point with a layout (--layout,
// --files-per-dir): the same for its directories: a plain run refuses any that exists
// already, --overwrite takes only real directories (no link) and checks the names in them as
// in DIR.
bool check_directory(const RunConfig& config, const std::vector<PointPlan>& plans);

// check_directory, then creates DIR if missing (not its parents).
PreparedDirectory prepare_directory(const RunConfig& config, const std::vector<PointPlan>& plans);

// mkdir without parents; throws IoError (EEXIST included: a scratch name is never reused).
void make_directory(const std::string& path, unsigned mode = 0755);
// mkdirat(parent_fd, name), and the new directory opened (O_NOFOLLOW) to be held; `path` names
// it in messages. Throws IoError.
UniqueFd make_directory_at(int parent_fd, const std::string& name, const std::string& path,
                           unsigned mode = 0755);

// Unlinks the names of `files` in `dir`, until done or `stop` (if given) is non-zero. A name
// that is already gone is skipped. Returns the count removed; throws IoError on any other
// failure. Never follows a symlink: unlinkat removes a link, not its target. Used only where
// the run knows it created every one of these names (a step that completed).
// `regular_only` (--overwrite, whose names may have been replaced between repetitions):
// only a regular file with one link is removed; anything else at a name stays.
// `layout` (nullptr: all in `dir`): which subdirectory of `dir` holds each file; a
// subdirectory that is gone holds nothing to remove. `tick` (if given): told of every name
// visited (--progress).
std::uint64_t remove_files(const DirectoryAt& dir, const FilePattern& pattern,
                           const Progression& files, const std::atomic<int>* stop = nullptr,
                           bool regular_only = false, const DirectoryLayout* layout = nullptr,
                           ProgressTick* tick = nullptr);

// The same for the files a writer recorded as created (a step that did not complete).
std::uint64_t remove_created(const DirectoryAt& dir, const FilePattern& pattern,
                             const CreatedFiles& created, const std::atomic<int>* stop = nullptr,
                             const DirectoryLayout* layout = nullptr, ProgressTick* tick = nullptr);

// rmdir, which fails (and throws IoError) if anything is left inside.
void remove_directory(const std::string& path);

// A run's scratch directory once the run has given it up (interrupted): renamed to this name
// in the same directory, so that what is left of it is plainly no run's data, and removed by a
// background process (scratch_remover.hpp) or, if that was killed too, by the next run in the
// same --dir.
std::string trash_path(const std::string& scratch_root);

// The run that made a scratch root holds an exclusive flock on ROOT/.lock for as long as it
// lives (the kernel drops it when the process dies, SIGKILL included), so a later run can
// tell a root whose run is gone from one still in use; the file says "host pid". Returns the
// descriptor (invalid if the
// file system cannot lock: then the root never looks abandoned).
UniqueFd lock_scratch_root(int root_fd);
// Unlinks ROOT/.lock (ROOT held as root_fd), so that ROOT can be removed.
void unlock_scratch_root(int root_fd, UniqueFd& lock);

// The given-up scratch directories of earlier runs in `dir`, as full paths: those named like
// trash_path's, and scratch roots whose run is gone (their .lock names a process of this host
// that no longer exists, and can be locked), renamed to a trash name first. Only directories (never
// links) owned by this user with mode 0700, as mpiwrite makes them.
std::vector<std::string> find_trash(const std::string& dir);

}  // namespace mpiwrite
