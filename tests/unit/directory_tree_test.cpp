// --tree-depth D --branch B (core/directory_layout.hpp): a tree below every layout directory,
// files only in its leaves. Exhaustive over small cases: every layout, static partition, rank
// and thread count, depth and branch, and file counts below, at and above the leaves.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {
namespace {

std::string parent_of(const std::string& dir) {
  const auto slash = dir.rfind('/');
  return slash == std::string::npos ? std::string() : dir.substr(0, slash);
}

std::size_t components(const std::string& dir) {
  return dir.empty() ? 0 : 1 + static_cast<std::size_t>(std::count(dir.begin(), dir.end(), '/'));
}

// `dir` without its last `n` components.
std::string strip(std::string dir, unsigned n) {
  for (unsigned i = 0; i < n; ++i) dir = parent_of(dir);
  return dir;
}

std::string join(const std::string& a, const std::string& b) {
  return a.empty() ? b : a + '/' + b;
}

// The whole tree below `root`, written out here from the documented names ("t" and the digit,
// zero-padded to the width of B - 1), not from the layout's own code.
void whole_tree(const std::string& root, unsigned depth, std::uint64_t branch,
                std::set<std::string>& out) {
  if (depth == 0) return;
  const int width = static_cast<int>(std::to_string(branch - 1).size());
  for (std::uint64_t k = 0; k < branch; ++k) {
    std::string digits = std::to_string(k);
    digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
    const std::string dir = join(root, "t" + digits);
    out.insert(dir);
    whole_tree(dir, depth - 1, branch, out);
  }
}

struct Case {
  Layout layout;
  Partition partition;
  int ranks;
  unsigned threads;
  unsigned depth;
  std::uint64_t branch;
  std::uint64_t files;
};

void check(const Case& c) {
  SCOPED_TRACE(testing::Message() << to_string(c.layout) << " " << to_string(c.partition) << " "
                                  << c.ranks << "x" << c.threads << " depth " << c.depth
                                  << " branch " << c.branch << " files " << c.files);
  const LayoutSpec spec{c.layout, 0, c.files, c.partition, c.ranks, c.threads, c.depth, c.branch};
  const DirectoryLayout layout(spec);
  ASSERT_EQ(layout.flat(), c.layout == Layout::Shared && c.depth == 0);
  std::uint64_t leaves = 1;
  for (unsigned d = 0; d < c.depth; ++d) leaves *= c.branch;

  // Every file of every writer, in the order it writes them.
  RunConfig config;
  config.files = c.files;
  config.partition = c.partition;
  PointSpec point;
  point.ranks = c.ranks;
  point.threads = c.threads;
  const PointPlan plan = plan_point(config, point);
  std::vector<int> seen(c.files + 1, 0);
  std::map<std::string, std::map<std::string, std::uint64_t>> files_in;  // layout dir -> leaf
  for (int r = 0; r < c.ranks; ++r) {
    const RankPlan mine = plan.rank(r);
    for (unsigned t = 0; t < c.threads; ++t) {
      const Progression& part = mine.thread_writes.at(t);
      std::uint64_t last_leaf = 0;
      for (std::uint64_t p = 0; p < part.count; ++p) {
        const std::uint64_t index = part.at(p);
        ++seen.at(index);
        const std::string dir = layout.directory_of(index);
        const DirectoryKey key = layout.key_of(index);
        ASSERT_EQ(layout.directory(key), dir) << index;
        // A writer never goes back to a leaf it left: it reopens a directory only when the
        // next file's differs (sys/file_directories.cpp).
        ASSERT_GE(key.bucket, last_leaf) << index;
        last_leaf = key.bucket;
        ASSERT_LT(key.bucket, leaves) << index;
        const std::string root = strip(dir, c.depth);
        const std::size_t root_depth =
            c.layout == Layout::Shared ? 0 : c.layout == Layout::Rank ? 1 : 2;
        ASSERT_EQ(components(dir), root_depth + c.depth) << dir;
        // Below its writer's layout directory (widths are 1 here: at most 4 ranks, 3 threads).
        const std::string owner = c.layout == Layout::Shared ? std::string()
                                  : c.layout == Layout::Rank
                                      ? "rank" + std::to_string(r)
                                      : "rank" + std::to_string(r) + "/thread" + std::to_string(t);
        ASSERT_EQ(root, owner) << index;
        ++files_in[root][dir];
      }
    }
  }
  for (std::uint64_t i = 1; i <= c.files; ++i) ASSERT_EQ(seen[i], 1) << i;

  // What must be made: every layout directory that holds a file, its parents and its whole
  // tree (leaves left without a file too: mdtest makes the whole tree).
  std::set<std::string> expected;
  for (const auto& [root, leaves_used] : files_in) {
    for (std::string d = root; !d.empty(); d = parent_of(d)) expected.insert(d);
    whole_tree(root, c.depth, c.branch, expected);
    for (const auto& [leaf, count] : leaves_used) {
      // (Without a tree the "leaf" is the layout directory, "" the run directory.)
      ASSERT_TRUE(leaf.empty() || expected.count(leaf) == 1) << leaf << " is not in the tree";
    }
    // Contiguous blocks whose sizes differ by at most one: with n >= B^D files every leaf
    // holds one, with fewer no leaf holds two.
    std::uint64_t least = leaves_used.size() < leaves ? 0 : ~std::uint64_t{0}, most = 0, total = 0;
    for (const auto& [leaf, count] : leaves_used) {
      least = std::min(least, count);
      most = std::max(most, count);
      total += count;
    }
    EXPECT_LE(most - least, 1u) << root;
    EXPECT_EQ(leaves_used.size(), std::min<std::uint64_t>(leaves, total)) << root;
  }

  std::set<std::string> made;
  for (int r = 0; r < c.ranks; ++r) {
    const std::vector<std::string> dirs = layout.rank_directories(r);
    const std::vector<std::vector<std::string>> levels = layout.rank_directory_levels(r);
    std::set<std::string> mine;
    for (const std::string& dir : dirs) {
      // A rank's parents are its own and come first: the ranks make theirs without waiting.
      const std::string parent = parent_of(dir);
      EXPECT_TRUE(parent.empty() || mine.count(parent) == 1) << dir << " before its parent";
      EXPECT_TRUE(mine.insert(dir).second) << dir << " listed twice";
      EXPECT_TRUE(made.insert(dir).second) << dir << " made by two ranks";
    }
    // The levels are the flat list cut by depth: level k holds k + 1 components.
    std::vector<std::string> flat;
    for (std::size_t k = 0; k < levels.size(); ++k) {
      EXPECT_FALSE(levels[k].empty()) << "level " << k << " of rank " << r;
      for (const std::string& dir : levels[k]) {
        EXPECT_EQ(components(dir), k + 1) << dir;
        flat.push_back(dir);
      }
    }
    EXPECT_EQ(flat, dirs) << "rank " << r;
  }
  EXPECT_EQ(made, expected);
}

TEST(DirectoryTree, EveryFileInALeafAndEveryDirectoryMadeOnceParentsFirst) {
  for (Layout layout : {Layout::Shared, Layout::Rank, Layout::Thread}) {
    for (Partition partition : {Partition::Block, Partition::Cyclic}) {
      for (int ranks = 1; ranks <= 4; ++ranks) {
        for (unsigned threads = 1; threads <= 3; ++threads) {
          for (unsigned depth = 0; depth <= 3; ++depth) {
            for (std::uint64_t branch = 1; branch <= 3; ++branch) {
              for (std::uint64_t files : {1U, 2U, 5U, 9U, 13U, 30U}) {
                check({layout, partition, ranks, threads, depth, branch, files});
                if (testing::Test::HasFatalFailure()) return;
              }
            }
          }
        }
      }
    }
  }
}

TEST(DirectoryTree, SharedTreeDependsOnTheIndexOnlySoDynamicWorksToo) {
  const DirectoryLayout layout(
      LayoutSpec{Layout::Shared, 0, 18, Partition::Dynamic, 3, 2, 2, 3});
  EXPECT_FALSE(layout.flat());
  // 18 files over 9 leaves, two each, in index order.
  EXPECT_EQ(layout.directory_of(1), "t0/t0");
  EXPECT_EQ(layout.directory_of(2), "t0/t0");
  EXPECT_EQ(layout.directory_of(6), "t0/t2");
  EXPECT_EQ(layout.directory_of(7), "t1/t0");
  EXPECT_EQ(layout.directory_of(18), "t2/t2");
  // The top-level directories in blocks over the ranks, each with its subtree.
  EXPECT_EQ(layout.rank_directory_levels(0),
            (std::vector<std::vector<std::string>>{{"t0"}, {"t0/t0", "t0/t1", "t0/t2"}}));
  EXPECT_EQ(layout.rank_directories(2), (std::vector<std::string>{"t2", "t2/t0", "t2/t1", "t2/t2"}));
}

TEST(DirectoryTree, MoreRanksThanBranchesLeavesSomeRanksNothingToMake) {
  const DirectoryLayout layout(LayoutSpec{Layout::Shared, 0, 10, Partition::Block, 4, 1, 3, 2});
  EXPECT_EQ(layout.rank_directories(0).size(), 7u);  // t0 and its 2 + 4 below
  EXPECT_EQ(layout.rank_directories(1).front(), "t1");
  EXPECT_TRUE(layout.rank_directories(2).empty());
  EXPECT_TRUE(layout.rank_directory_levels(3).empty());
}

TEST(DirectoryTree, LeafNamesArePaddedToTheWidthOfBranchMinusOne) {
  // 2 ranks, block: rank 1 writes 145..288, one file per leaf of its 12 x 12 tree.
  const DirectoryLayout layout(
      LayoutSpec{Layout::Rank, 0, 288, Partition::Block, 2, 1, 2, 12});
  EXPECT_EQ(layout.directory_of(145), "rank1/t00/t00");
  EXPECT_EQ(layout.directory_of(146), "rank1/t00/t01");
  EXPECT_EQ(layout.directory_of(288), "rank1/t11/t11");
  const std::vector<std::vector<std::string>> levels = layout.rank_directory_levels(1);
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0], std::vector<std::string>{"rank1"});
  EXPECT_EQ(levels[1].size(), 12u);
  EXPECT_EQ(levels[2].size(), 144u);
  EXPECT_EQ(levels[2][14], "rank1/t01/t02");
}

