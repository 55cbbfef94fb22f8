#include "mpiwrite/sys/run_directory.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

// As the run calls them: with the run's points planned (one rank).
PreparedDirectory prepare_for(const RunConfig& config) {
  return prepare_directory(config, plan_points(config, 1));
}
bool check_for(const RunConfig& config) { return check_directory(config, plan_points(config, 1)); }

RunConfig config_in(const std::string& dir) {
  RunConfig c;
  c.dir = dir;
  c.files = 10;
  return c;
}

TEST(PrepareDirectory, CreatesAMissingDirectoryButNotItsParents) {
  TempDir tmp;
  const PreparedDirectory made = prepare_for(config_in(tmp / "new"));
  EXPECT_TRUE(made.created);
  EXPECT_TRUE(fs::is_directory(tmp / "new"));
  EXPECT_EQ(made.path, fs::canonical(tmp / "new").string());
  EXPECT_FALSE(made.filesystem.empty());
  try {
    prepare_for(config_in(tmp / "missing/child"));
    FAIL() << "created a parent";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("parent directory does not exist"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(tmp / "missing"));
}

TEST(PrepareDirectory, RejectsAFileOrAnExistingTargetName) {
  TempDir tmp;
  testing::write_text(tmp / "plain", "x");
  EXPECT_THROW(prepare_for(config_in(tmp / "plain")), UsageError);
  fs::create_symlink(tmp / "nowhere", tmp / "dangling");
  try {
    prepare_for(config_in(tmp / "dangling"));
    FAIL() << "accepted a dangling link";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("dangling symbolic link"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(tmp / "nowhere"));
  testing::write_text(tmp / "write10.txt", "mine");
  testing::write_text(tmp / "write11.txt", "outside --files");
  testing::write_text(tmp / "write07.txt", "leading zero: not a generated name");
  RunConfig c = config_in(tmp.path());
  EXPECT_THROW(prepare_for(c), UsageError);
  c.overwrite = true;
  EXPECT_NO_THROW(prepare_for(c));
  c.overwrite = false;
  c.files = 9;
  EXPECT_NO_THROW(prepare_for(c));  // write10 is not a name of a 9-file run
  c.files = 10;
  c.sweep_threads = {1, 2};
  EXPECT_NO_THROW(prepare_for(c));  // a sweep writes only into scratch directories
  EXPECT_EQ(testing::read_file(tmp / "write10.txt"), "mine");
}

TEST(RemoveFiles, RemovesOnlyGeneratedNamesAndNeverFollowsALink) {
  TempDir tmp;
  TempDir outside;
  const FilePattern pattern = parse_pattern("write{}.txt");
  for (int i = 1; i <= 4; ++i)
    testing::write_text(tmp / ("write" + std::to_string(i) + ".txt"), "x");
  testing::write_text(tmp / "notes.txt", "foreign");
  testing::write_text(tmp / "write9.txt", "not in this slice");
  testing::write_text(outside / "target", "outside --dir");
  fs::remove(tmp / "write3.txt");
  fs::create_symlink(outside / "target", tmp / "write3.txt");                  // a planted link
  const std::uint64_t removed = remove_files(tmp.path(), pattern, {1, 5, 1});  // 1..5, 5 missing
  EXPECT_EQ(removed, 4u);  // 1, 2, the link 3, 4
  EXPECT_EQ(testing::read_file(tmp / "notes.txt"), "foreign");
  EXPECT_EQ(testing::read_file(tmp / "write9.txt"), "not in this slice");
  EXPECT_EQ(testing::read_file(outside / "target"), "outside --dir");
}

TEST(RemoveDirectory, RefusesADirectoryThatHoldsAnything) {
  TempDir tmp;
  make_directory(tmp / "d");
  testing::write_text(tmp / "d/foreign", "x");
  EXPECT_THROW(remove_directory(tmp / "d"), IoError);
  EXPECT_TRUE(fs::exists(tmp / "d/foreign"));
  EXPECT_THROW(make_directory(tmp / "d"), IoError);  // never reuses a name
}

TEST(FindTrash, OnlyDirectoriesNamedLikeAGivenUpScratchRoot) {
  TempDir tmp;
  make_directory(tmp / ".mpiwrite-1a2b-3c4d.trash", 0700);
  make_directory(tmp / ".mpiwrite-1a2b-3c4d", 0700);    // a live scratch root: not trash
  make_directory(tmp / ".mpiwrite-77-88.trash", 0755);  // not made by mpiwrite (mode)
  make_directory(tmp / ".mpiwrite-zz-3c4d.trash");      // not a run id
  testing::write_text(tmp / ".mpiwrite-1-2.trash", "a file, not a directory");
  fs::create_symlink(tmp / ".mpiwrite-1a2b-3c4d.trash", tmp / ".mpiwrite-5-6.trash");  // a link
  EXPECT_EQ(find_trash(tmp.path()), std::vector<std::string>{tmp / ".mpiwrite-1a2b-3c4d.trash"});
  EXPECT_EQ(trash_path("/d/.mpiwrite-1-2"), "/d/.mpiwrite-1-2.trash");
}

TEST(CheckDirectory, HasNoSideEffectAndRefusesWhatOverwriteMustNotTouch) {
  TempDir tmp;
  RunConfig c = config_in(tmp / "new");
  EXPECT_TRUE(check_for(c));  // missing: the run would create it
  EXPECT_FALSE(fs::exists(tmp / "new"));
  c = config_in(tmp.path());
  c.overwrite = true;
  testing::write_text(tmp / "outside", "x");
  fs::create_hard_link(tmp / "outside", tmp / "write2.txt");
  EXPECT_THROW(check_for(c), UsageError);
  fs::remove(tmp / "write2.txt");
  fs::create_symlink(tmp / "outside", tmp / "write2.txt");
  EXPECT_THROW(check_for(c), UsageError);
  fs::remove(tmp / "write2.txt");
  testing::write_text(tmp / "write2.txt", "the user's");
  EXPECT_FALSE(check_for(c));  // a regular file of its own: --overwrite may rewrite it
  c.cleanup = true;
  EXPECT_THROW(check_for(c), UsageError);  // ... but --cleanup could not remove it
}

TEST(UnlinkIfSame, NeverRemovesWhatWasPutAtTheNameSince) {
  TempDir tmp;
  const UniqueFd dir = open_directory(tmp.path());
  testing::write_text(tmp / "mine", "x");
  UniqueFd fd(::open((tmp / "mine").c_str(), O_RDONLY));
  fs::rename(tmp / "mine", tmp / "elsewhere");
  ASSERT_EQ(::mkfifo((tmp / "mine").c_str(), 0600), 0);  // put at the name after the open
  unlink_if_same(dir.get(), "mine", fd.get());
  EXPECT_TRUE(fs::is_fifo(tmp / "mine"));
  unlink_if_same(dir.get(), "mine", -1);  // no descriptor: only a regular file of its own goes
  EXPECT_TRUE(fs::is_fifo(tmp / "mine"));
  fs::remove(tmp / "mine");
  fs::create_hard_link(tmp / "elsewhere", tmp / "mine");
  unlink_if_same(dir.get(), "mine", -1);
  EXPECT_TRUE(fs::exists(tmp / "mine"));
  fs::remove(tmp / "mine");
  unlink_if_same(dir.get(), "elsewhere", fd.get());  // still the open file: removed
  EXPECT_FALSE(fs::exists(tmp / "elsewhere"));
}

}  // namespace
}  // namespace mpiwrite
