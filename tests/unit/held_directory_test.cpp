#include "mpiwrite/sys/held_directory.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/sys/layout_directories.hpp"
#include "mpiwrite/sys/run_directory.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

namespace fs = std::filesystem;

// "PREFIX<i>SUFFIX", appended piece by piece (GCC 12's -Wrestrict misfires on a + chain).
std::string numbered(const char* prefix, int i, const char* suffix = "") {
  std::string name = prefix;
  name += std::to_string(i);
  name += suffix;
  return name;
}

UniqueFd hold(const std::string& path) {
  return UniqueFd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
}

// The named case of issue 21 §1: DIR renamed, a link to another directory holding files with
// the run's names in its place. Removal through the held descriptor takes the run's own files
// and never the other directory's; the name is found replaced.
TEST(HeldDirectory, WorkThroughTheDescriptorAfterTheNameWasSwapped) {
  testing::TempDir tmp;
  fs::create_directory(tmp / "run");
  fs::create_directory(tmp / "other");
  for (int i = 1; i <= 3; ++i) {
    std::ofstream(tmp / numbered("run/write", i, ".txt")) << "ours\n";
    std::ofstream(tmp / numbered("other/write", i, ".txt")) << "precious\n";
  }
  const UniqueFd held = hold(tmp / "run");
  const DirectoryIdentity id = identity_of(held.get(), tmp / "run");
  expect_same_directory(tmp / "run", id);  // not swapped yet
  fs::rename(tmp / "run", tmp / "moved");
  fs::create_directory_symlink(tmp / "other", tmp / "run");

  const std::uint64_t removed = remove_files(DirectoryAt(held.get(), "", tmp / "run"),
                                             parse_pattern("write{}.txt"), {1, 3, 1});
  EXPECT_EQ(removed, 3u);
  EXPECT_TRUE(fs::is_empty(tmp / "moved"));
  for (int i = 1; i <= 3; ++i) EXPECT_TRUE(fs::exists(tmp / numbered("other/write", i, ".txt")));

  EXPECT_THROW(expect_same_directory(tmp / "run", id), DirectoryReplaced);
  EXPECT_THROW(remove_held_directory(tmp / "run", id), DirectoryReplaced);
  EXPECT_TRUE(fs::is_directory(tmp / "other"));
  fs::remove(tmp / "run");  // gone altogether: replaced too
  EXPECT_THROW(expect_same_directory(tmp / "run", id), DirectoryReplaced);
  fs::rename(tmp / "moved", tmp / "run");  // back: the same directory again
  remove_held_directory(tmp / "run", id);
  EXPECT_FALSE(fs::exists(tmp / "run"));
}

// A directory with the same name but made anew is not the held one.
TEST(HeldDirectory, ARealDirectoryPutInPlaceIsNotTheSame) {
  testing::TempDir tmp;
  fs::create_directory(tmp / "run");
  const UniqueFd held = hold(tmp / "run");
  const DirectoryIdentity id = identity_of(held.get(), tmp / "run");
  fs::rename(tmp / "run", tmp / "moved");
  fs::create_directory(tmp / "run");
  EXPECT_THROW(remove_held_directory(tmp / "run", id), DirectoryReplaced);
  EXPECT_TRUE(fs::exists(tmp / "run"));
}

// Below a held directory every component is opened without following a link.
TEST(HeldDirectory, OpenAtRefusesALinkBelowTheHeldDirectory) {
  testing::TempDir tmp;
  fs::create_directories(tmp / "run/root");
  fs::create_directories(tmp / "other/step");
  const UniqueFd held = hold(tmp / "run");
  EXPECT_TRUE(open_at(DirectoryAt(held.get(), "root", tmp / "run/root")));
  fs::rename(tmp / "run/root", tmp / "run/root-moved");
  fs::create_directory_symlink(tmp / "other", tmp / "run/root");
  EXPECT_THROW(open_at(DirectoryAt(held.get(), "root/step", tmp / "run/root/step")), IoError);
  EXPECT_TRUE(open_at(DirectoryAt(held.get(), "", tmp / "run")));  // "." of the held one
}

// A signal stops the making and the removal of layout directories at once (issue 21 §3).
TEST(HeldDirectory, LayoutDirectoriesStopAtASignal) {
  testing::TempDir tmp;
  std::vector<std::string> dirs;
  for (int i = 0; i < 100; ++i) dirs.push_back(numbered("d", i));
  std::atomic<int> stop{0};
  std::vector<std::string> made;
  make_layout_directories(tmp.path(), {dirs.begin(), dirs.begin() + 10}, made, false, &stop);
  EXPECT_EQ(made.size(), 10u);
  stop = 2;
  make_layout_directories(tmp.path(), {dirs.begin() + 10, dirs.end()}, made, false, &stop);
  EXPECT_EQ(made.size(), 10u);  // none more
  EXPECT_EQ(remove_layout_directories(tmp.path(), made, &stop), 0u);
  stop = 0;
  EXPECT_EQ(remove_layout_directories(tmp.path(), made, &stop), 10u);
}

}  // namespace
}  // namespace mpiwrite
