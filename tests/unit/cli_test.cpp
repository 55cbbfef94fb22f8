#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/points.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

CliOutcome parse(std::vector<std::string> words) {
  words.insert(words.begin(), "mpiwrite");
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

TEST(Cli, DefaultsAreTheSeedWorkload) {
  const CliOutcome out = parse({});
  ASSERT_TRUE(out.run) << out.message;
  const RunConfig& c = out.config;
  EXPECT_EQ(c.files, 100u);
  EXPECT_EQ(c.lines, 100u);
  EXPECT_EQ(c.text, "Hello, world!");
  EXPECT_EQ(c.dir, "mpiwrite-data");
  EXPECT_EQ(c.pattern, "write{}.txt");
  EXPECT_EQ(c.threads, 1u);
  EXPECT_EQ(c.partition, Partition::Block);
  EXPECT_EQ(c.write_mode, WriteMode::Line);
  EXPECT_EQ(c.engine, Engine::Posix);
  EXPECT_EQ(c.repetitions, 1u);
  EXPECT_EQ(c.warmup, 0u);
  EXPECT_EQ(c.format, Format::Table);
  EXPECT_FALSE(c.fsync || c.overwrite || c.cleanup || c.per_rank || c.dry_run);
  EXPECT_EQ(c.file_size_bytes(), 1400u);
}

TEST(Cli, ReadsEveryOption) {
  const CliOutcome out = parse(
      {"-n",           "7",         "-l",          "3",         "--text",   "abc",         "-d",
       "/tmp/x",       "--pattern", "f{}.dat",     "-t",        "3",        "--partition", "cyclic",
       "--write-mode", "WHOLE",     "--engine",    "uring",     "--fsync",  "-r",          "5",
       "--warmup",     "2",         "--overwrite", "--cleanup", "--format", "csv",         "-o",
       "r.csv",        "--per-rank"});
  ASSERT_TRUE(out.run) << out.message;
  const RunConfig& c = out.config;
  EXPECT_EQ(c.files, 7u);
  EXPECT_EQ(c.lines, 3u);
  EXPECT_EQ(c.text, "abc");
  EXPECT_EQ(c.dir, "/tmp/x");
  EXPECT_EQ(c.pattern, "f{}.dat");
  EXPECT_EQ(c.threads, 3u);
  EXPECT_EQ(c.partition, Partition::Cyclic);
  EXPECT_EQ(c.write_mode, WriteMode::Whole);
  EXPECT_EQ(c.engine, Engine::Uring);
  EXPECT_EQ(c.repetitions, 5u);
  EXPECT_EQ(c.warmup, 2u);
  EXPECT_EQ(c.format, Format::Csv);
  EXPECT_EQ(c.output, "r.csv");
  EXPECT_TRUE(c.fsync && c.overwrite && c.cleanup && c.per_rank);
  EXPECT_TRUE(parse({"--dry-run"}).config.dry_run);
}

struct BadInput {
  std::vector<std::string> words;
  std::string expected;  // a part of the one-line message
};

class CliRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliRejects, WithUsageExitCodeAndOneMessage) {
  const CliOutcome out = parse(GetParam().words);
  EXPECT_FALSE(out.run);
  EXPECT_EQ(out.exit_code, kExitUsage);
  EXPECT_NE(out.message.find(GetParam().expected), std::string::npos) << out.message;
  EXPECT_EQ(out.message.rfind("mpiwrite: error: ", 0), 0u) << out.message;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, CliRejects,
    ::testing::Values(
        BadInput{{"--files", "0"}, "--files: 0 is not between 1 and"},
        BadInput{{"--files", "-3"}, "--files: -3 is negative"},
        BadInput{{"--files", "abc"}, "--files: abc is not a whole number"},
        BadInput{{"--files", "1e3"}, "not a whole number"},
        BadInput{{"--files", "99999999999999999999"}, "too large"},
        BadInput{{"--threads", "0"}, "--threads: 0 is not between 1 and 1024"},
        BadInput{{"--threads", "1025"}, "--threads"}, BadInput{{"--lines", "0"}, "--lines"},
        BadInput{{"-r", "0"}, "--repetitions"},
        BadInput{{"--warmup", "-1"}, "--warmup: -1 is negative"},
        BadInput{{"--pattern", "write.txt"}, "--pattern must contain {}"},
        BadInput{{"--pattern", "a/{}"}, "no '/'"},
        BadInput{{"--format", "xml"}, "--format: xml not in {table,markdown,csv,json}"},
        BadInput{{"--partition", "random"}, "--partition"},
        BadInput{{"--text", ""}, "--text must not be empty"},
        BadInput{{"--lines", "1000000000"}, "bytes per file"},
        BadInput{{"--dry-run", "--output", "x"}, "cannot be combined"},
        BadInput{{"--no-such-option"}, "no-such-option"}, BadInput{{"stray"}, "stray"},
        BadInput{{"--sweep-threads", "1,0"}, "--sweep-threads: 0 is not between 1 and 1024"},
        BadInput{{"--sweep-threads", "1,x"}, "not a whole number"},
        BadInput{{"--sweep-threads", ""},
                 "--sweep-threads: an empty value; give thread counts like 1,2,4"},
        BadInput{{"--sweep-threads", "1,,2"}, "--sweep-threads: '1,,2' has an empty item"},
        BadInput{{"--sweep-threads", "1,2,"}, "--sweep-threads: '1,2,' has an empty item"},
        BadInput{{"--sweep-threads", ",1"}, "has an empty item"},
        BadInput{{"--slow-rank", "0,,1"}, "--slow-rank: '0,,1' has an empty item"},
        BadInput{{"--slow-rank", ""}, "--slow-rank: an empty value"},
        BadInput{{"--compare", "--sweep-threads", "1,2"}, "cannot be combined"},
        BadInput{{"--compare", "--overwrite"}, "--overwrite applies to a plain run"},
        BadInput{{"--chunk", "0"}, "--chunk"}, BadInput{{"--slow-rank", "-1"}, "negative"},
        BadInput{{"--engine", "aio"}, "--engine: aio not in {posix,uring,null}"},
        BadInput{{"--queue-depth", "0"}, "--queue-depth: 0 is not between 1 and 4096"},
        BadInput{{"-q", "4097", "--engine", "uring"}, "--queue-depth"},
        BadInput{{"--queue-depth", "8"}, "--queue-depth needs --engine uring"},
        BadInput{{"--queue-depth", "8", "--engine", "null"}, "--queue-depth needs --engine uring"},
        BadInput{{"--compare", "--engine", "uring", "-q", "4"}, "drop --queue-depth"}));

