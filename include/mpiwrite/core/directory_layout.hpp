#pragma once
// Directory layouts (issue 13 §2): in which directory, relative to the run directory, each file
// of a point lives, and which directories each rank creates before the write phase. Pure.
//
// --layout shared: every file in the run directory itself (""), as before layouts existed.
// --layout rank:   the files rank r writes in "rank<r>".
// --layout thread: the files thread t of rank r writes in "rank<r>/thread<t>".
// --files-per-dir N (N > 0) spreads each of those layout directories' files over
// subdirectories "d<k>" of at most N files: file number p (0-based, in the order its writer
// writes them) of a layout directory lives in d<p / N>. Names still come from the global index.
//
// --tree-depth D --branch B (D > 0; not with --files-per-dir) puts a tree below each of those
// layout directories, as mdtest -z/-b: D levels of B subdirectories "t<k>" each, files only in
// its B^D leaves ("rank1/t0/t2"). File number p of a layout directory of n files lives in leaf
// part_of(p, n, B^D, Block).part: contiguous blocks whose sizes differ by at most one, so a
// writer, who writes its files in that order, never goes back to a leaf it left and changes
// directory at most B^D - 1 times (round robin would change it every file, and a writer opens
// a directory again when it changes: sys/file_directories.hpp), and every leaf holds a file
// once n >= B^D. Leaf k's path spells k
// in base B, most significant level first. Every leaf of a tree is made, also those left
// without a file (n < B^D), as mdtest makes the whole tree; a layout directory without files
// gets no tree, as it is not made at all.
//
// Numbers are zero-padded to the width of the largest one of the point, so that directory
// listings sort: "rank03" with 12 ranks, "d007" with up to 1000 subdirectories, "t07" with
// --branch 12. The width of d<k> depends only on --files and N (the shared layout's count), so
// it is the same in every layout and point.
//
// The rank and thread layouts need a static partition (block or cyclic): with dynamic, a file's
// directory would depend on who took it, and verify and removal could not find it from the
// plan alone. validate() rejects that combination; the shared layout works with every partition
// (its subdirectories depend on the index only).

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {

// The slice of the configuration and the point a layout needs (made by plan_point,
// point_plan.hpp: its layout, ranks and threads; the run's files, partition, --files-per-dir
// and tree).
struct LayoutSpec {
  Layout layout = Layout::Shared;
  std::uint64_t files_per_dir = 0;  // 0: no subdirectories
  std::uint64_t files = 0;
  Partition partition = Partition::Block;
  int ranks = 1;
  unsigned threads = 1;
  unsigned tree_depth = 0;    // 0: no tree
  std::uint64_t branch = 1;   // subdirectories per tree directory (with tree_depth > 0)
  // The split of the files it follows: the rank plan's (rank_plan.hpp).
  WorkSplit work() const { return {files, partition, ranks, threads}; }
};

// Which directory holds a file, as numbers: cheap to compute for every file (no string), so
// that writers only build a path when the directory changes.
struct DirectoryKey {
  int rank = 0;
  unsigned thread = 0;
  // The d<k> subdirectory with --files-per-dir, the leaf (0 ... B^D - 1) with a tree, else 0.
  std::uint64_t bucket = 0;
  bool operator==(const DirectoryKey&) const = default;
};

// Who writes file `index` and where it falls in its layout directory.
struct FileLocation {
  int rank = 0;                // the rank layout's owner; 0 in the shared layout
  unsigned thread = 0;         // the thread layout's owner; 0 otherwise
  std::uint64_t position = 0;  // 0-based, among the files of its layout directory
  bool operator==(const FileLocation&) const = default;
};

// Whether `name` can be a top-level directory of some layout in the run directory: "rank<N>",
// "d<N>" or a shared tree's "t<N>" (digits only). For checks that know the options but not the
// rank count (-o).
bool is_layout_directory_name(std::string_view name);
// Whether any layout of `config` puts files below the run directory.
bool has_layout_directories(const RunConfig& config);
// The directories of one tree of --tree-depth `depth` --branch `branch`, its root aside:
// B + B^2 + ... + B^D; UINT64_MAX when that does not fit.
std::uint64_t tree_directories(unsigned depth, std::uint64_t branch);

class DirectoryLayout {
 public:
  // Precondition: files > 0, ranks > 0, threads > 0; no dynamic partition unless shared.
  explicit DirectoryLayout(const LayoutSpec& spec);

  const LayoutSpec& spec() const { return spec_; }
  // Whether every file lives in the run directory itself (the default: nothing to create).
  bool flat() const;
  FileLocation locate(std::uint64_t index) const;  // 1 <= index <= files
  // The relative directory ("" for the run directory), no trailing '/'.
  std::string directory(const FileLocation& where) const;
  std::string directory_of(std::uint64_t index) const { return directory(locate(index)); }
  DirectoryKey key_of(std::uint64_t index) const;
  std::string directory(const DirectoryKey& key) const;
  // The directories rank `rank` creates before the write phase, parents before children; the
  // ranks' lists are disjoint, their union is exactly the directories that hold a file and
  // their parents, and with a tree also its leaves left without a file. Each rank's parents
  // are its own, so the ranks make their lists without waiting for each other (the shared
  // layout's top-level t<k> or d<k> are split into blocks over the ranks, each t<k> with its
  // whole subtree). Remove in reverse order, after their files.
  std::vector<std::string> rank_directories(int rank) const;
  // The same directories by level: levels[k] holds those of k + 1 path components, in
  // rank_directories' order, which is the levels one after the other. No level is empty
  // except that a rank with no directory gets none. Every parent is in an earlier level, so
  // the directories of one level can be made (or, last level first, removed) in any order.
  std::vector<std::vector<std::string>> rank_directory_levels(int rank) const;

 private:
  using Levels = std::vector<std::vector<std::string>>;
  std::string layout_directory(int rank, unsigned thread) const;
  std::uint64_t layout_files(int rank, unsigned thread) const;  // files of that directory
  std::uint64_t bucket_of(const FileLocation& where) const;
  std::string subdirectory(std::uint64_t bucket) const;  // "" without subdirectories
  // Below `parents` (layout directories, "" the run directory, each with its file count):
  // their subdirectories, appended to `levels` from level `first`. `top` picks the top-level
  // ones (1-based, of those a parent has): the shared layout's block of this rank.
  void add_subdirectories(const std::vector<std::pair<std::string, std::uint64_t>>& parents,
                          std::size_t first, const Progression* top, Levels& levels) const;

  LayoutSpec spec_;
  int rank_width_ = 1;
  int thread_width_ = 1;
  int bucket_width_ = 1;
  int branch_width_ = 1;
  std::uint64_t leaves_ = 1;  // B^D with a tree
};

}  // namespace mpiwrite