TEST(DirectoryTree, ThreadLayoutHasATreePerWriterThreadWithFiles) {
  // 2 threads, 3 files: thread 0 writes 2, thread 1 writes 1; a depth-1 tree of 2 each.
  const DirectoryLayout layout(
      LayoutSpec{Layout::Thread, 0, 3, Partition::Block, 1, 2, 1, 2});
  EXPECT_EQ(layout.directory_of(1), "rank0/thread0/t0");
  EXPECT_EQ(layout.directory_of(2), "rank0/thread0/t1");
  EXPECT_EQ(layout.directory_of(3), "rank0/thread1/t0");  // its t1 is made, and stays empty
  EXPECT_EQ(layout.rank_directory_levels(0),
            (std::vector<std::vector<std::string>>{
                {"rank0"},
                {"rank0/thread0", "rank0/thread1"},
                {"rank0/thread0/t0", "rank0/thread0/t1", "rank0/thread1/t0", "rank0/thread1/t1"}}));
}

TEST(DirectoryTree, BranchOneIsAChainOfDepthDirectories) {
  const DirectoryLayout layout(LayoutSpec{Layout::Rank, 0, 4, Partition::Cyclic, 2, 1, 3, 1});
  EXPECT_EQ(layout.directory_of(2), "rank1/t0/t0/t0");
  EXPECT_EQ(layout.rank_directories(1),
            (std::vector<std::string>{"rank1", "rank1/t0", "rank1/t0/t0", "rank1/t0/t0/t0"}));
}

TEST(DirectoryTree, CountsTheDirectoriesOfATree) {
  EXPECT_EQ(tree_directories(0, 5), 0u);
  EXPECT_EQ(tree_directories(2, 3), 12u);
  EXPECT_EQ(tree_directories(10, 1), 10u);
  EXPECT_EQ(tree_directories(10, 10), 11'111'111'110u);
  EXPECT_EQ(tree_directories(10, 1'000'000), ~std::uint64_t{0});  // does not fit
}

TEST(DirectoryTree, TopLevelTreeNamesAreLayoutDirectoryNames) {
  EXPECT_TRUE(is_layout_directory_name("t0"));
  EXPECT_TRUE(is_layout_directory_name("t07"));
  EXPECT_FALSE(is_layout_directory_name("t"));
  EXPECT_FALSE(is_layout_directory_name("tx1"));
  RunConfig c;
  EXPECT_FALSE(has_layout_directories(c));
  c.tree_depth = 1;
  EXPECT_TRUE(has_layout_directories(c));
}

}  // namespace
}  // namespace mpiwrite
