#pragma once
// What stands at -o/--output FILE, and whether the report can go there. Checked on rank 0
// before anything is created, so a typo never costs a finished run; looked at again when the
// report is written (report_output.hpp). The rules (README, docs/errors.md "The report's outputs"):
//
//   FILE absent or a regular file    replaced atomically: a temporary file in its directory,
//                                    fsync, rename (an existing file's mode is kept)
//   a symbolic link                  followed to its end: a regular file there is replaced the
//                                    same way in ITS directory, the link kept; a dangling link
//                                    is written through (creating its target)
//   a device, a FIFO, or a link kept by /proc (/dev/stdout, /dev/fd/N, /proc/self/fd/N)
//                                    opened and written in place, like a shell's `>`: never
//                                    replaced by a regular file
//   a directory, a socket            refused
//
// POSIX only; no MPI.

#include <string>

#include "mpiwrite/core/config.hpp"

namespace mpiwrite {

struct OutputTarget {
  enum class Kind {
    Absent,     // nothing there (the given path, or a dangling link's end)
    Regular,    // a regular file
    Directory,
    Socket,
    Special,    // a device or FIFO
    ProcLink,   // a symbolic link on procfs: its "target" is a kernel object, not a path
  };
  Kind kind = Kind::Absent;
  std::string file;   // the end of the symbolic links (the /proc link itself for ProcLink)
  bool through_link = false;  // FILE itself was a symbolic link
  // Replaced atomically (a temporary file + rename in file's directory), else written in place.
  bool replaced() const {
    return kind == Kind::Regular || (kind == Kind::Absent && !through_link);
  }
};

// Follows FILE's symbolic links (at most 40, like the kernel). Throws UsageError naming FILE
// when a part of the path cannot be looked up (not a directory, permission, loop, too long).
OutputTarget follow_output(const std::string& file);

// The whole check of --output before the run, as UsageError naming the path the user gave:
// the target is usable (not a directory or socket; its directory exists, is searchable and
// writable on a writable file system, or it is itself writable when written in place), and it
// is not --dir itself, not a file this run writes into --dir, and not inside a --dir that
// --cleanup removes after the run (a --dir mpiwrite creates). A report going into a --dir that
// mpiwrite is about to create (without --cleanup) is fine. Call before prepare_directory.
void check_output_path(const RunConfig& config);

// Standard output redirected into a file this run writes (`mpiwrite -d D >> D/write3.txt`):
// UsageError, before the run. Seen only where the process's own standard output is that file
// (a plain process, or a launcher that gives rank 0 the file itself); under mpirun rank 0
// writes to a pipe and mpirun to the file, which no rank can see.
void check_standard_output(const RunConfig& config);

}  // namespace mpiwrite
