#include "mpiwrite/core/file_namer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

TEST(FileNamer, FormatsTheSeedNames) {
  FileNamer namer(parse_pattern("write{}.txt"));
  EXPECT_STREQ(namer.name(1), "write1.txt");
  EXPECT_STREQ(namer.name(100), "write100.txt");
  EXPECT_EQ(namer.name_view(UINT64_MAX), "write18446744073709551615.txt");
  EXPECT_STREQ(namer.name(7), "write7.txt");  // a shorter name after a longer one
}

// The names of items in steps (block: 1, round robin: the threads) come from adding to the
// previous name's digits: each must still be the pattern around the index in decimal,
// across every carry and every change of length, and after any jump, back or repeat.
TEST(FileNamer, NamesInStepsEqualFormattedNames) {
  FileNamer namer(parse_pattern("w{}.t"));
  const auto expected = [](std::uint64_t i) { return "w" + std::to_string(i) + ".t"; };
  for (std::uint64_t step = 1; step <= 11; ++step) {
    for (std::uint64_t i = 1; i < 2100; i += step) ASSERT_EQ(namer.name_view(i), expected(i));
    for (std::uint64_t i = 999'990; i < 1'000'030; i += step) {
      ASSERT_STREQ(namer.name(i), expected(i).c_str()) << "step " << step;
    }
  }
  for (std::uint64_t i = UINT64_MAX - 20; i != UINT64_MAX; ++i) {
    ASSERT_EQ(namer.name_view(i), expected(i));
  }
  EXPECT_EQ(namer.name_view(UINT64_MAX), expected(UINT64_MAX));
  const std::uint64_t jumps[] = {5, 5, 4, 13, 9, 10, 19, 28, 30, 29, 100, 109, 118, 1, 2};
  for (const std::uint64_t i : jumps) ASSERT_EQ(namer.name_view(i), expected(i));
}

TEST(FileNamer, IndexMayStandAnywhere) {
  FileNamer front(parse_pattern("{}"));
  EXPECT_STREQ(front.name(42), "42");
  FileNamer back(parse_pattern("f.{}"));
  EXPECT_STREQ(back.name(3), "f.3");
}

TEST(ParsePattern, RejectsPatternsThatCannotNameDistinctFiles) {
  EXPECT_THROW(parse_pattern("write.txt"), UsageError);
  EXPECT_THROW(parse_pattern("a{}b{}"), UsageError);
  EXPECT_THROW(parse_pattern("a{}}"), UsageError);
  EXPECT_THROW(parse_pattern("sub/write{}.txt"), UsageError);
  EXPECT_THROW(parse_pattern("{0}"), UsageError);
  EXPECT_THROW(parse_pattern("..{}"), UsageError);
  EXPECT_NO_THROW(parse_pattern("x{}"));
}

}  // namespace
}  // namespace mpiwrite
