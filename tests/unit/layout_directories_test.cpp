#include "mpiwrite/sys/layout_directories.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/errors.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

namespace fs = std::filesystem;

TEST(LayoutDirectories, MakesEveryRanksDirectoriesAndRemovesExactlyThem) {
  testing::TempDir tmp;
  const DirectoryLayout layout(LayoutSpec{Layout::Thread, 2, 10, Partition::Block, 2, 2});
  std::vector<std::string> made;
  for (int rank = 0; rank < 2; ++rank) {
    make_layout_directories(tmp.path(), layout.rank_directories(rank), made);
  }
  for (std::uint64_t i = 1; i <= 10; ++i) {
    ASSERT_TRUE(fs::is_directory(tmp / layout.directory_of(i))) << layout.directory_of(i);
  }
  std::ofstream(tmp / "keep.txt") << "not the layout's\n";
  EXPECT_EQ(remove_layout_directories(tmp.path(), made), made.size());
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator{}), 1);
  EXPECT_EQ(remove_layout_directories(tmp.path(), made), 0u);  // already gone: skipped
}

TEST(LayoutDirectories, AnExistingNameFailsUnlessItIsADirectoryAndThatIsAllowed) {
  testing::TempDir tmp;
  fs::create_directory(tmp / "rank0");
  std::vector<std::string> made;
  EXPECT_THROW(make_layout_directories(tmp.path(), {"rank0"}, made), IoError);
  make_layout_directories(tmp.path(), {"rank0", "rank0/d0"}, made, true);
  EXPECT_EQ(made, std::vector<std::string>{"rank0/d0"});  // only what this call created
  ASSERT_EQ(::symlink(tmp.path().c_str(), (tmp / "rank1").c_str()), 0);
  EXPECT_THROW(make_layout_directories(tmp.path(), {"rank1"}, made, true), IoError);
}

TEST(LayoutDirectories, ADirectoryThatStillHoldsAFileIsNotRemoved) {
  testing::TempDir tmp;
  std::vector<std::string> made;
  make_layout_directories(tmp.path(), {"d0"}, made);
  std::ofstream(tmp / "d0/write1.txt") << "x\n";
  try {
    remove_layout_directories(tmp.path(), made);
    FAIL() << "removed a directory that is not empty";
  } catch (const IoError& error) {
    EXPECT_NE(std::string(error.what()).find(tmp / "d0"), std::string::npos) << error.what();
  }
}

// A layout directory swapped for a link to somewhere else (between the run's steps, or by
// another user of --dir): nothing is made or removed through it.
TEST(LayoutDirectories, NeverMakesOrRemovesThroughALink) {
  testing::TempDir tmp;
  fs::create_directory(tmp / "run");
  fs::create_directory(tmp / "outside");
  fs::create_directory(tmp / "outside/d0");  // what removal through the link would take
  fs::create_directory_symlink(tmp / "outside", tmp / "run/rank0");
  std::vector<std::string> made;
  EXPECT_THROW(make_layout_directories(tmp / "run", {"rank0/d1"}, made, true), IoError);
  EXPECT_FALSE(fs::exists(tmp / "outside/d1"));
  EXPECT_THROW(remove_layout_directories(tmp / "run", {"rank0", "rank0/d0"}), IoError);
  EXPECT_TRUE(fs::is_directory(tmp / "outside/d0"));
  EXPECT_TRUE(fs::is_symlink(tmp / "run/rank0"));  // unlinkat(AT_REMOVEDIR) refuses a link
}

// One directory that cannot go does not keep the others: every one is tried, the first
// failure thrown after.
TEST(LayoutDirectories, EveryDirectoryIsTriedAfterAFailure) {
  testing::TempDir tmp;
  std::vector<std::string> made;
  make_layout_directories(tmp.path(), {"rank0", "rank0/d0", "rank0/d1", "rank0/d2"}, made);
  std::ofstream(tmp / "rank0/d1/theirs.txt") << "x\n";
  EXPECT_THROW(remove_layout_directories(tmp.path(), made), IoError);
  EXPECT_FALSE(fs::exists(tmp / "rank0/d0"));
  EXPECT_FALSE(fs::exists(tmp / "rank0/d2"));
  EXPECT_TRUE(fs::exists(tmp / "rank0/d1/theirs.txt"));
  fs::remove(tmp / "rank0/d1/theirs.txt");
  EXPECT_EQ(remove_layout_directories(tmp.path(), made), 2u);  // d1 and rank0; d0, d2 gone
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

}  // namespace
}  // namespace mpiwrite
