#include "mpiwrite/core/partition.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mpiwrite {
namespace {

// Marks every index a part hands out; each must be marked exactly once.
void mark(const Progression& part, std::vector<int>& seen) {
  for (std::uint64_t i = 0; i < part.count; ++i) ++seen.at(part.at(i));
}

TEST(Split, RanksAndThreadsCoverEveryIndexExactlyOnce) {
  for (Partition partition : {Partition::Block, Partition::Cyclic}) {
    for (std::uint64_t files = 1; files <= 40; ++files) {
      for (std::uint64_t ranks = 1; ranks <= 9; ++ranks) {
        for (std::uint64_t threads = 1; threads <= 5; ++threads) {
          std::vector<int> seen(files + 1, 0);
          for (std::uint64_t r = 0; r < ranks; ++r) {
            const Progression slice = split(whole_run(files), ranks, r, partition);
            for (std::uint64_t t = 0; t < threads; ++t) {
              mark(split(slice, threads, t, partition), seen);
            }
          }
          EXPECT_EQ(seen[0], 0);
          for (std::uint64_t i = 1; i <= files; ++i) {
            ASSERT_EQ(seen[i], 1) << "index " << i << " files " << files << " ranks " << ranks
                                  << " threads " << threads << " " << to_string(partition);
          }
        }
      }
    }
  }
}

TEST(Split, BlockGivesContiguousRunsThatDifferByAtMostOne) {
  const Progression all = whole_run(10);
  EXPECT_EQ(split(all, 4, 0, Partition::Block), (Progression{1, 3, 1}));
  EXPECT_EQ(split(all, 4, 1, Partition::Block), (Progression{4, 3, 1}));
  EXPECT_EQ(split(all, 4, 2, Partition::Block), (Progression{7, 2, 1}));
  EXPECT_EQ(split(all, 4, 3, Partition::Block), (Progression{9, 2, 1}));
}

TEST(Split, CyclicDealsRoundRobin) {
  const Progression all = whole_run(10);
  EXPECT_EQ(split(all, 4, 0, Partition::Cyclic), (Progression{1, 3, 4}));
  EXPECT_EQ(split(all, 4, 3, Partition::Cyclic), (Progression{4, 2, 4}));
  // A cyclic part split again keeps the arithmetic: rank 1 of 2 over 10, then 2 threads.
  const Progression rank1 = split(all, 2, 1, Partition::Cyclic);  // 2 4 6 8 10
  EXPECT_EQ(split(rank1, 2, 1, Partition::Cyclic), (Progression{4, 2, 4}));  // 4 8
}

TEST(Split, MoreRanksThanFilesLeavesSomeEmpty) {
  const Progression all = whole_run(3);
  EXPECT_EQ(split(all, 5, 2, Partition::Block).count, 1u);
  EXPECT_EQ(split(all, 5, 3, Partition::Block).count, 0u);
  EXPECT_EQ(split(all, 5, 4, Partition::Cyclic).count, 0u);
}

TEST(Split, HugeCountsNeedNoMemory) {
  const Progression all = whole_run(kMaxFiles);
  const Progression last = split(all, 1000, 999, Partition::Block);
  EXPECT_EQ(last.last(), kMaxFiles);
  EXPECT_EQ(last.count, kMaxFiles / 1000);
}

}  // namespace
}  // namespace mpiwrite
