// -o/--output: what stands at the path decides how the report is written, and what cannot be
// written is refused before the run, naming the path as given.
#include "mpiwrite/sys/output_path.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <filesystem>

#include "mpiwrite/core/errors.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

using Kind = OutputTarget::Kind;

// The UsageError check_output_path throws, or "" when it accepts.
std::string refusal(const RunConfig& config) {
  try {
    check_output_path(config);
    return "";
  } catch (const UsageError& e) {
    return e.what();
  }
}

RunConfig with(const std::string& dir, const std::string& output) {
  RunConfig c;
  c.dir = dir;
  c.output = output;
  c.files = 10;
  return c;
}

TEST(FollowOutput, KindsOfTarget) {
  testing::TempDir t;
  testing::write_text(t / "file", "x");
  ::symlink((t / "file").c_str(), (t / "link").c_str());
  ::symlink("link", (t / "link2").c_str());  // relative, through another link
  ::symlink((t / "nowhere").c_str(), (t / "dangling").c_str());
  ::mkfifo((t / "fifo").c_str(), 0600);

  EXPECT_EQ(follow_output(t / "new").kind, Kind::Absent);
  EXPECT_TRUE(follow_output(t / "new").replaced());
  EXPECT_EQ(follow_output(t / "file").kind, Kind::Regular);
  const OutputTarget link = follow_output(t / "link2");
  EXPECT_EQ(link.kind, Kind::Regular);
  EXPECT_TRUE(link.through_link);
  EXPECT_TRUE(link.replaced());
  EXPECT_EQ(std::filesystem::canonical(link.file), std::filesystem::canonical(t / "file"));
  const OutputTarget dangling = follow_output(t / "dangling");
  EXPECT_EQ(dangling.kind, Kind::Absent);
  EXPECT_FALSE(dangling.replaced());  // written through the link, which stays
  EXPECT_EQ(dangling.file, t / "nowhere");
  EXPECT_EQ(follow_output(t / "fifo").kind, Kind::Special);
  EXPECT_EQ(follow_output(t.path()).kind, Kind::Directory);
  EXPECT_EQ(follow_output("/dev/null").kind, Kind::Special);
  EXPECT_EQ(follow_output("/dev/stdout").kind, Kind::ProcLink);
  EXPECT_EQ(follow_output("/dev/fd/1").kind, Kind::ProcLink);
  EXPECT_FALSE(follow_output("/proc/self/fd/2").replaced());
}

TEST(FollowOutput, ALinkLoopIsRefused) {
  testing::TempDir t;
  ::symlink("b", (t / "a").c_str());
  ::symlink("a", (t / "b").c_str());
  EXPECT_THROW(follow_output(t / "a"), UsageError);
}

TEST(CheckOutputPath, AcceptsFilesDevicesAndTheStandardStreams) {
  testing::TempDir t;
  ::mkdir((t / "data").c_str(), 0755);
  testing::write_text(t / "old.json", "x");
  for (const std::string& out :
       {t / "r.json", t / "old.json", t / "data/report.json", t / "data/write0.txt",
        t / "data/write11.txt", std::string("/dev/null"), std::string("/dev/stdout"),
        std::string("/dev/stderr")}) {
    EXPECT_EQ(refusal(with(t / "data", out)), "") << out;
  }
}

TEST(CheckOutputPath, RefusesWhatCannotBeWritten) {
  testing::TempDir t;
  testing::write_text(t / "file", "x");
  ::symlink((t / "no/such/dir/x").c_str(), (t / "dangling-deep").c_str());
  const std::pair<std::string, std::string> cases[] = {
      {t / "no/such/r.json", "its directory " + t / "no/such" + " does not exist"},
      {t / "file/r.json", "a part of its path is not a directory"},
      {t.path(), "is a directory"},
      {t / "sub/", "names a directory"},
      {t / "dangling-deep", "does not exist"},
      {"/proc/self/r.json", "no file can be created in /proc/self"},
  };
  for (const auto& [out, message] : cases) {
    const std::string why = refusal(with(t / "data", out));
    EXPECT_NE(why.find("--output " + out + ": "), std::string::npos) << out << ": " << why;
    EXPECT_NE(why.find(message), std::string::npos) << out << ": " << why;
  }
}

TEST(CheckOutputPath, RefusesTheRunsOwnFilesInEverySpelling) {
  testing::TempDir t;
  ::mkdir((t / "data").c_str(), 0755);
  ::symlink((t / "data").c_str(), (t / "alias").c_str());
  ::mkdir((t / "other").c_str(), 0755);
  const std::string cwd = std::filesystem::current_path();
  std::filesystem::current_path(t.path());
  for (const std::string& out :
       {std::string("data/write5.txt"), std::string("./data/write5.txt"),
        std::string("other/../data/write5.txt"), t / "data/write10.txt",
        std::string("alias/write1.txt"), std::string("data//write1.txt")}) {
    EXPECT_NE(refusal(with("data", out)).find("a file this run writes"), std::string::npos) << out;
    EXPECT_NE(refusal(with("./alias/", out)).find("a file this run writes"), std::string::npos)
        << out;
  }
  EXPECT_NE(refusal(with("data", "alias")).find("is --dir data itself"), std::string::npos);
  EXPECT_NE(refusal(with("data", "./data")).find("is --dir data itself"), std::string::npos);
  // A link to a data file, existing or not yet.
  ::symlink("data/write3.txt", "to-data");
  EXPECT_NE(refusal(with("data", "to-data")).find("a file this run writes"), std::string::npos);
  std::filesystem::current_path(cwd);
}

