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

// Starts the removal of `paths` (each recursively, never leaving the file system) in the
// background, then of the directory `then_rmdir` if given and empty, and returns at once.
// Returns an empty string, or why it could not start.
std::string remove_in_background(const std::vector<std::string>& paths,
                                 const std::string& then_rmdir = {});

}  // namespace mpiwrite
