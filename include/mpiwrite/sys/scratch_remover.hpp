#pragma once
// Removing given-up scratch directories in a process that outlives the ranks. POSIX only.
//
// A launcher gives an interrupted job a few seconds before it kills the ranks (mpirun: about
// 2 s after forwarding SIGTERM), and removing hundreds of thousands of files takes longer. So
// an interrupted run prints its report first, renames its scratch directory to a trash name
// (run_directory.hpp: trash_path), and leaves the removal to `rm -rf` started here in a
// session of its own: a launcher that kills the ranks' processes or process groups does not
// kill it. A batch system that kills everything of the job (Slurm's cgroups) does; then the
// next run in the same --dir starts the removal again (find_trash).

#include <string>
#include <vector>

namespace mpiwrite {

// What the background removal works in: the directory the run holds (`fd`, so a --dir renamed
// or replaced meanwhile changes nothing: the paths are taken relative to it), and what the
// name `then_rmdir` must still lead to ("DEVICE:INODE", as stat -c %d:%i prints) to be removed.
struct HeldForRemoval {
  int fd = -1;           // -1: the paths are used as they are
  std::string identity;  // empty: then_rmdir is removed without the check
};

// Starts the removal of `paths` (each recursively, never leaving the file system) in the
// background, then of the directory `then_rmdir` if given, empty and still `held.identity`,
// and returns at once. Returns an empty string, or why it could not start.
std::string remove_in_background(const std::vector<std::string>& paths,
                                 const std::string& then_rmdir = {},
                                 const HeldForRemoval& held = {});

// Starts rmdir of every one of `dirs` (relative to the held directory `dir_fd`, in order:
// children before parents; one that is not empty stays) in the background, as above, and
// returns at once. For an interrupted run's layout directories in --dir: 10^6 of them take
// longer than a launcher waits before it kills the ranks. Returns "" or why it could not start.
std::string remove_directories_in_background(int dir_fd, const std::vector<std::string>& dirs);

}  // namespace mpiwrite
