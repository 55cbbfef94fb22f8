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

}  // namespace
}  // namespace mpiwrite
