#include "mpiwrite/core/rank_plan.hpp"
#include "mpiwrite/core/point_plan.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mpiwrite {
namespace {

// The rank plan as the run makes it: from the point's plan (point_plan.hpp).
RankPlan plan_of(const RunConfig& config, const PointSpec& point, int rank) {
  return plan_point(config, point).rank(rank);
}

// Marks every index a progression holds; each must end up marked exactly once.
void mark(const Progression& part, std::vector<int>& seen) {
  for (std::uint64_t i = 0; i < part.count; ++i) ++seen.at(part.at(i));
}

void expect_each_once(const std::vector<int>& seen, const char* what) {
  EXPECT_EQ(seen[0], 0) << what;
  for (std::size_t i = 1; i < seen.size(); ++i) {
    ASSERT_EQ(seen[i], 1) << what << ": index " << i << " of " << seen.size() - 1;
  }
}

RunConfig config_of(std::uint64_t files, Partition partition) {
  RunConfig c;
  c.files = files;
  c.partition = partition;
  return c;
}

PointSpec point_of(int ranks, unsigned threads) {
  PointSpec p;
  p.ranks = ranks;
  p.threads = threads;
  return p;
}

TEST(PlanRank, RanksAndThreadsWriteEveryIndexExactlyOnce) {
  for (Partition partition : {Partition::Block, Partition::Cyclic}) {
    for (std::uint64_t files = 1; files <= 30; ++files) {
      for (int ranks = 1; ranks <= 7; ++ranks) {
        for (unsigned threads = 1; threads <= 5; ++threads) {
          std::vector<int> by_rank(files + 1, 0), by_thread(files + 1, 0);
          for (int r = 0; r < ranks; ++r) {
            const RankPlan plan = plan_of(config_of(files, partition), point_of(ranks, threads), r);
            EXPECT_FALSE(plan.dynamic);
            ASSERT_EQ(plan.thread_writes.size(), threads);
            mark(plan.writes, by_rank);
            for (const Progression& part : plan.thread_writes) mark(part, by_thread);
          }
          SCOPED_TRACE(testing::Message() << to_string(partition) << " files " << files << " ranks "
                                          << ranks << " threads " << threads);
          expect_each_once(by_rank, "ranks");
          expect_each_once(by_thread, "threads");
        }
      }
    }
  }
}

// --verify reads what the next rank wrote: every file once, none by its writer (with more
// than one rank), for a block and a cyclic write alike.
TEST(PlanRank, VerifyCoversEveryFileOnceAndNeverByItsWriter) {
  for (Partition partition : {Partition::Block, Partition::Cyclic}) {
    for (std::uint64_t files = 1; files <= 30; ++files) {
      for (int ranks = 1; ranks <= 7; ++ranks) {
        std::vector<int> seen(files + 1, 0);
        std::vector<int> writer(files + 1, -1);
        std::vector<RankPlan> plans;
        for (int r = 0; r < ranks; ++r) {
          plans.push_back(plan_of(config_of(files, partition), point_of(ranks, 2), r));
          const Progression& w = plans.back().writes;
          for (std::uint64_t i = 0; i < w.count; ++i) writer[w.at(i)] = r;
        }
        SCOPED_TRACE(testing::Message()
                     << to_string(partition) << " files " << files << " ranks " << ranks);
        for (const RankPlan& plan : plans) {
          mark(plan.verifies, seen);
          EXPECT_EQ(plan.verifies, plans[static_cast<std::size_t>((plan.rank + 1) % ranks)].writes);
          if (ranks == 1) continue;
          for (std::uint64_t i = 0; i < plan.verifies.count; ++i) {
            ASSERT_NE(writer[plan.verifies.at(i)], plan.rank) << "index " << plan.verifies.at(i);
          }
        }
        expect_each_once(seen, "verify");
      }
    }
  }
}

// A dynamic write's slices are known only from its writers' records, which --verify takes
// (the plan's blocks are never read there). Removal after a completed step is block `rank`
// whatever the partition.
TEST(PlanRank, VerifyFollowsTheWritersSliceAndRemovalTheBlocks) {
  for (Partition partition : {Partition::Block, Partition::Cyclic, Partition::Dynamic}) {
    const RankPlan plan = plan_of(config_of(10, partition), point_of(4, 3), 1);
    EXPECT_EQ(plan.verifies, partition == Partition::Cyclic
                                 ? (Progression{3, 2, 4})    // 3, 7: rank 2's cyclic slice
                                 : (Progression{7, 2, 1}));  // block 2 of 10 in 4
    EXPECT_EQ(plan.removes, (Progression{4, 3, 1}));         // block 1
  }
}

TEST(PlanRank, RemovalCoversEveryNameExactlyOnce) {
  for (Partition partition : {Partition::Block, Partition::Cyclic, Partition::Dynamic}) {
    for (std::uint64_t files = 1; files <= 30; ++files) {
      for (int ranks = 1; ranks <= 7; ++ranks) {
        std::vector<int> seen(files + 1, 0);
        for (int r = 0; r < ranks; ++r) {
          mark(plan_of(config_of(files, partition), point_of(ranks, 1), r).removes, seen);
        }
        SCOPED_TRACE(testing::Message() << "files " << files << " ranks " << ranks);
        expect_each_once(seen, "removal");
      }
    }
  }
}

TEST(PlanRank, DynamicWritesEveryFileOnDemandWithNoThreadParts) {
  const RankPlan plan = plan_of(config_of(12, Partition::Dynamic), point_of(3, 4), 2);
  EXPECT_TRUE(plan.dynamic);
  EXPECT_EQ(plan.writes, whole_run(12));
  EXPECT_TRUE(plan.thread_writes.empty());
}

TEST(PlanRank, CyclicSlicesAndThreads) {
  const RankPlan plan = plan_of(config_of(10, Partition::Cyclic), point_of(2, 2), 1);
  EXPECT_EQ(plan.writes, (Progression{2, 5, 2}));  // 2 4 6 8 10
  ASSERT_EQ(plan.thread_writes.size(), 2u);
  EXPECT_EQ(plan.thread_writes[0], (Progression{2, 3, 4}));  // 2 6 10
  EXPECT_EQ(plan.thread_writes[1], (Progression{4, 2, 4}));  // 4 8
}

TEST(ThreadParts, OneThreadWritesTheSliceAsItIs) {
  const std::vector<Progression> one{{3, 4, 5}};
  EXPECT_EQ(thread_parts({3, 4, 5}, 1, Partition::Cyclic), one);
}

// A thread's ring is sized by the files it can have in flight, not by --queue-depth alone:
// -t 1024 -q 4096 for 100 files needs 1 slot a thread, not 4096.
TEST(RingDepth, IsTheQueueDepthBoundedByTheFilesOfTheBusiestThread) {
  const RunConfig block = config_of(100, Partition::Block);
  EXPECT_EQ(ring_depth(4096, plan_of(block, point_of(1, 1024), 0)), 1u);  // 0 or 1 each
  EXPECT_EQ(ring_depth(4096, plan_of(block, point_of(1, 1), 0)), 100u);
  EXPECT_EQ(ring_depth(8, plan_of(block, point_of(1, 1), 0)), 8u);     // the option, when fewer
  EXPECT_EQ(ring_depth(4096, plan_of(block, point_of(4, 3), 0)), 9u);  // 25 files: 9, 8, 8
  EXPECT_EQ(ring_depth(4096, plan_of(config_of(2, Partition::Cyclic), point_of(4, 1), 3)), 1u);
  // Dynamic: one thread may take every file of the run.
  EXPECT_EQ(ring_depth(4096, plan_of(config_of(100, Partition::Dynamic), point_of(4, 8), 1)), 100u);
  EXPECT_EQ(ring_depth(16, plan_of(config_of(100, Partition::Dynamic), point_of(4, 8), 1)), 16u);
}

}  // namespace
}  // namespace mpiwrite
