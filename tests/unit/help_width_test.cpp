// --help of both programs fits 100 columns (issue 24 §6): CLI11 printed descriptions as given,
// and lines reached 214 columns. Checked on the text each program prints, line by line.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mpiwrite/compare/compare_cli.hpp"
#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/help_format.hpp"

namespace mpiwrite {
namespace {

// The widest line of `text`, in characters (the help is ASCII but for "µs": counted as one).
std::size_t widest_line(const std::string& text, std::string* which) {
  std::istringstream lines(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(lines, line);) {
    std::size_t width = 0;
    for (const char ch : line) {  // UTF-8 continuation bytes do not count
      width += (static_cast<unsigned char>(ch) & 0xC0u) != 0x80u ? 1u : 0u;
    }
    if (width > widest) {
      widest = width;
      *which = line;
    }
  }
  return widest;
}

TEST(HelpWidth, MpiwriteFitsAHundredColumnsInGroups) {
  const char* argv[] = {"mpiwrite", "--help"};
  const CliOutcome out = parse_command_line(2, argv);
  ASSERT_EQ(out.exit_code, 0);
  std::string widest;
  EXPECT_LE(widest_line(out.message, &widest), std::size_t{kHelpColumns}) << widest;
  for (const char* group : {"Workload:", "Directories:", "Parallelism:", "Phases:",
                            "Repetitions and timing:", "Sweeps and comparisons:", "Report:"}) {
    EXPECT_NE(out.message.find(std::string("\n") + group + "\n"), std::string::npos) << group;
  }
  // Every option is listed, its description whole (wrapped, not cut).
  EXPECT_NE(out.message.find("--markdown"), std::string::npos);
  EXPECT_NE(out.message.find("--random-order"), std::string::npos);
  const std::string workload = "\nWorkload:\n";
  EXPECT_EQ(out.message.find("\n  -n,--files"), out.message.find(workload) + workload.size() - 1);
}

TEST(HelpWidth, MpiwriteCompareFitsAHundredColumns) {
  const char* argv[] = {"mpiwrite-compare", "--help"};
  const CompareCliOutcome out = parse_compare_command_line(2, argv);
  ASSERT_EQ(out.exit_code, 0);
  std::string widest;
  EXPECT_LE(widest_line(out.message, &widest), std::size_t{kHelpColumns}) << widest;
  EXPECT_NE(out.message.find("too few repetitions"), std::string::npos);
}

}  // namespace
}  // namespace mpiwrite
