// Writing the report: atomic replacement of regular files (mode and links kept), in-place
// writes of everything else, and every failure named with its true errno.
#include "mpiwrite/sys/report_output.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "mpiwrite/core/errors.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

mode_t mode_of(const std::string& path) {
  struct stat info {};
  EXPECT_EQ(::lstat(path.c_str(), &info), 0) << path;
  return info.st_mode;
}

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                std::filesystem::directory_iterator()));
}

TEST(WriteOutputFile, NewFileIs0644MinusTheUmask) {
  testing::TempDir t;
  const mode_t old_mask = ::umask(027);
  write_output_file(t / "r.txt", "report\n");
  ::umask(old_mask);
  EXPECT_EQ(testing::read_file(t / "r.txt"), "report\n");
  EXPECT_EQ(mode_of(t / "r.txt") & 07777, 0640u);
  EXPECT_EQ(entries(t.path()), 1u);  // no temporary file left
}

TEST(WriteOutputFile, ReplacingKeepsTheModeAndChangesTheInode) {
  testing::TempDir t;
  testing::write_text(t / "r.txt", "an older and longer report\n");
  ::chmod((t / "r.txt").c_str(), 0600);
  struct stat before {};
  ::stat((t / "r.txt").c_str(), &before);
  write_output_file(t / "r.txt", "new\n");
  struct stat after {};
  ::stat((t / "r.txt").c_str(), &after);
  EXPECT_EQ(testing::read_file(t / "r.txt"), "new\n");
  EXPECT_EQ(after.st_mode & 07777, 0600u);
  EXPECT_NE(after.st_ino, before.st_ino);  // replaced, not rewritten: no reader sees half
}

TEST(WriteOutputFile, ThroughASymbolicLinkTheTargetIsReplacedAndTheLinkKept) {
  testing::TempDir t;
  ::mkdir((t / "elsewhere").c_str(), 0755);
  testing::write_text(t / "elsewhere/real.txt", "old\n");
  ::symlink("elsewhere/real.txt", (t / "link").c_str());
  write_output_file(t / "link", "new\n");
  EXPECT_TRUE(S_ISLNK(mode_of(t / "link")));
  EXPECT_EQ(testing::read_file(t / "elsewhere/real.txt"), "new\n");
  EXPECT_EQ(entries(t / "elsewhere"), 1u);
}

TEST(WriteOutputFile, ADanglingLinkIsWrittenThrough) {
  testing::TempDir t;
  ::symlink("target.txt", (t / "link").c_str());
  write_output_file(t / "link", "new\n");
  EXPECT_TRUE(S_ISLNK(mode_of(t / "link")));
  EXPECT_EQ(testing::read_file(t / "target.txt"), "new\n");
}

TEST(WriteOutputFile, DevicesAreWrittenInPlace) {
  write_output_file("/dev/null", "report\n");
  EXPECT_TRUE(S_ISCHR(mode_of("/dev/null")));
}

TEST(WriteOutputFile, AFullDeviceNamesThePathAndENOSPC) {
  try {
    write_output_file("/dev/full", "report\n");
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_EQ(e.code().value(), ENOSPC);
    EXPECT_EQ(std::string(e.what()), "/dev/full: write: No space left on device");
  }
}

TEST(WriteOutputFile, AFailedReplacementLeavesTheOldFileAndNoTemporary) {
  testing::TempDir t;
  ::mkdir((t / "r.txt").c_str(), 0755);  // a directory appeared where the report goes
  EXPECT_THROW(write_output_file(t / "r.txt", "x"), IoError);
  EXPECT_EQ(entries(t.path()), 1u);
}

TEST(PublishReportText, TheStreamGetsTheReportAndAFailingFileIsNamed) {
  testing::TempDir t;
  std::ostringstream out;
  try {
    publish_report_text("report\n", out, t / "no/such/r.txt");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              t / "no/such/r.txt" + ": create a temporary file: No such file or directory");
  }
  EXPECT_EQ(out.str(), "report\n");  // standard output got it all the same
}

TEST(PublishReportText, AFailingStreamStillLeavesTheFile) {
  testing::TempDir t;
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  try {
    publish_report_text("report\n", out, t / "r.txt");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("standard output: write: "), std::string::npos);
  }
  EXPECT_EQ(testing::read_file(t / "r.txt"), "report\n");
}

