// TreeProgress: a tree phase's per-level, per-thread prefixes, turned into the paths done.
#include "mpiwrite/core/tree_progress.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {
namespace {

const std::vector<std::vector<std::string>> kLevels = {
    {"r"}, {"r/0", "r/1", "r/2"}, {"r/0/0", "r/0/1", "r/1/0", "r/1/1", "r/2/0", "r/2/1"}};

TEST(TreeProgress, EveryBlockDoneGivesEveryDirectoryInLevelAndThreadOrder) {
  TreeProgress done;
  done.clear(6);
  for (std::size_t level = 0; level < kLevels.size(); ++level) {
    for (const Progression& part :
         thread_parts(Progression{0, kLevels[level].size(), 1}, 2, Partition::Block))
      done.record(level, part);
  }
  std::vector<std::string> all;
  for (const auto& level : kLevels) all.insert(all.end(), level.begin(), level.end());
  EXPECT_EQ(done.paths(kLevels), all);
  EXPECT_EQ(done.directories(), 10u);
}

// A thread stopped part-way: only the prefix it did, and a thread that did nothing adds nothing.
TEST(TreeProgress, APrefixOfABlockGivesExactlyThosePaths) {
  TreeProgress done;
  done.clear(3);
  done.record(2, Progression{3, 2, 1});  // positions 3 and 4 of the deepest level
  done.record(2, Progression{0, 0, 1});
  done.record(1, Progression{1, 1, 1});  // removal walks the deepest level first
  EXPECT_EQ(done.paths(kLevels), (std::vector<std::string>{"r/1/1", "r/2/0", "r/1"}));
  EXPECT_EQ(done.directories(), 3u);
}

TEST(TreeProgress, ClearForgetsWhatWasRecorded) {
  TreeProgress done;
  done.record(0, Progression{0, 1, 1});
  done.clear(1);
  EXPECT_TRUE(done.paths(kLevels).empty());
  EXPECT_EQ(done.directories(), 0u);
}

}  // namespace
}  // namespace mpiwrite
