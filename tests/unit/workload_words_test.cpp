// mdtest's workload words: --files-per-rank (resolved once, with the ranks), --file-size and
// --write-size (parsed with their units, exclusive with what they replace), and how the
// report and the dry run say them (core/workload_words.hpp).
#include "mpiwrite/core/workload_words.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/dry_run.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/point_plan.hpp"

namespace mpiwrite {
namespace {

CliOutcome parse(std::vector<std::string> words) {
  words.insert(words.begin(), "mpiwrite");
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

// The one error line of a refused command line (empty when it was accepted).
std::string refusal(const std::vector<std::string>& words) {
  const CliOutcome out = parse(words);
  if (out.run) return {};
  EXPECT_EQ(out.exit_code, kExitUsage) << out.message;
  return out.message.substr(0, out.message.find('\n'));
}

TEST(FilesPerRank, IsResolvedOnceToNTimesTheRanksForEveryPoint) {
  CliOutcome out = parse({"--files-per-rank", "5", "--sweep-threads", "1,2"});
  ASSERT_TRUE(out.run) << out.message;
  EXPECT_EQ(out.config.files_per_rank, 5u);
  resolve_for_world(out.config, 4);
  EXPECT_EQ(out.config.files, 20u);
  EXPECT_EQ(out.config.files_per_rank, 5u);  // as given, for the report
  for (const PointPlan& plan : plan_points(out.config, 4)) {
    EXPECT_EQ(plan.split.files, 20u) << plan.spec.label();  // equal work at every point
  }
  EXPECT_EQ(files_words(out.config), "20 files (5 per rank x 4 ranks)");

  RunConfig plain;
  resolve_for_world(plain, 4);  // without it nothing changes
  EXPECT_EQ(plain.files, 100u);
  EXPECT_EQ(files_words(plain), "100 files");
}

TEST(FilesPerRank, RefusesFilesAndTotalsOverTheLimit) {
  EXPECT_NE(refusal({"--files-per-rank", "5", "-n", "100"})
                .find("--files and --files-per-rank cannot be combined"),
            std::string::npos);
  EXPECT_NE(refusal({"--files-per-rank", "0"}).find("--files-per-rank: 0 is not between 1"),
            std::string::npos);
  CliOutcome out = parse({"--files-per-rank", "250000000001"});
  ASSERT_TRUE(out.run) << out.message;
  EXPECT_THROW(resolve_for_world(out.config, 4), UsageError);
  out.config.files_per_rank = 250'000'000'000;
  EXPECT_NO_THROW(resolve_for_world(out.config, 4));
  EXPECT_EQ(out.config.files, 1'000'000'000'000u);
  // The rules on the number of files see the resolved one: 10^12 files of this pattern would
  // be names of 256 bytes.
  RunConfig c;
  c.pattern = std::string(243, 'x') + "{}";
  c.files_per_rank = 1'000'000;
  EXPECT_NO_THROW(validate(c));
  EXPECT_THROW(resolve_for_world(c, 1'000'000), UsageError);
}

TEST(FileSize, ReadsBytesAndUnitsOfPowersOf1024) {
  const CliOutcome out = parse({"--file-size", "4k", "--write-size", "1K"});
  ASSERT_TRUE(out.run) << out.message;
  EXPECT_EQ(out.config.file_size, 4096u);
  EXPECT_EQ(out.config.write_size, 1024u);
  EXPECT_EQ(parse({"--file-size", "1G"}).config.file_size, std::uint64_t{1} << 30);
  EXPECT_EQ(parse({"--file-size", "3m"}).config.file_size, 3u << 20);
  EXPECT_EQ(parse({"--file-size", "0"}).config.file_size, 0u);
  EXPECT_FALSE(RunConfig{}.file_size.has_value());
  EXPECT_NE(refusal({"--file-size", "1073741825"}).find("is more than 1073741824 bytes"),
            std::string::npos);
  EXPECT_NE(refusal({"--file-size", "1025M"}).find("is more than 1073741824 bytes"),
            std::string::npos);
  EXPECT_NE(refusal({"--file-size", "4kb"}).find("is not a number of bytes"), std::string::npos);
  EXPECT_NE(refusal({"--file-size", "k"}).find("is not a number of bytes"), std::string::npos);
  EXPECT_NE(refusal({"--file-size", "1", "--write-size", "0"}).find("0 is less than 1 byte"),
            std::string::npos);
}

TEST(FileSize, ReplacesLinesTextAndWriteModeAndIsNeededByWriteSize) {
  for (const std::vector<std::string>& words : std::vector<std::vector<std::string>>{
           {"--lines", "100"}, {"--text", "Hello, world!"}, {"--write-mode", "line"}}) {
    std::vector<std::string> both = words;
    both.insert(both.end(), {"--file-size", "10"});
    EXPECT_NE(refusal(both).find(words[0] + " and --file-size cannot be combined"),
              std::string::npos)
        << words[0];
  }
  EXPECT_NE(refusal({"--write-size", "10"}).find("--write-size needs --file-size"),
            std::string::npos);
  RunConfig c;  // in code too, where only a value other than the default shows
  c.file_size = 10;
  c.lines = 3;
  EXPECT_THROW(validate(c), UsageError);
  c.lines = RunConfig{}.lines;
  c.write_size = 4;
  EXPECT_NO_THROW(validate(c));
}

TEST(FileSize, SetsTheBytesAndTheWriteCallsOfAFile) {
  RunConfig c;
  EXPECT_EQ(c.file_size_bytes(), 1400u);
  EXPECT_EQ(c.write_size_bytes(), 14u);
  EXPECT_EQ(c.writes_per_file(), 100u);
  EXPECT_EQ(writes_words(c), "100 writes of 14 B each");
  c.write_mode = WriteMode::Whole;
  EXPECT_EQ(c.write_size_bytes(), 1400u);
  EXPECT_EQ(writes_words(c), "one write() each");

  c = RunConfig{};
  c.file_size = 0;
  EXPECT_EQ(c.file_size_bytes(), 0u);
  EXPECT_EQ(c.writes_per_file(), 0u);
  EXPECT_EQ(writes_words(c), "no write");
  c.file_size = 4096;
  EXPECT_EQ(writes_words(c), "1 write of 4096 B");
  c.write_size = 8192;  // larger than the file: one write of the file
  EXPECT_EQ(c.write_size_bytes(), 4096u);
  EXPECT_EQ(writes_words(c), "1 write of 4096 B");
  c.write_size = 1024;
  EXPECT_EQ(writes_words(c), "4 writes of 1024 B each");
  c.file_size = 10000;
  c.write_size = 4096;
  EXPECT_EQ(c.writes_per_file(), 3u);
  EXPECT_EQ(writes_words(c), "3 writes of 4096 B, the last 1808 B");

  c.files_per_rank = 5;  // and the dry run says it all
  resolve_for_world(c, 2);
  std::ostringstream plan;
  write_plan(c, plan_points(c, 2), plan);
  EXPECT_NE(plan.str().find("10 files (5 per rank x 2 ranks) into"), std::string::npos)
      << plan.str();
  EXPECT_NE(plan.str().find("each file: 10000 B (3 writes of 4096 B, the last 1808 B)\n"),
            std::string::npos)
      << plan.str();
}

}  // namespace
}  // namespace mpiwrite
