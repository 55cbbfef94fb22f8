// Which option needs which (core/option_dependencies.hpp): every row refuses its option where
// it would do nothing and lets it through where it does something, and every field of
// RunConfig is either in the table or decided to have an effect in every valid run.
#include "mpiwrite/core/option_dependencies.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/config_fields.hpp"
#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

CliOutcome parse(std::vector<std::string> words) {
  words.insert(words.begin(), "mpiwrite");
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

// For every row's message: a command line where the option does nothing, and one where the
// same option does something.
struct RowCase {
  std::vector<std::string> idle;
  std::vector<std::string> working;
};
const std::map<std::string, RowCase>& row_cases() {
  static const std::map<std::string, RowCase> cases{
      {"--chunk needs", {{"--chunk", "4"}, {"--chunk", "4", "--partition", "dynamic"}}},
      {"--slow-delay-us needs",
       {{"--slow-delay-us", "5"}, {"--slow-delay-us", "5", "--slow-rank", "0"}}},
      {"--max-concurrency needs",
       {{"--max-concurrency", "4"}, {"--max-concurrency", "4", "--compare"}}},
      {"--seed needs", {{"--seed", "3"}, {"--seed", "3", "--sweep-threads", "1,2"}}},
      {"--threads and --sweep-threads", {{"-t", "2", "--sweep-threads", "1,2"}, {"-t", "2"}}},
      {"--threads does nothing with --compare",
       {{"-t", "2", "--compare", "--max-concurrency", "4"}, {"-t", "2", "--compare"}}},
      {"--queue-depth needs", {{"-q", "4"}, {"-q", "4", "--engine", "uring"}}},
      {"--compare chooses the queue depths",
       {{"-q", "4", "--engine", "uring", "--compare"}, {"-q", "4", "--engine", "uring"}}},
      {"--write-mode needs",
       {{"--write-mode", "whole", "--engine", "null"}, {"--write-mode", "whole"}}},
      {"--files and --files-per-rank", {{"-n", "10", "--files-per-rank", "2"}, {"-n", "10"}}},
      {"--lines and --file-size", {{"-l", "3", "--file-size", "9"}, {"-l", "3"}}},
      {"--text and --file-size", {{"--text", "a", "--file-size", "9"}, {"--text", "a"}}},
      {"--write-mode and --file-size",
       {{"--write-mode", "whole", "--file-size", "9"}, {"--write-mode", "whole"}}},
      {"--write-size needs", {{"--write-size", "4"}, {"--write-size", "4", "--file-size", "9"}}},
      {"--verify and --engine null", {{"--verify", "--engine", "null"}, {"--verify"}}},
      {"--overwrite applies to a plain run", {{"--overwrite", "--compare"}, {"--overwrite"}}},
      {"--overwrite needs", {{"--overwrite", "--engine", "null"}, {"--overwrite"}}},
      {"--wear-out needs --time-limit", {{"--wear-out"}, {"--wear-out", "--time-limit", "1"}}},
      {"--per-rank needs", {{"--per-rank", "--format", "json"}, {"--per-rank", "--format", "csv"}}},
      {"--wide needs", {{"--wide", "--format", "markdown"}, {"--wide", "--format", "table"}}},
      {"--progress-style needs",
       {{"--progress-style", "lines", "--progress", "0"}, {"--progress-style", "lines"}}},
      {"--branch needs", {{"--branch", "4"}, {"--branch", "4", "--tree-depth", "2"}}},
      {"--shift needs", {{"--shift", "0"}, {"--shift", "0", "--phases", "write,stat"}}},
      {"--random-order needs",
       {{"--random-order"}, {"--random-order", "--phases", "write,remove"}}},
      {"--precision needs", {{"--precision", "1%"}, {"--precision", "1%", "-r", "auto"}}},
      {"--min-repetitions needs",
       {{"--min-repetitions", "6"}, {"--min-repetitions", "6", "-r", "auto"}}},
      {"--max-repetitions needs",
       {{"--max-repetitions", "9"}, {"--max-repetitions", "9", "-r", "auto"}}},
      {"--max-time needs", {{"--max-time", "5"}, {"--max-time", "5", "-r", "auto"}}},
      {"--equivalence needs", {{"--equivalence", "5%"}, {"--equivalence", "5%", "--compare"}}},
      {"--tree-depth and --files-per-dir",
       {{"--tree-depth", "2", "--files-per-dir", "5"}, {"--tree-depth", "2"}}},
  };
  return cases;
}

const RowCase& case_of(const OptionDependency& row) {
  for (const auto& [start, c] : row_cases()) {
    if (row.message.substr(0, start.size()) == start) return c;
  }
  ADD_FAILURE() << "no case for the row of " << row.option << ": " << row.message;
  static const RowCase none;
  return none;
}

TEST(OptionDependencies, EveryRowRefusesItsIdleOptionAndKeepsItsWorkingOne) {
  for (const OptionDependency& row : option_dependencies()) {
    const RowCase& c = case_of(row);
    const CliOutcome idle = parse(c.idle);
    EXPECT_FALSE(idle.run) << row.option;
    EXPECT_EQ(idle.exit_code, 2) << row.option;
    EXPECT_NE(idle.message.find(std::string(row.message)), std::string::npos)
        << row.option << ": " << idle.message;
    const CliOutcome working = parse(c.working);
    EXPECT_TRUE(working.run) << row.option << ": " << working.message;
  }
  EXPECT_EQ(row_cases().size(), option_dependencies().size()) << "a case for no row";
}

// Given on the command line at its default value, an option is still given.
TEST(OptionDependencies, AnOptionNamedAtItsDefaultValueIsGivenToo) {
  EXPECT_FALSE(parse({"--chunk", "8"}).run);
  EXPECT_FALSE(parse({"--slow-delay-us", "1000"}).run);
  EXPECT_FALSE(parse({"-q", "1"}).run);
  EXPECT_FALSE(parse({"-t", "1", "--sweep-threads", "2"}).run);
  EXPECT_FALSE(parse({"--write-mode", "line", "--engine", "null"}).run);
  EXPECT_FALSE(parse({"--progress-style", "auto", "--progress", "0"}).run);
  EXPECT_TRUE(parse({"--chunk", "8", "--partition", "dynamic"}).run);
}

// More cases of the classes than the issue named: a sweep of one point has nothing to
// shuffle; progress is off with JSON unless asked for.
TEST(OptionDependencies, MoreCasesOfTheSameClasses) {
  EXPECT_FALSE(parse({"--seed", "1", "--sweep-threads", "4"}).run);
  EXPECT_FALSE(parse({"--seed", "1", "--sweep-threads", "4,4"}).run);
  EXPECT_TRUE(parse({"--seed", "1", "--sweep-threads", "4", "--layout", "shared,rank"}).run);
  EXPECT_TRUE(parse({"--seed", "0", "--compare"}).run);
  EXPECT_FALSE(parse({"--progress-style", "lines", "--format", "json"}).run);
  EXPECT_TRUE(parse({"--progress-style", "lines", "--format", "json", "--progress"}).run);
  EXPECT_FALSE(parse({"--threads", "4", "--compare", "--max-concurrency", "8"}).run);
}

// A RunConfig built in code is held to the same table (validate, without a command line).
TEST(OptionDependencies, ValidateChecksTheTableToo) {
  RunConfig c;
  c.chunk = 3;
  EXPECT_THROW(validate(c), UsageError);
  c.partition = Partition::Dynamic;
  EXPECT_NO_THROW(validate(c));
  RunConfig s;
  s.seed = 0;
  EXPECT_THROW(validate(s), UsageError);
  s.compare = true;
  EXPECT_NO_THROW(validate(s));
}

// Every field of RunConfig was decided: either some other option can make it do nothing (a
// row of the table, by its option) or it does something in every run validate() accepts,
// for the reason given here. A new field fails here until it is decided.
TEST(OptionDependencies, EveryFieldIsDecided) {
  const std::map<std::string, std::string> always{
      {"files_per_rank", "how many files, as --files (whose row names --files-per-rank)"},
      {"file_size", "the file size, as --lines (whose rows name --file-size)"},
      {"dir", "every run makes or checks it, the null engine too"},
      {"pattern", "the names, which the null engine makes too (its per-file cost)"},
      {"partition", "who writes which file in every run (a single writer: every split is one)"},
      {"engine", "the engine of every point"},
      {"fsync", "the sync's time; the null engine times a clock read where posix syncs"},
      {"repetitions", "every run repeats"},
      {"warmup", "every run can warm up"},
      {"auto_repetitions", "every run repeats: -r auto"},
      {"cleanup", "removes the files, and --dir when this run made it"},
      {"format", "every run reports"},
      {"output", "every run reports"},
      {"json_output", "every run reports"},
      {"csv_output", "every run reports"},
      {"markdown_output", "every run reports"},
      {"dry_run", "prints the plan of the run the other options describe"},
      {"sweep_threads", "its points; --compare together is refused in validate()"},
      {"compare", "its points; --sweep-threads together is refused in validate()"},
      {"slow_ranks", "sleeps --slow-delay-us (its default 1000) per item of every phase"},
      {"timeout_s", "every phase is watched"},
      {"time_limit_s", "every write phase is limited"},
      {"layouts", "every engine runs every layout (the null engine without the file system)"},
      {"files_per_dir", "as --layout"},
      {"progress_s", "every run can show progress"},
      {"phases", "every engine runs every phase (the null engine without the file system)"},
  };
  std::map<std::string, std::string> by_option{
      {"threads", "--threads"},
      {"write_mode", "--write-mode"},
      {"lines", "--lines"},
      {"text", "--text"},
      {"files", "--files"},
      {"write_size", "--write-size"},
      {"queue_depth", "--queue-depth"},
      {"overwrite", "--overwrite"},
      {"per_rank", "--per-rank"},
      {"wide", "--wide"},
      {"max_concurrency", "--max-concurrency"},
      {"seed", "--seed"},
      {"chunk", "--chunk"},
      {"slow_delay_us", "--slow-delay-us"},
      {"verify", "--verify"},
      {"wear_out", "--wear-out"},
      {"progress_style", "--progress-style"},
      {"branch", "--branch"},
      {"tree_depth", "--tree-depth"},
      {"shift", "--shift"},
      {"random_order", "--random-order"},
      {"precision", "--precision"},
      {"min_repetitions", "--min-repetitions"},
      {"max_repetitions", "--max-repetitions"},
      {"max_time_s", "--max-time"},
      {"equivalence", "--equivalence"},
  };
  std::set<std::string> in_table;
  for (const OptionDependency& row : option_dependencies()) in_table.emplace(row.option);
  const RunConfig defaults;
  visit_config_fields(defaults, [&](const ConfigField& field, const auto&) {
    const std::string name(field.name);
    const bool decided_always = always.count(name) != 0;
    const bool decided_row = by_option.count(name) != 0 && in_table.count(by_option.at(name));
    EXPECT_TRUE(decided_always != decided_row)
        << name << ": put it in the table (option_dependencies.cpp) or in `always` here";
  });
}

// The seed is optional: 0 is a seed, not "the clock".
TEST(OptionDependencies, SeedZeroIsASeed) {
  const CliOutcome zero = parse({"--compare", "--seed", "0"});
  ASSERT_TRUE(zero.run) << zero.message;
  ASSERT_TRUE(zero.config.seed.has_value());
  EXPECT_EQ(*zero.config.seed, 0u);
  EXPECT_FALSE(parse({"--compare"}).config.seed.has_value());
}

// --time-limit has a floor: a limit too short to start a writer measures nothing.
TEST(OptionDependencies, TimeLimitHasAFloor) {
  EXPECT_FALSE(parse({"--time-limit", "1e-300"}).run);
  EXPECT_FALSE(parse({"--time-limit", "0.009"}).run);
  EXPECT_TRUE(parse({"--time-limit", "0.01"}).run);
  RunConfig c;
  c.time_limit_s = 1e-300;
  EXPECT_THROW(validate(c), UsageError);
}

}  // namespace
}  // namespace mpiwrite
