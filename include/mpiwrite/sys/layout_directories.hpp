#pragma once
// Creating and removing the directories of a layout (core/directory_layout.hpp) under a run
// directory. POSIX only. Not wired into the run yet (issue 13 §2 step 3): the coordinator is to
// call these in an untimed step of their own before the write phase, and after the files'
// removal.

#include <cstdint>
#include <string>
#include <vector>

namespace mpiwrite {

// mkdir base/dir for every dir of `dirs` in order (parents first, as rank_directories gives
// them), mode 0755. Each one created is appended to `made`, also when a later one fails, so
// that removal takes exactly what this run made. With `existing_ok` (--overwrite, whose later
// repetitions find their directories) a name that already is a directory, not a symbolic
// link, is accepted and not recorded. Throws IoError naming the path on any other failure.
void make_layout_directories(const std::string& base, const std::vector<std::string>& dirs,
                             std::vector<std::string>& made, bool existing_ok = false);

// rmdir base/dir for every dir of `made`, last first (children before parents). A name already
// gone is skipped. Returns the count removed; throws IoError naming the path otherwise (a
// directory that still holds something is never emptied here).
std::uint64_t remove_layout_directories(const std::string& base,
                                        const std::vector<std::string>& made);

}  // namespace mpiwrite
