#include "mpiwrite/sys/verify.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "mpiwrite/core/errors.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

using testing::TempDir;

TEST(FileVerifier, PassesRightFilesAndNamesEveryKindOfWrongOne) {
  TempDir dir;
  const std::string right = "ab\nab\nab\n";
  for (const char* name : {"f1", "f2", "f3", "f4", "f5", "f6"})
    testing::write_text(dir / name, right);
  testing::write_text(dir / "f2", "ab\nab\n");          // short
  testing::write_text(dir / "f3", "ab\nax\nab\n");      // wrong byte at 4
  testing::write_text(dir / "f4", "ab\nab\nab\nab\n");  // long
  std::filesystem::remove(dir / "f5");                  // missing
  FileVerifier verifier(parse_pattern("f{}"), "ab", 3);
  const VerifyResult result = verifier.verify(dir.path(), {1, 6, 1}, nullptr, 10);
  EXPECT_EQ(result.checked, 6u);
  EXPECT_EQ(result.mismatches, 4u);
  ASSERT_EQ(result.problems.size(), 4u);
  EXPECT_EQ(result.problems[0], dir.path() + "/f2: 6 bytes, expected 9");
  EXPECT_EQ(result.problems[1], dir.path() + "/f3: content differs at byte 4");
  EXPECT_EQ(result.problems[2], dir.path() + "/f4: longer than the expected 9 bytes");
  EXPECT_EQ(result.problems[3], dir.path() + "/f5: open: No such file or directory");
  EXPECT_EQ(verifier.verify(dir.path(), {1, 1, 1}).mismatches, 0u);
  EXPECT_EQ(verifier.verify(dir.path(), {2, 4, 1}, nullptr, 1).problems.size(), 1u);  // capped
  EXPECT_THROW(verifier.verify(dir / "nope", {1, 1, 1}), IoError);
}

// Files of several pieces (about 1 MiB each, whole lines): a difference in a later piece, at
// an offset no piece boundary divides, is found at its byte; a size off by one either way
// is a size problem, as for a small file.
TEST(FileVerifier, ChecksAFileOfManyPiecesPieceByPiece) {
  TempDir dir;
  const std::string line = "Hello, world!\n";  // 14 bytes: 1 MiB is no whole number of lines
  const std::uint64_t lines = 300'000;         // 4.2 MB, four pieces and a part
  std::string right;
  for (std::uint64_t i = 0; i < lines; ++i) right += line;
  std::string wrong = right;
  wrong[3'000'001] = 'X';
  testing::write_text(dir / "f1", right);
  testing::write_text(dir / "f2", wrong);
  testing::write_text(dir / "f3", right + "H");
  testing::write_text(dir / "f4", right.substr(0, right.size() - 1));
  FileVerifier verifier(parse_pattern("f{}"), "Hello, world!", lines);
  const VerifyResult result = verifier.verify(dir.path(), {1, 4, 1}, nullptr, 10);
  EXPECT_EQ(result.mismatches, 3u);
  ASSERT_EQ(result.problems.size(), 3u);
  EXPECT_EQ(result.problems[0], dir.path() + "/f2: content differs at byte 3000001");
  EXPECT_EQ(result.problems[1], dir.path() + "/f3: longer than the expected 4200000 bytes");
  EXPECT_EQ(result.problems[2], dir.path() + "/f4: 4199999 bytes, expected 4200000");
}

// --file-size: the lines cut within a line, and an empty file, whose one extra byte is seen.
TEST(FileVerifier, ChecksFilesCutAtTheFileSizeAndEmptyOnes) {
  TempDir dir;
  testing::write_text(dir / "f1", "ab\nab\na");
  testing::write_text(dir / "f2", "ab\nab\nb");
  testing::write_text(dir / "f3", "ab\nab\n");
  FileVerifier cut(parse_pattern("f{}"), "ab", FileBytes{7, 7});
  const VerifyResult result = cut.verify(dir.path(), {1, 3, 1}, nullptr, 10);
  EXPECT_EQ(result.mismatches, 2u);
  ASSERT_EQ(result.problems.size(), 2u);
  EXPECT_EQ(result.problems[0], dir.path() + "/f2: content differs at byte 6");
  EXPECT_EQ(result.problems[1], dir.path() + "/f3: 6 bytes, expected 7");

  testing::write_text(dir / "e1", "");
  testing::write_text(dir / "e2", "a");
  FileVerifier empty(parse_pattern("e{}"), "ab", FileBytes{0, 0});
  const VerifyResult empties = empty.verify(dir.path(), {1, 2, 1}, nullptr, 10);
  EXPECT_EQ(empties.mismatches, 1u);
  ASSERT_EQ(empties.problems.size(), 1u);
  EXPECT_EQ(empties.problems[0], dir.path() + "/e2: longer than the expected 0 bytes");
}

}  // namespace
}  // namespace mpiwrite
