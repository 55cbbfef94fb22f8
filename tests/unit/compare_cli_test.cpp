// mpiwrite-compare's command line: defaults, choices, and one-line refusals.
#include "mpiwrite/compare/compare_cli.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

CompareCliOutcome parse(std::vector<const char*> args) {
  args.insert(args.begin(), "mpiwrite-compare");
  return parse_compare_command_line(static_cast<int>(args.size()), args.data());
}

TEST(CompareCli, Defaults) {
  const CompareCliOutcome o = parse({"a.json", "b.json"});
  ASSERT_TRUE(o.run) << o.message;
  EXPECT_EQ(o.options.old_path, "a.json");
  EXPECT_EQ(o.options.new_path, "b.json");
  EXPECT_EQ(o.options.format, CompareFormat::Table);
  EXPECT_EQ(o.options.seed, kDefaultCompareSeed);
}

TEST(CompareCli, FormatAndSeed) {
  const CompareCliOutcome o =
      parse({"--format", "JSON", "--seed", "18446744073709551615", "a", "b"});
  ASSERT_TRUE(o.run) << o.message;
  EXPECT_EQ(o.options.format, CompareFormat::Json);
  EXPECT_EQ(o.options.seed, UINT64_MAX);
  EXPECT_EQ(parse({"--format", "markdown", "a", "b"}).options.format, CompareFormat::Markdown);
}

TEST(CompareCli, FailOnTakesAListAndLeavesTheReportsAlone) {
  EXPECT_FALSE(parse({"a", "b"}).options.fail_on.slower);
  EXPECT_FALSE(parse({"a", "b"}).options.fail_on.different);
  const CompareCliOutcome slower = parse({"--fail-on", "slower", "a.json", "b.json"});
  ASSERT_TRUE(slower.run) << slower.message;
  EXPECT_TRUE(slower.options.fail_on.slower);
  EXPECT_FALSE(slower.options.fail_on.different);
  EXPECT_EQ(slower.options.old_path, "a.json");  // not taken as a second value
  EXPECT_EQ(slower.options.new_path, "b.json");
  for (const auto& args : std::vector<std::vector<const char*>>{
           {"--fail-on", "slower,different", "a", "b"},
           {"--fail-on=different,slower", "a", "b"},
           {"--fail-on", "slower", "--fail-on", "different", "a", "b"}}) {
    const CompareCliOutcome o = parse(args);
    ASSERT_TRUE(o.run) << o.message;
    EXPECT_TRUE(o.options.fail_on.slower && o.options.fail_on.different) << args[1];
  }
}

TEST(CompareCli, RefusalsAreOneLineWithExitTwo) {
  for (const auto& args :
       std::vector<std::vector<const char*>>{{},
                                             {"a"},
                                             {"a", "b", "c"},
                                             {"--format", "xml", "a", "b"},
                                             {"--seed", "-1", "a", "b"},
                                             {"--seed", "x", "a", "b"},
                                             {"--seed", "18446744073709551616", "a", "b"},
                                             {"--bogus", "a", "b"},
                                             {"--fail-on", "worse", "a", "b"},
                                             {"--fail-on", "", "a", "b"},
                                             {"--fail-on"}}) {
    const CompareCliOutcome o = parse(args);
    EXPECT_FALSE(o.run);
    EXPECT_EQ(o.exit_code, kExitUsage);
    EXPECT_EQ(o.message.rfind("mpiwrite-compare: error: ", 0), 0u) << o.message;
    EXPECT_EQ(std::count(o.message.begin(), o.message.end(), '\n'), 1) << o.message;
  }
}

TEST(CompareCli, HelpDocumentsTheVerdictsAndOptions) {
  const CompareCliOutcome o = parse({"--help"});
  EXPECT_FALSE(o.run);
  EXPECT_EQ(o.exit_code, 0);
  for (const char* part :
       {"--format", "--seed", "faster", "slower", "no significant difference",
        "below noise threshold", "too few repetitions", "Exit status", "schema_version 3",
        "makespan_s", "default 42", "--fail-on", "3 --fail-on"}) {
    EXPECT_NE(o.message.find(part), std::string::npos) << part;
  }
  // Issue 24: --help fits 100 columns.
  std::istringstream lines(o.message);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 100u) << line;
}

}  // namespace
}  // namespace mpiwrite