TEST(Cli, ReadsTheUringEngineAndItsQueueDepth) {
  const RunConfig c = parse({"--engine", "uring", "--queue-depth", "32"}).config;
  EXPECT_EQ(c.engine, Engine::Uring);
  EXPECT_EQ(c.queue_depth, 32u);
  EXPECT_EQ(parse({"--engine", "URING"}).config.queue_depth, 1u);  // one file in flight
}

// --progress: not given, alone, with seconds (decimal), 0; and the style.
TEST(Cli, ReadsProgressAndItsStyle) {
  EXPECT_EQ(parse({}).config.progress_s, kProgressNotGiven);
  EXPECT_EQ(parse({"--progress"}).config.progress_s, kProgressBare);
  EXPECT_EQ(parse({"--progress", "-n", "3"}).config.progress_s, kProgressBare);  // no value
  EXPECT_EQ(parse({"--progress=0.2"}).config.progress_s, 0.2);
  EXPECT_EQ(parse({"--progress", "5"}).config.progress_s, 5.0);
  EXPECT_EQ(parse({"--progress=0"}).config.progress_s, 0.0);
  EXPECT_EQ(parse({}).config.progress_style, ProgressStyle::Auto);
  EXPECT_EQ(parse({"--progress-style", "TTY"}).config.progress_style, ProgressStyle::Tty);
  EXPECT_EQ(parse({"--progress-style", "lines"}).config.progress_style, ProgressStyle::Lines);
  for (const char* bad : {"--progress=abc", "--progress=-1", "--progress=0.001", "--progress=86401",
                          "--progress=nan", "--progress=1s"}) {
    const CliOutcome out = parse({bad});
    EXPECT_FALSE(out.run) << bad;
    EXPECT_EQ(out.exit_code, kExitUsage) << bad;
    EXPECT_NE(out.message.find("--progress: "), std::string::npos) << out.message;
  }
}

