#include "mpiwrite/core/dry_run.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace mpiwrite {
namespace {

TEST(WritePlan, NamesEveryRankAndThreadWithItsFiles) {
  RunConfig c;
  c.files = 10;
  c.threads = 2;
  std::ostringstream out;
  write_plan(c, plan_points(c, 3), out);
  const std::string text = out.str();
  EXPECT_NE(text.find("point 3x2 (run): 3 rank(s) x 2 thread(s)"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 0 thread 0: 2 file(s), indices 1..2 step 1 (write1.txt .. write2.txt)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("rank 2 thread 1: 1 file(s), indices 10..10 step 1"), std::string::npos);
}

TEST(WritePlan, SaysWhenAThreadHasNothing) {
  RunConfig c;
  c.files = 2;
  c.partition = Partition::Cyclic;
  std::ostringstream out;
  write_plan(c, plan_points(c, 3), out);
  EXPECT_NE(out.str().find("rank 1 thread 0: 1 file(s), indices 2..2 step 3"), std::string::npos);
  EXPECT_NE(out.str().find("rank 2 thread 0: no files"), std::string::npos);
}

TEST(WritePlan, DynamicSaysChunksOnDemandAndSweepsListEveryPoint) {
  RunConfig c;
  c.partition = Partition::Dynamic;
  c.chunk = 5;
  c.sweep_threads = {1, 4};
  std::ostringstream out;
  write_plan(c, plan_points(c, 2), out);
  EXPECT_NE(out.str().find("point 2x4 (sweep)"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("chunks of 5 files on demand"), std::string::npos);
}

TEST(WritePlan, TheDefaultLayoutAddsNoLines) {
  RunConfig c;
  std::ostringstream out;
  write_plan(c, plan_points(c, 2), out);
  EXPECT_EQ(out.str().find("layout"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("creates"), std::string::npos) << out.str();
}

TEST(WritePlan, PrintsEachRanksDirectories) {
  RunConfig c;
  c.files = 10;
  c.threads = 2;
  c.layouts = {Layout::Thread};
  c.dry_run = true;
  std::ostringstream out;
  write_plan(c, plan_points(c, 2), out);
  EXPECT_NE(out.str().find("layout: thread\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("rank 1 creates 3 directories: rank1, rank1/thread0, rank1/thread1\n"),
            std::string::npos)
      << out.str();
}

TEST(WritePlan, ElidesLongDirectoryLists) {
  RunConfig c;
  c.files = 100;
  c.files_per_dir = 10;
  c.dry_run = true;
  std::ostringstream out;
  write_plan(c, plan_points(c, 1), out);
  EXPECT_NE(out.str().find("layout: shared, at most 10 files per subdirectory"), std::string::npos);
  EXPECT_NE(out.str().find("rank 0 creates 10 directories: d0, d1, d2, d3, d4, ... (4 more), d9\n"),
            std::string::npos)
      << out.str();
}

TEST(WritePlan, SaysTheTreeAndEachRanksShareOfIt) {
  RunConfig c;
  c.files = 4;
  c.tree_depth = 2;
  c.branch = 2;
  c.dry_run = true;
  std::ostringstream out;
  write_plan(c, plan_points(c, 2), out);
  EXPECT_NE(out.str().find("layout: shared, a tree of depth 2, branch 2 below each layout "
                           "directory, files in its leaves\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("rank 1 creates 3 directories: t1, t1/t0, t1/t1\n"), std::string::npos)
      << out.str();
}

}  // namespace
}  // namespace mpiwrite
