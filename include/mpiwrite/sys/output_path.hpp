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
// A file replaced atomically is replaced in the directory its path led to when the run began:
// that directory is held by a descriptor from the check to the write (HeldOutputDirectory), so
// a directory renamed during the run, a symbolic link to another directory in its place, never
// gets the report (issue 21 §1). Written in place (a device, a FIFO, a /proc link, a dangling
// link) creates no name, and nothing is held.
//
// POSIX only; no MPI.

#include <string>

#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/report_outputs.hpp"
#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

struct OutputTarget {
  enum class Kind {
    Absent,   // nothing there (the given path, or a dangling link's end)
    Regular,  // a regular file
    Directory,
    Socket,
    Special,   // a device or FIFO
    ProcLink,  // a symbolic link on procfs: its "target" is a kernel object, not a path
  };
  Kind kind = Kind::Absent;
  std::string file;           // the end of the symbolic links (the /proc link itself for ProcLink)
  bool through_link = false;  // FILE itself was a symbolic link
  // Replaced atomically (a temporary file + rename in file's directory), else written in place.
  bool replaced() const { return kind == Kind::Regular || (kind == Kind::Absent && !through_link); }
};

// The directory a report file goes into, held by a descriptor opened once (rank 0): -o's
// directory (the real one, after FILE's own links), or the directory beside --dir that gets the
// interrupted-report copy. Empty (fd -1) when nothing is held.
struct HeldOutputDirectory {
  UniqueFd fd;
  DirectoryIdentity identity;
  std::string path;       // the directory by the path that led to it when it was opened
  std::string name;       // the file's name in it
  bool deferred = false;  // -o in a --dir this run creates: held once --dir is made
  bool held() const { return static_cast<bool>(fd); }
};

// Opens and holds the directory the report file `file` goes into (the end of its links), when
// it is replaced (OutputTarget::replaced); else nothing. Throws IoError naming `file`.
HeldOutputDirectory hold_output_directory(const std::string& file);

// Opens and holds `dir_path`, the directory the file `name` will be created in. Throws IoError.
HeldOutputDirectory hold_directory_for(const std::string& dir_path, const std::string& name);

// Opens and holds the parent of the directory `dir` (absolute), checking that `dir`'s name in
// it is the directory `identity` (else DirectoryReplaced): where the interrupted-report copy
// goes when --cleanup is to remove a --dir the run made. Throws IoError.
HeldOutputDirectory hold_parent_of(const std::string& dir, const DirectoryIdentity& identity);

// Whether `held.path` still leads to the held directory (following links, as when it was
// opened); if not, throws std::runtime_error "WHAT: its directory PATH is no longer ...; the
// report was written into the directory it named when the run began". Call after the write.
void expect_output_directory(const HeldOutputDirectory& held, const std::string& what);

// Follows FILE's symbolic links (at most 40, like the kernel). Throws UsageError naming FILE
// when a part of the path cannot be looked up (not a directory, permission, loop, too long).
OutputTarget follow_output(const std::string& file);

// The same, the UsageError starting with `named` ("--json r.json") instead of "--output FILE".
OutputTarget follow_output_named(const std::string& file, const std::string& named);

// The whole check of --output before the run, as UsageError naming the path the user gave:
// the target is usable (not a directory or socket; its directory exists, is searchable and
// writable on a writable file system, or it is itself writable when written in place), and it
// is not --dir itself, not a file this run writes into --dir, and not inside a --dir that
// --cleanup removes after the run (a --dir mpiwrite creates). A report going into a --dir that
// mpiwrite is about to create (without --cleanup) is fine. Call before prepare_directory.
// Returns the directory the report file will be created in, held from now on (nothing held
// when it is written in place; `deferred` when it is a --dir still to be made: then call
// hold_output_directory once it is).
HeldOutputDirectory check_output_path(const RunConfig& config);

// The same for any of the report's files (core/report_outputs.hpp), the message naming its
// option and FILE as given ("--csv r.csv: ..."). A file in another format than standard
// output's may not be the regular file standard output writes to (`> r.txt --json r.txt`).
HeldOutputDirectory check_output_path(const RunConfig& config, const ReportOutput& output);

// Every file of `outputs` checked (the one above), in order, and no two of them the same file
// by another name (a link, "..", a linked directory): a regular file, or a new name in one
// directory, named twice is a UsageError naming both. Devices and FIFOs may be named twice
// (--json /dev/null --csv /dev/null). Returns each output's held directory, in order.
std::vector<HeldOutputDirectory> check_output_paths(const RunConfig& config,
                                                    const std::vector<ReportOutput>& outputs);

// Standard output redirected into a file this run writes (`mpiwrite -d D >> D/write3.txt`):
// UsageError, before the run. Seen only where the process's own standard output is that file
// (a plain process, or a launcher that gives rank 0 the file itself); under mpirun rank 0
// writes to a pipe and mpirun to the file, which no rank can see.
void check_standard_output(const RunConfig& config);

}  // namespace mpiwrite
