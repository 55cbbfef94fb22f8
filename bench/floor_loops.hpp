#pragma once
// The floor's per-item loops (bench/floor.cpp): for each phase of a small file's life the
// plainest correct loop of system calls over a range of items, and nothing else: no clock, no
// histogram, no allocation. The same calls mpiwrite's posix engine makes per item:
//   write:       openat(O_WRONLY|O_CREAT|O_EXCL), LINES write()s or one, close
//   stat:        statx(AT_SYMLINK_NOFOLLOW|AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS)
//   read:        openat(O_RDONLY|O_NOFOLLOW), read() until it returns 0, close
//   remove:      unlinkat(0)
//   tree-create: mkdirat(0755);  tree-remove: unlinkat(AT_REMOVEDIR)  (and, with
//                TreeWalk::Safe, an openat(O_NOFOLLOW) + close per new parent component)
// A failed call prints "NAME: strerror" and ends the process with exit status 1 (the parent
// sees it and fails the run): a floor that skipped a failed item would be too fast.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mpiwrite_floor {

struct Range {
  std::uint64_t first, count;
};

// Block split of [first, first + count) into `parts`; the first count % parts get one more
// (mpiwrite's default --partition block, for ranks and for the threads of a rank).
Range block(Range whole, std::uint64_t parts, std::uint64_t part);

// In the order they run, as mpiwrite's --phases runs them.
enum class Phase { TreeCreate, Write, Stat, Read, Remove, TreeRemove };
inline constexpr std::string_view kPhaseNames[] = {"tree-create", "write",  "stat",
                                                   "read",        "remove", "tree-remove"};
inline constexpr int kPhases = 6;

// What every file holds: LINES copies of LINE (TEXT + '\n'), written line by line or whole.
struct Content {
  std::uint64_t lines = 0;
  std::string line;
  std::string whole;  // empty in line mode
  bool line_mode = true;
  std::uint64_t size_bytes() const { return lines * line.size(); }
};

// Files are "write<index>.txt" in dir_fd, index in [range.first, range.first + range.count).
void write_files(int dir_fd, const Content& content, Range range);
void stat_files(int dir_fd, Range range);
// `buffer` (at least 1 byte, made before the phase) takes each read; a file whose bytes are
// not `expected_bytes` in all is a failure (the least check that the loop read the file).
void read_files(int dir_fd, Range range, std::span<char> buffer, std::uint64_t expected_bytes);
void remove_files(int dir_fd, Range range);

// How a tree phase reaches a directory's parent. Path: the whole relative path goes to
// mkdirat/unlinkat, which the kernel walks, following links: the least system calls, but not
// what mpiwrite may do (it never follows a link out of --dir). Safe: mpiwrite's way (its
// TreeParents): the parent walked one component at a time with openat(O_NOFOLLOW), the
// descriptors of the components shared with the previous parent kept, the last component made
// or removed in the parent's descriptor: about one openat and one close per BRANCH directories.
enum class TreeWalk { Path, Safe };

// Directories: `paths` relative to dir_fd, the items [range.first, range.first + range.count)
// of one level (a level's parents exist, a level's children are gone, before it starts).
void make_directories(int dir_fd, const std::vector<std::string>& paths, Range range,
                      TreeWalk walk);
void remove_directories(int dir_fd, const std::vector<std::string>& paths, Range range,
                        TreeWalk walk);

// The tree of process `process`: level 0 is its own directory "rank<process>" (mpiwrite's
// --layout rank directory, zero-padded to the width of processes - 1 as there), then `depth`
// levels of `branch` subdirectories "t<k>" each (k zero-padded to the width of branch - 1, as
// mpiwrite's --tree-depth/--branch name them), parents first.
std::vector<std::vector<std::string>> tree_levels(unsigned process, unsigned processes,
                                                  unsigned depth, unsigned branch);

}  // namespace mpiwrite_floor
