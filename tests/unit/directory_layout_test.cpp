#include "mpiwrite/core/directory_layout.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {
namespace {

// The rank plan as the run makes it: from the point's plan (point_plan.hpp).
RankPlan plan_of(const RunConfig& config, const PointSpec& point, int rank) {
  return plan_point(config, point).rank(rank);
}

LayoutSpec spec_of(Layout layout, std::uint64_t per_dir, std::uint64_t files, Partition partition,
                   int ranks, unsigned threads) {
  return LayoutSpec{layout, per_dir, files, partition, ranks, threads};
}

PointSpec point_of(int ranks, unsigned threads) {
  PointSpec p;
  p.ranks = ranks;
  p.threads = threads;
  return p;
}

// The parent of a relative directory ("" for a top-level one).
std::string parent_of(const std::string& dir) {
  const auto slash = dir.rfind('/');
  return slash == std::string::npos ? std::string() : dir.substr(0, slash);
}

// For every file of every rank's and thread's plan: locate() names the writer the plan gives it,
// each directory holds at most N files, and the ranks' creation lists are disjoint, parents
// first, and exactly the directories used and their parents.
void check(const LayoutSpec& spec) {
  SCOPED_TRACE(testing::Message() << to_string(spec.layout) << " N " << spec.files_per_dir
                                  << " files " << spec.files << " " << to_string(spec.partition)
                                  << " " << spec.ranks << "x" << spec.threads);
  RunConfig config;
  config.files = spec.files;
  config.partition = spec.partition;
  const DirectoryLayout layout(spec);
  std::map<std::string, std::uint64_t> files_in;
  std::vector<int> seen(spec.files + 1, 0);
  for (int r = 0; r < spec.ranks; ++r) {
    const RankPlan plan = plan_of(config, point_of(spec.ranks, spec.threads), r);
    for (unsigned t = 0; t < spec.threads; ++t) {
      const Progression& part = plan.thread_writes.at(t);
      for (std::uint64_t p = 0; p < part.count; ++p) {
        const std::uint64_t index = part.at(p);
        ++seen.at(index);
        const FileLocation where = layout.locate(index);
        if (spec.layout != Layout::Shared) {
          ASSERT_EQ(where.rank, r) << index;
        }
        if (spec.layout == Layout::Thread) {
          ASSERT_EQ(where.thread, t) << index;
        }
        ++files_in[layout.directory_of(index)];
      }
    }
  }
  for (std::uint64_t i = 1; i <= spec.files; ++i) ASSERT_EQ(seen[i], 1) << i;
  std::set<std::string> used;
  for (const auto& [dir, count] : files_in) {
    if (spec.files_per_dir > 0) {
      EXPECT_LE(count, spec.files_per_dir) << dir;
    }
    for (std::string d = dir; !d.empty(); d = parent_of(d)) used.insert(d);
  }
  std::set<std::string> created;
  for (int r = 0; r < spec.ranks; ++r) {
    for (const std::string& dir : layout.rank_directories(r)) {
      const std::string parent = parent_of(dir);
      EXPECT_TRUE(parent.empty() || created.count(parent) == 1) << dir << " before its parent";
      EXPECT_TRUE(created.insert(dir).second) << dir << " created twice";
    }
  }
  EXPECT_EQ(created, used);
  EXPECT_EQ(layout.flat(), spec.layout == Layout::Shared && spec.files_per_dir == 0);
}

TEST(DirectoryLayout, EveryFileInOneDirectoryOfAtMostNAndTheListIsExactlyTheSetUsed) {
  for (Layout l : {Layout::Shared, Layout::Rank, Layout::Thread}) {
    for (Partition partition : {Partition::Block, Partition::Cyclic}) {
      for (std::uint64_t per_dir : {0U, 1U, 2U, 3U, 7U}) {
        for (std::uint64_t files : {1U, 2U, 5U, 13U, 30U}) {
          for (int ranks = 1; ranks <= 5; ++ranks) {
            for (unsigned threads = 1; threads <= 4; ++threads) {
              check(spec_of(l, per_dir, files, partition, ranks, threads));
            }
          }
        }
      }
    }
  }
}

TEST(DirectoryLayout, SharedWithoutSubdirectoriesIsTheRunDirectory) {
  const DirectoryLayout layout(spec_of(Layout::Shared, 0, 100, Partition::Dynamic, 4, 2));
  EXPECT_TRUE(layout.flat());
  EXPECT_EQ(layout.directory_of(1), "");
  EXPECT_EQ(layout.directory_of(100), "");
  for (int r = 0; r < 4; ++r) EXPECT_TRUE(layout.rank_directories(r).empty());
}

TEST(DirectoryLayout, SharedSubdirectoriesDependOnTheIndexOnly) {
  // Also with dynamic: who writes file i does not matter.
  const DirectoryLayout layout(spec_of(Layout::Shared, 10, 1000, Partition::Dynamic, 3, 1));
  EXPECT_EQ(layout.directory_of(1), "d00");
  EXPECT_EQ(layout.directory_of(10), "d00");
  EXPECT_EQ(layout.directory_of(11), "d01");
  EXPECT_EQ(layout.directory_of(1000), "d99");
  EXPECT_EQ(layout.rank_directories(0).front(), "d00");
  EXPECT_EQ(layout.rank_directories(2).back(), "d99");
}

TEST(DirectoryLayout, NamesArePaddedToThePointsLargestNumber) {
  const DirectoryLayout rank(spec_of(Layout::Rank, 0, 24, Partition::Block, 12, 1));
  EXPECT_EQ(rank.directory_of(1), "rank00");
  EXPECT_EQ(rank.directory_of(24), "rank11");
  const DirectoryLayout thread(spec_of(Layout::Thread, 0, 8, Partition::Cyclic, 2, 2));
  // Cyclic: file 1 rank 0, file 2 rank 1, file 3 rank 0 (its second: thread 1).
  EXPECT_EQ(thread.directory_of(1), "rank0/thread0");
  EXPECT_EQ(thread.directory_of(2), "rank1/thread0");
  EXPECT_EQ(thread.directory_of(3), "rank0/thread1");
  EXPECT_EQ(thread.rank_directories(1),
            (std::vector<std::string>{"rank1", "rank1/thread0", "rank1/thread1"}));
}

TEST(DirectoryLayout, SubdirectoriesCountAFilesPositionInItsLayoutDirectory) {
  // 10 files, 2 ranks block: rank 0 writes 1..5, rank 1 writes 6..10; 2 per directory.
  const DirectoryLayout layout(spec_of(Layout::Rank, 2, 10, Partition::Block, 2, 1));
  EXPECT_EQ(layout.directory_of(1), "rank0/d0");
  EXPECT_EQ(layout.directory_of(5), "rank0/d2");
  EXPECT_EQ(layout.directory_of(6), "rank1/d0");
  EXPECT_EQ(layout.rank_directories(1),
            (std::vector<std::string>{"rank1", "rank1/d0", "rank1/d1", "rank1/d2"}));
}

TEST(DirectoryLayout, ARankWithoutFilesCreatesNothing) {
  const DirectoryLayout layout(spec_of(Layout::Thread, 0, 3, Partition::Block, 4, 2));
  EXPECT_TRUE(layout.rank_directories(3).empty());
  EXPECT_EQ(layout.rank_directories(0), (std::vector<std::string>{"rank0", "rank0/thread0"}));
}

TEST(DirectoryLayout, EachPointHasTheLayoutOfItsOwnNotTheFirstOfTheList) {
  RunConfig c;
  c.compare = true;
  c.files = 8;
  c.files_per_dir = 3;
  c.layouts = {Layout::Shared, Layout::Thread};
  const std::vector<PointSpec> points = make_points(c, 2);
  for (const PointSpec& p : points) {
    const PointPlan plan = plan_point(c, p);
    const LayoutSpec& spec = plan.layout.spec();
    EXPECT_EQ(spec.layout, p.layout) << p.label();
    EXPECT_EQ(spec.files_per_dir, 3u);  // one --files-per-dir for every layout
    EXPECT_EQ(spec.ranks, p.ranks);
    EXPECT_EQ(spec.threads, p.threads);
  }
  const PointSpec& threaded = points.back();  // 1x2-thread
  ASSERT_EQ(threaded.label(), "1x2-thread");
  EXPECT_EQ(
      plan_point(c, threaded).layout.rank_directories(0),
      (std::vector<std::string>{"rank0", "rank0/thread0", "rank0/thread1", "rank0/thread0/d0",
                                "rank0/thread0/d1", "rank0/thread1/d0", "rank0/thread1/d1"}));
}

}  // namespace
}  // namespace mpiwrite
