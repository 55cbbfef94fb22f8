#include "mpiwrite/core/partition.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "mpiwrite/core/config.hpp"

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
  const Progression rank1 = split(all, 2, 1, Partition::Cyclic);             // 2 4 6 8 10
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

// part_of is split's inverse: every index of every part maps back to that part and position,
// and every position of the whole to a part that holds it there. Uneven sizes, more parts than
// positions, and a whole that is itself a part (stride > 1, first > 1) included.
TEST(PartOf, InvertsSplitForEveryIndexOfEveryPart) {
  for (Partition partition : {Partition::Block, Partition::Cyclic}) {
    for (const Progression whole :
         {whole_run(0), whole_run(1), whole_run(7), whole_run(40), Progression{3, 13, 4}}) {
      for (std::uint64_t parts = 1; parts <= 45; ++parts) {
        std::uint64_t covered = 0;
        for (std::uint64_t part = 0; part < parts; ++part) {
          const Progression mine = split(whole, parts, part, partition);
          covered += mine.count;
          for (std::uint64_t i = 0; i < mine.count; ++i) {
            const std::uint64_t position = (mine.at(i) - whole.first) / whole.stride;
            ASSERT_EQ(part_of(position, whole.count, parts, partition), (PartPosition{part, i}))
                << to_string(partition) << " count " << whole.count << " parts " << parts;
          }
        }
        EXPECT_EQ(covered, whole.count);
        for (std::uint64_t position = 0; position < whole.count; ++position) {
          const PartPosition p = part_of(position, whole.count, parts, partition);
          ASSERT_LT(p.part, parts);
          EXPECT_EQ(split(whole, parts, p.part, partition).at(p.position), whole.at(position));
        }
      }
    }
  }
}

TEST(PartOf, HugeCountsStayExact) {
  const PartPosition last = part_of(kMaxFiles - 1, kMaxFiles, 7, Partition::Block);
  EXPECT_EQ(split(whole_run(kMaxFiles), 7, last.part, Partition::Block).at(last.position),
            kMaxFiles);
}

}  // namespace
}  // namespace mpiwrite