TEST(CheckOutputPath, ADirectoryMpiwriteCreates) {
  testing::TempDir t;
  const std::string fresh = t / "fresh";
  RunConfig c = with(fresh, fresh + "/report.json");
  EXPECT_EQ(refusal(c), "");  // the report goes into --dir once mpiwrite has made it
  c.cleanup = true;           // ... which --cleanup removes before the report is written
  EXPECT_NE(refusal(c).find("which mpiwrite creates and --cleanup removes"), std::string::npos);
  c.output = t / "fresh/../fresh/deeper/report.json";
  EXPECT_NE(refusal(c).find("--cleanup removes"), std::string::npos);
  c.output = fresh;
  EXPECT_NE(refusal(c).find("is --dir " + fresh + " itself"), std::string::npos);
  c = with(fresh, fresh + "/write2.txt");
  EXPECT_NE(refusal(c).find("a file this run writes"), std::string::npos);
  // --cleanup never removes a --dir that existed: a report inside it is fine.
  ::mkdir(fresh.c_str(), 0755);
  c = with(fresh, fresh + "/report.json");
  c.cleanup = true;
  EXPECT_EQ(refusal(c), "");
  EXPECT_FALSE(std::filesystem::exists(t / "fresh/report.json"));  // a check creates nothing
}

// -o's directory is held from the check (issue 21 §1): the real directory, after FILE's links.
TEST(CheckOutputPath, HoldsTheDirectoryTheReportIsReplacedIn) {
  testing::TempDir t;
  ::mkdir((t / "real").c_str(), 0755);
  testing::write_text(t / "real/r.txt", "old\n");  // (a dangling link is written through)
  ::symlink((t / "real/r.txt").c_str(), (t / "link").c_str());
  const HeldOutputDirectory held = check_output_path(with(t / "data", t / "link"));
  ASSERT_TRUE(held.held());
  EXPECT_EQ(held.path, t / "real");
  EXPECT_EQ(held.name, "r.txt");
  struct stat real {};
  ASSERT_EQ(::stat((t / "real").c_str(), &real), 0);
  EXPECT_EQ(held.identity, (DirectoryIdentity{real.st_dev, real.st_ino}));
}

TEST(CheckOutputPath, HoldsNothingForWhatIsWrittenInPlace) {
  testing::TempDir t;
  ::mkfifo((t / "fifo").c_str(), 0600);
  EXPECT_FALSE(check_output_path(with(t / "data", t / "fifo")).held());
  EXPECT_FALSE(check_output_path(with(t / "data", "/dev/null")).held());
  EXPECT_FALSE(check_output_path(with(t / "data", "")).held());
}

TEST(CheckOutputPath, AReportInADirStillToBeMadeIsHeldLater) {
  testing::TempDir t;
  const HeldOutputDirectory later = check_output_path(with(t / "data", t / "data/r.txt"));
  EXPECT_FALSE(later.held());
  EXPECT_TRUE(later.deferred);
}

}  // namespace
}  // namespace mpiwrite

namespace mpiwrite {
namespace {

// The message check_output_paths throws for `outputs`, or "" when it accepts them.
std::string refusal_of(const RunConfig& config, const std::vector<ReportOutput>& outputs) {
  try {
    check_output_paths(config, outputs);
    return "";
  } catch (const UsageError& e) {
    return e.what();
  }
}

// Two spellings of one file that no string comparison sees (core/report_outputs.cpp compares
// paths): a link to it, a linked directory; a new name too. Devices may be named twice.
TEST(CheckOutputPaths, OneFileUnderTwoNamesIsRefused) {
  testing::TempDir t;
  testing::write_text(t / "old.json", "x");
  ::symlink((t / "old.json").c_str(), (t / "link.json").c_str());
  ::mkdir((t / "d").c_str(), 0700);
  ::symlink((t / "d").c_str(), (t / "dlink").c_str());
  const RunConfig c = with(t / "data", "");
  const std::string existing = refusal_of(
      c, {{Format::Json, t / "old.json", "--output"}, {Format::Json, t / "link.json", "--json"}});
  EXPECT_EQ(existing, fmt::format("--output {0}/old.json and --json {0}/link.json name the same "
                                  "file; give each output a file of its own",
                                  t.path()));
  EXPECT_NE(refusal_of(c, {{Format::Csv, t / "d/new.csv", "--csv"},
                           {Format::Csv, t / "dlink/new.csv", "--output"}}),
            "");
  EXPECT_EQ(refusal_of(c, {{Format::Csv, "/dev/null", "--csv"},
                           {Format::Json, "/dev/null", "--json"}}),
            "");
  // Each is checked as -o is, its own option named.
  EXPECT_EQ(refusal_of(c, {{Format::Csv, t / "missing/r.csv", "--csv"}}),
            fmt::format("--csv {0}/missing/r.csv: its directory {0}/missing does not exist "
                        "(mpiwrite does not create it)",
                        t.path()));
  const auto held = check_output_paths(c, {{Format::Csv, t / "d/r.csv", "--csv"},
                                           {Format::Json, t / "r.json", "--json"}});
  ASSERT_EQ(held.size(), 2u);
  EXPECT_TRUE(held[0].held());
  EXPECT_EQ(held[0].name, "r.csv");
  EXPECT_EQ(held[1].name, "r.json");
}

}  // namespace
}  // namespace mpiwrite