// Issue 21 §1: -o's directory renamed between the check and the write, a link to another
// directory (holding a file with the report's name) in its place. The report goes to the held
// directory, wherever it now is; the other directory is untouched; the change is reported.
TEST(WriteOutputFile, AHeldDirectorySwappedForALinkKeepsTheReportAndSaysSo) {
  testing::TempDir t;
  ::mkdir((t / "out").c_str(), 0755);
  ::mkdir((t / "other").c_str(), 0755);
  testing::write_text(t / "other/r.txt", "precious\n");
  const HeldOutputDirectory held = hold_output_directory(t / "out/r.txt");
  ASSERT_TRUE(held.held());
  ASSERT_EQ(::rename((t / "out").c_str(), (t / "moved").c_str()), 0);
  ASSERT_EQ(::symlink((t / "other").c_str(), (t / "out").c_str()), 0);
  try {
    write_output_file(t / "out/r.txt", "report\n", held);
    FAIL() << "the swap was not reported";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "-o " + t / "out/r.txt" + ": its directory " + t / "out" +
                  " is no longer the "
                  "directory it named when the run began (renamed, removed or replaced during the "
                  "run); the report was written into the directory it named when the run began, "
                  "wherever that is now");
  }
  EXPECT_EQ(testing::read_file(t / "moved/r.txt"), "report\n");
  EXPECT_EQ(entries(t / "moved"), 1u);  // no temporary file left
  EXPECT_EQ(testing::read_file(t / "other/r.txt"), "precious\n");
  EXPECT_EQ(entries(t / "other"), 1u);
}

TEST(WriteOutputFile, AHeldDirectoryReachedThroughTheUsersLinkIsStillItsDirectory) {
  testing::TempDir t;
  ::mkdir((t / "real").c_str(), 0755);
  ::symlink("real", (t / "via").c_str());
  testing::write_text(t / "real/r.txt", "old\n");
  ::chmod((t / "real/r.txt").c_str(), 0600);
  const HeldOutputDirectory held = hold_output_directory(t / "via/r.txt");
  write_output_file(t / "via/r.txt", "new\n", held);
  EXPECT_EQ(testing::read_file(t / "real/r.txt"), "new\n");
  EXPECT_EQ(mode_of(t / "real/r.txt") & 07777, 0600u);  // the old file's mode kept
  EXPECT_EQ(entries(t / "real"), 1u);
}

TEST(WriteOutputFile, AFifoPutAtTheNameInTheHeldDirectoryIsNotReplaced) {
  testing::TempDir t;
  const HeldOutputDirectory held = hold_output_directory(t / "r.txt");
  ::mkfifo((t / "r.txt").c_str(), 0600);
  const int reader = ::open((t / "r.txt").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  write_output_file(t / "r.txt", "report\n", held);
  char got[16] = {};
  EXPECT_EQ(::read(reader, got, sizeof got), 7);
  ::close(reader);
  EXPECT_TRUE(S_ISFIFO(mode_of(t / "r.txt")));
}

TEST(PublishReportText, ASwappedHeldDirectoryStillLeavesTheReportOnTheStream) {
  testing::TempDir t;
  ::mkdir((t / "out").c_str(), 0755);
  const HeldOutputDirectory held = hold_output_directory(t / "out/r.txt");
  ASSERT_EQ(::rename((t / "out").c_str(), (t / "moved").c_str()), 0);
  std::ostringstream out;
  EXPECT_THROW(publish_report_text("report\n", out, t / "out/r.txt", held), std::runtime_error);
  EXPECT_EQ(out.str(), "report\n");
  EXPECT_EQ(testing::read_file(t / "moved/r.txt"), "report\n");
  EXPECT_FALSE(std::filesystem::exists(t / "out"));  // nothing made at the name
}

// A directory the user may write and search but not list took a report before it was held:
// it still does (held by O_PATH). Root reads every directory, so only another user sees this.
TEST(WriteOutputFile, ADirectoryThatCannotBeListedIsStillHeldAndWritten) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may list any directory";
  testing::TempDir t;
  ::mkdir((t / "wx").c_str(), 0300);
  const HeldOutputDirectory held = hold_output_directory(t / "wx/r.txt");
  EXPECT_TRUE(held.held());
  write_output_file(t / "wx/r.txt", "report\n", held);
  ::chmod((t / "wx").c_str(), 0700);
  EXPECT_EQ(testing::read_file(t / "wx/r.txt"), "report\n");
}

TEST(HoldParentOf, RefusesADirWhoseNameLeadsElsewhere) {
  testing::TempDir t;
  ::mkdir((t / "d").c_str(), 0755);
  struct stat info {};
  ASSERT_EQ(::stat((t / "d").c_str(), &info), 0);
  const DirectoryIdentity d{info.st_dev, info.st_ino};
  const HeldOutputDirectory parent = hold_parent_of(t / "d", d);
  EXPECT_EQ(parent.path, t.path());
  EXPECT_NO_THROW(expect_output_directory(parent, t / "copy.txt"));
  ::rename((t / "d").c_str(), (t / "e").c_str());
  ::mkdir((t / "d").c_str(), 0755);
  EXPECT_THROW(hold_parent_of(t / "d", d), DirectoryReplaced);
}

}  // namespace
}  // namespace mpiwrite
