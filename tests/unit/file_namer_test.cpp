#include "mpiwrite/core/file_namer.hpp"

#include <gtest/gtest.h>

#include <cstdint>

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
