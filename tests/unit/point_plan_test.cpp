#include "mpiwrite/core/point_plan.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "mpiwrite/core/partition.hpp"

namespace mpiwrite {
namespace {

void expect_same_rank_plan(const RankPlan& got, const RankPlan& want) {
  EXPECT_EQ(got.rank, want.rank);
  EXPECT_EQ(got.ranks, want.ranks);
  EXPECT_EQ(got.dynamic, want.dynamic);
  EXPECT_EQ(got.writes, want.writes);
  EXPECT_EQ(got.thread_writes, want.thread_writes);
  EXPECT_EQ(got.verifies, want.verifies);
  EXPECT_EQ(got.removes, want.removes);
}

// One point's plan against what each part of it must say: the spec as given, each rank's plan
// as the split of the run's files gives it (rank by the partition, thread by the partition,
// verify and removal by block), the layout of the point's own layout, ranks and threads, whose
// every file lies in the directory of the rank and thread the plan gives it, and the engine
// options of the point (its threads, engine and queue depth), the run's for the rest.
void check(const RunConfig& config, const PointSpec& point) {
  SCOPED_TRACE(testing::Message() << point.label() << " " << to_string(config.partition) << " N "
                                  << config.files_per_dir << " files " << config.files);
  const PointPlan plan = plan_point(config, point);
  EXPECT_EQ(plan.spec, point);
  EXPECT_EQ(plan.engine.threads, point.threads);
  EXPECT_EQ(plan.engine.engine, point.engine);
  EXPECT_EQ(plan.engine.queue_depth, point.queue_depth);
  EXPECT_EQ(plan.engine.lines, config.lines);
  EXPECT_EQ(plan.engine.mode, config.write_mode);
  const LayoutSpec& layout = plan.layout.spec();
  EXPECT_EQ(layout.layout, point.layout);
  EXPECT_EQ(layout.files_per_dir, config.files_per_dir);
  EXPECT_EQ(layout.work(), plan.split);
  EXPECT_EQ(plan.split, (WorkSplit{config.files, config.partition, point.ranks, point.threads}));
  const Progression all = whole_run(config.files);
  const auto ranks = static_cast<std::uint64_t>(point.ranks);
  for (int r = 0; r < point.ranks; ++r) {
    const auto me = static_cast<std::uint64_t>(r);
    RankPlan want;
    want.rank = r;
    want.ranks = point.ranks;
    want.dynamic = config.partition == Partition::Dynamic;
    want.writes = want.dynamic ? all : split(all, ranks, me, config.partition);
    for (unsigned t = 0; !want.dynamic && t < point.threads; ++t) {
      want.thread_writes.push_back(split(want.writes, point.threads, t, config.partition));
    }
    const Partition written =
        config.partition == Partition::Dynamic ? Partition::Block : config.partition;
    want.verifies = split(all, ranks, (me + 1) % ranks, written);
    want.removes = split(all, ranks, me, Partition::Block);
    const RankPlan got = plan.rank(r);
    expect_same_rank_plan(got, want);
    for (unsigned t = 0; t < got.thread_writes.size(); ++t) {
      const Progression& part = got.thread_writes[t];
      for (std::uint64_t i = 0; i < part.count; ++i) {
        const FileLocation where = plan.layout.locate(part.at(i));
        if (point.layout != Layout::Shared) {
          ASSERT_EQ(where.rank, r);
        }
        if (point.layout == Layout::Thread) {
          ASSERT_EQ(where.thread, t);
        }
      }
    }
    if (point.layout != Layout::Shared) {
      EXPECT_EQ(plan.layout.rank_directories(r).empty(), got.writes.count == 0);
    }
  }
}

TEST(PointPlan, EveryPartOfAPointIsPlannedFromThatPointOnce) {
  for (Partition partition : {Partition::Block, Partition::Cyclic, Partition::Dynamic}) {
    for (Layout layout : {Layout::Shared, Layout::Rank, Layout::Thread}) {
      if (partition == Partition::Dynamic && layout != Layout::Shared) continue;  // refused
      for (std::uint64_t per_dir : {0u, 3u}) {
        for (std::uint64_t files : {1u, 7u, 20u}) {
          RunConfig c;
          c.files = files;
          c.partition = partition;
          c.files_per_dir = per_dir;
          c.threads = 5;  // no point below has it: each must take the point's own
          for (int ranks = 1; ranks <= 4; ++ranks) {
            for (unsigned threads = 1; threads <= 3; ++threads) {
              check(c, PointSpec{ranks, threads, PointMode::Sweep, Engine::Posix, 1, layout});
            }
          }
        }
      }
    }
  }
}

TEST(PointPlan, ASweepsAndAComparisonsPointsEachCarryTheirOwnThreadsAndEngine) {
  RunConfig c;
  c.files = 12;
  c.threads = 2;
  c.sweep_threads = {3, 1};
  c.layouts = {Layout::Shared, Layout::Thread};
  const std::vector<PointPlan> sweep = plan_points(c, 2);
  ASSERT_EQ(sweep.size(), make_points(c, 2).size());
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    EXPECT_EQ(sweep[i].spec, make_points(c, 2)[i]);
    check(c, sweep[i].spec);
  }
  RunConfig compare;
  compare.files = 16;
  compare.compare = true;
  compare.engine = Engine::Uring;
  compare.queue_depth = 4;
  for (const PointPlan& plan : plan_points(compare, 2)) {
    check(compare, plan.spec);
    EXPECT_EQ(plan.engine.engine,
              plan.spec.mode == PointMode::Async ? Engine::Uring : Engine::Posix);
  }
}

TEST(PointPlan, TheWorldPointPlansEveryRanksBlockOfTheRemoval) {
  RunConfig c;
  c.files = 10;
  c.threads = 3;
  c.partition = Partition::Cyclic;
  const PointPlan world = plan_point(c, world_point(c, 4));
  EXPECT_EQ(world.spec.ranks, 4);
  EXPECT_EQ(world.spec.threads, 3u);
  std::vector<int> seen(c.files + 1, 0);
  for (int r = 0; r < 4; ++r) {
    const Progression removes = world.rank(r).removes;
    EXPECT_EQ(removes, split(whole_run(10), 4, static_cast<std::uint64_t>(r), Partition::Block));
    for (std::uint64_t i = 0; i < removes.count; ++i) ++seen.at(removes.at(i));
  }
  for (std::uint64_t i = 1; i <= c.files; ++i) EXPECT_EQ(seen[i], 1) << i;
}

TEST(PointPlan, TheLargestRingIsTheLargestOfTheRanksUringPoints) {
  RunConfig c;
  c.files = 100;
  c.engine = Engine::Uring;
  c.queue_depth = 8;
  EXPECT_EQ(largest_ring_depth(plan_points(c, 2), 1), 8u);  // the option, when fewer
  c.queue_depth = 4096;
  EXPECT_EQ(largest_ring_depth(plan_points(c, 2), 1), 50u);  // the rank's files, when fewer
  c.compare = true;
  const std::vector<PointPlan> plans = plan_points(c, 2);
  EXPECT_GT(largest_ring_depth(plans, 0), 0u);  // the async points, on rank 0
  EXPECT_EQ(largest_ring_depth(plans, 1), 0u);  // no uring point runs on rank 1
  c.compare = false;
  c.engine = Engine::Posix;
  EXPECT_EQ(largest_ring_depth(plan_points(c, 2), 0), 0u);
}

}  // namespace
}  // namespace mpiwrite