TEST(Cli, ReadsSweepCompareDynamicAndSlowRanks) {
  const CliOutcome sweep =
      parse({"--sweep-threads", "1,2,4", "--partition", "dynamic", "--chunk", "5", "--slow-rank",
             "1,3", "--slow-delay-us", "250", "--seed", "7"});
  ASSERT_TRUE(sweep.run) << sweep.message;
  EXPECT_EQ(sweep.config.sweep_threads, (std::vector<unsigned>{1, 2, 4}));
  EXPECT_EQ(sweep.config.partition, Partition::Dynamic);
  EXPECT_EQ(sweep.config.chunk, 5u);
  EXPECT_EQ(sweep.config.slow_ranks, (std::vector<int>{1, 3}));
  EXPECT_EQ(sweep.config.slow_delay_us, 250u);
  EXPECT_EQ(sweep.config.seed, 7u);
  const CliOutcome compare = parse({"--compare", "--max-concurrency", "16"});
  ASSERT_TRUE(compare.run) << compare.message;
  EXPECT_TRUE(compare.config.compare);
  EXPECT_EQ(compare.config.max_concurrency, 16u);
}

TEST(ValidateForWorld, RejectsRanksThatDoNotExist) {
  RunConfig c;
  c.slow_ranks = {3};
  EXPECT_THROW(validate_for_world(c, 3), UsageError);
  EXPECT_NO_THROW(validate_for_world(c, 4));
}

// Every point --compare runs must fit the documented caps: 1 rank x c threads for the largest
// power of two c up to the limit, whether the limit is given or ranks x --threads.
TEST(ValidateForWorld, CompareRefusesAThreadsPointOverTheCap) {
  RunConfig c;
  c.compare = true;
  c.max_concurrency = 2047;  // the largest power of two in it is 1024: allowed
  EXPECT_NO_THROW(validate_for_world(c, 2));
  c.max_concurrency = 2048;  // 1 x 2048 threads, whatever the ranks
  for (int ranks : {1, 2, 4, 64}) {
    try {
      validate_for_world(c, ranks);
      ADD_FAILURE() << "accepted --max-concurrency 2048 on " << ranks << " ranks";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("1 rank x 2048 threads"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("pass --max-concurrency 1024"), std::string::npos);
    }
  }
  c.max_concurrency = 0;  // the default limit: ranks x --threads
  c.threads = 1024;
  EXPECT_NO_THROW(validate_for_world(c, 1));
  try {
    validate_for_world(c, 2);
    ADD_FAILURE() << "accepted 2 ranks x --threads 1024";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("(2 ranks x --threads 1024)"), std::string::npos)
        << e.what();
  }
  c.threads = 600;  // 2 x 600 = 1200: largest power of two 1024
  EXPECT_NO_THROW(validate_for_world(c, 2));
  // and every point made then is within the caps
  for (const PointSpec& p : make_points(c, 2)) {
    EXPECT_LE(p.threads, kMaxThreads) << p.label();
    EXPECT_LE(p.queue_depth, kMaxQueueDepth) << p.label();
  }
  c.engine = Engine::Uring;
  c.max_concurrency = 2047;
  for (const PointSpec& p : make_points(c, 4)) {
    EXPECT_LE(p.threads, kMaxThreads) << p.label();
    EXPECT_LE(p.queue_depth, kMaxQueueDepth) << p.label();
  }
}

