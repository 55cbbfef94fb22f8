#pragma once
// The directories a run writes into, and removing exactly what the run wrote. POSIX only.
//
// Where each repetition writes is planned by StepSchedule (schedule.hpp): fresh scratch directories
// that are emptied only after the last repetition, so no repetition creates files right after
// a removal (ext4 then avoids reusing freed inodes and creates are 5-30x slower for about a
// minute).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/config.hpp"
#include "mpiwrite/file_namer.hpp"
#include "mpiwrite/progression.hpp"

namespace mpiwrite {

struct PreparedDirectory {
  std::string path;          // absolute
  bool created = false;      // mpiwrite made it, so --cleanup may remove it if empty
  std::string filesystem;
};

// Rank 0, before anything is written: creates DIR if missing (not its parents) and refuses
// (UsageError) when a plain run would create a name DIR already holds, unless overwrite, and
// when DIR is not a directory, a dangling symbolic link, or its parent is missing. Throws
// IoError when DIR cannot be created for another reason (permission, read-only, full).
PreparedDirectory prepare_directory(const RunConfig& config);

// The first name in `dir` that `pattern` generates for an index in [1, files], if any.
std::optional<std::string> find_existing_target(const std::string& dir,
                                                const FilePattern& pattern, std::uint64_t files);

// mkdir without parents; throws IoError (EEXIST included: a scratch name is never reused).
void make_directory(const std::string& path);

// Unlinks the names of `files` in `dir`. A name that is already gone is skipped. Returns the
// count removed; throws IoError on any other failure. Never follows a symlink: unlinkat
// removes a link, not its target.
std::uint64_t remove_files(const std::string& dir, const FilePattern& pattern,
                           const Progression& files);

// rmdir, which fails (and throws IoError) if anything is left inside.
void remove_directory(const std::string& path);

}  // namespace mpiwrite
