#include "mpiwrite/plan.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace mpiwrite {
namespace {

TEST(WritePlan, NamesEveryRankAndThreadWithItsFiles) {
  RunConfig c;
  c.files = 10;
  c.threads = 2;
  std::ostringstream out;
  write_plan(c, 3, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("dry run, nothing is written: 3 rank(s) x 2 thread(s)"), std::string::npos);
  EXPECT_NE(text.find("rank 0 thread 0: 2 file(s), indices 1..2 step 1 (write1.txt .. write2.txt)"),
            std::string::npos) << text;
  EXPECT_NE(text.find("rank 2 thread 1: 1 file(s), indices 10..10 step 1"), std::string::npos);
}

TEST(WritePlan, SaysWhenAThreadHasNothing) {
  RunConfig c;
  c.files = 2;
  c.partition = Partition::Cyclic;
  std::ostringstream out;
  write_plan(c, 3, out);
  EXPECT_NE(out.str().find("rank 1 thread 0: 1 file(s), indices 2..2 step 3"), std::string::npos);
  EXPECT_NE(out.str().find("rank 2 thread 0: no files"), std::string::npos);
}

}  // namespace
}  // namespace mpiwrite