TEST(Cli, HelpAndVersionExitZeroWithTextForStdout) {
  const CliOutcome help = parse({"--help"});
  EXPECT_FALSE(help.run);
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.message.find("--files"), std::string::npos);
  EXPECT_NE(help.message.find("=100"), std::string::npos);  // defaults are listed
  const CliOutcome version = parse({"--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.message.rfind("mpiwrite ", 0), 0u);
}

TEST(Validate, HoldsConfigsBuiltInCodeToTheSameRules) {
  RunConfig c;
  EXPECT_NO_THROW(validate(c));
  c.text = "two\nlines";
  EXPECT_THROW(validate(c), UsageError);
  c = RunConfig{};
  c.pattern = std::string(252, 'x') + "{}";  // 252 + 3 digits of 100 = 255: fits
  EXPECT_NO_THROW(validate(c));
  c.files = 1000;  // 4 digits: 256 bytes, over NAME_MAX
  EXPECT_THROW(validate(c), UsageError);
}

TEST(Cli, ReadsTheLayout) {
  const CliOutcome dry = parse({"--layout", "Thread", "--files-per-dir", "64", "--dry-run"});
  ASSERT_TRUE(dry.run) << dry.message;
  EXPECT_EQ(dry.config.layouts, std::vector<Layout>{Layout::Thread});
  EXPECT_EQ(dry.config.files_per_dir, 64u);
  EXPECT_EQ(parse({}).config.layouts, std::vector<Layout>{Layout::Shared});
  EXPECT_EQ(parse({}).config.files_per_dir, 0u);
  const CliOutcome real = parse({"--layout", "rank", "--files-per-dir", "8"});
  ASSERT_TRUE(real.run) << real.message;
  EXPECT_EQ(real.config.layouts, std::vector<Layout>{Layout::Rank});
  EXPECT_EQ(real.config.files_per_dir, 8u);
  EXPECT_NE(parse({"--files-per-dir", "0"}).message.find("--files-per-dir: 0 is not between"),
            std::string::npos);
}

TEST(Validate, RankAndThreadLayoutsNeedAStaticPartition) {
  RunConfig c;
  c.dry_run = true;
  c.partition = Partition::Dynamic;
  c.files_per_dir = 10;  // the shared layout's subdirectories depend on the index only
  EXPECT_NO_THROW(validate(c));
  for (Layout layout : {Layout::Rank, Layout::Thread}) {
    c.layouts = {layout};
    EXPECT_THROW(validate(c), UsageError) << to_string(layout);
    c.compare = true;  // any of the list: shared first does not hide it
    c.layouts = {Layout::Shared, layout};
    EXPECT_THROW(validate(c), UsageError) << to_string(layout);
    c.compare = false;
  }
}

TEST(Cli, ReadsALayoutListInOrderWithoutDuplicates) {
  const CliOutcome both =
      parse({"--compare", "--layout", "thread,shared", "--layout", "Rank,thread"});
  ASSERT_TRUE(both.run) << both.message;
  EXPECT_EQ(both.config.layouts,
            (std::vector<Layout>{Layout::Thread, Layout::Shared, Layout::Rank}));
  const CliOutcome sweep = parse({"--sweep-threads", "1,2", "--layout", "shared,rank,shared"});
  ASSERT_TRUE(sweep.run) << sweep.message;
  EXPECT_EQ(sweep.config.layouts, (std::vector<Layout>{Layout::Shared, Layout::Rank}));
  // One name twice is one layout: a plain run may say it so.
  const CliOutcome twice = parse({"--layout", "rank,rank"});
  ASSERT_TRUE(twice.run) << twice.message;
  EXPECT_EQ(twice.config.layouts, std::vector<Layout>{Layout::Rank});
}

TEST(Cli, RefusesSeveralLayoutsInAPlainRunAndUnknownNames) {
  const CliOutcome plain = parse({"--layout", "shared,rank"});
  EXPECT_FALSE(plain.run);
  EXPECT_EQ(plain.exit_code, kExitUsage);
  EXPECT_NE(plain.message.find("--layout with more than one layout needs --compare or "
                               "--sweep-threads"),
            std::string::npos)
      << plain.message;
  const CliOutcome unknown = parse({"--compare", "--layout", "shared,node"});
  EXPECT_EQ(unknown.exit_code, kExitUsage);
  EXPECT_NE(unknown.message.find("--layout"), std::string::npos) << unknown.message;
  EXPECT_NE(unknown.message.find("node"), std::string::npos) << unknown.message;
  const CliOutcome dynamic =
      parse({"--compare", "--layout", "shared,thread", "--partition", "dynamic"});
  EXPECT_EQ(dynamic.exit_code, kExitUsage);
  EXPECT_NE(dynamic.message.find("need --partition block or cyclic"), std::string::npos)
      << dynamic.message;
}

TEST(Validate, RefusesAnEmptyOrRepeatedLayoutList) {
  RunConfig c;
  c.compare = true;
  c.layouts = {};
  EXPECT_THROW(validate(c), UsageError);
  c.layouts = {Layout::Rank, Layout::Shared, Layout::Rank};
  EXPECT_THROW(validate(c), UsageError);
  c.layouts = {Layout::Rank, Layout::Shared};
  EXPECT_NO_THROW(validate(c));
}

}  // namespace
}  // namespace mpiwrite
