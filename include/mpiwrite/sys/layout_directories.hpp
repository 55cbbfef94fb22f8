#pragma once
// Creating and removing the directories of a layout (core/directory_layout.hpp) under a run
// directory. POSIX only. The coordinator calls these in an untimed step of its own before the
// write phase (app/steps.cpp), and after the files' removal (app/removal.cpp). Every directory
// is reached from `base` one component at a time with O_NOFOLLOW and made or removed in its
// parent's descriptor (mkdirat, unlinkat): a symbolic link swapped in for a layout directory
// during the run is refused, never followed.

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

// Opens `relative` (a layout directory, "rank03/d007") under the directory `base_fd`, one
// component at a time, each with O_DIRECTORY | O_NOFOLLOW: a symbolic link anywhere on the
// way is refused, never followed. `wait_for_missing` (writers, whose directories were all made
// and agreed on): ENOENT is retried every 10 ms for up to 2 s. An invalid descriptor and errno
// on failure. The one walk that writers, verify, removal and the layout's own mkdir/rmdir use.
UniqueFd open_directory_beneath(int base_fd, std::string_view relative,
                                bool wait_for_missing = false);

// mkdir base/dir for every dir of `dirs` in order (parents first, as rank_directories gives
// them), mode 0755. Each one created is appended to `made`, also when a later one fails, so
// that removal takes exactly what this run made. With `existing_ok` (--overwrite, whose later
// repetitions find their directories) a name that already is a directory, not a symbolic
// link, is accepted and not recorded. Throws IoError naming the path on any other failure.
// Stops early, with what it made in `made`, once `stop` (if given) is non-zero: a layout of
// 10^6 directories takes minutes, and a signal must not wait for it.
void make_layout_directories(const DirectoryAt& base, const std::vector<std::string>& dirs,
                             std::vector<std::string>& made, bool existing_ok = false,
                             const std::atomic<int>* stop = nullptr);

// rmdir base/dir for every dir of `made`, last first (children before parents). A name already
// gone (or whose parent is) is skipped. Every one is tried; returns the count removed, or
// throws the first IoError, naming its path (a directory that still holds something is never
// emptied here, and is kept with its parents; with `keep_nonempty` that is no failure). Stops
// early once `stop` (if given) is non-zero.
std::uint64_t remove_layout_directories(const DirectoryAt& base,
                                        const std::vector<std::string>& made,
                                        const std::atomic<int>* stop = nullptr,
                                        bool keep_nonempty = false);

}  // namespace mpiwrite
