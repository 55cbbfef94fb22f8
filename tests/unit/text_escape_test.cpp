// Strings from the user or the system in the reports: every byte kept, no format broken.
#include "mpiwrite/core/text_escape.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace mpiwrite {
namespace {

TEST(Utf8, WellFormedSequences) {
  EXPECT_EQ(utf8_sequence_length("a", 0), 1u);
  EXPECT_EQ(utf8_sequence_length("\xc3\xa9", 0), 2u);          // é
  EXPECT_EQ(utf8_sequence_length("\xe2\x82\xac", 0), 3u);      // €
  EXPECT_EQ(utf8_sequence_length("\xf0\x9f\x98\x80", 0), 4u);  // U+1F600
  EXPECT_EQ(utf8_sequence_length("\xf4\x8f\xbf\xbf", 0), 4u);  // U+10FFFF
}

TEST(Utf8, IllFormedSequences) {
  for (const char* bad : {"\x80", "\xbf", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf",  // overlong
                          "\xed\xa0\x80", "\xed\xbf\xbf",                          // surrogates
                          "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff",          // > U+10FFFF
                          "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xc3\x41"}) {       // cut short
    EXPECT_EQ(utf8_sequence_length(bad, 0), 0u) << printable(bad);
  }
}

TEST(JsonString, ValidUtf8IsWhatNlohmannWrites) {
  for (const std::string& s :
       {std::string("plain"), std::string("q\"b\\s/"), std::string("\b\f\n\r\t"),
        std::string("\x01\x1f\x7f", 3), std::string("\0x", 2),
        std::string("h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80")}) {
    EXPECT_EQ(json_string(s), nlohmann::json(s).dump()) << s;
  }
}

TEST(JsonString, InvalidBytesBecomeLoneSurrogates) {
  EXPECT_EQ(json_string("a\xff"
                        "b"),
            "\"a\\udcffb\"");
  EXPECT_EQ(json_string("\x80\xc3\xa9\xc3"), "\"\\udc80\xc3\xa9\\udcc3\"");
  EXPECT_EQ(json_string("\xed\xa0\x80"), "\"\\udced\\udca0\\udc80\"");  // a UTF-8 surrogate
}

TEST(Printable, KeepsTextOnOneLineAndReversible) {
  EXPECT_EQ(printable("/data/run 1"), "/data/run 1");
  EXPECT_EQ(printable("h\xc3\xa9"), "h\xc3\xa9");
  EXPECT_EQ(printable("a\nb\tc\rd\\e"), "a\\nb\\tc\\rd\\\\e");
  EXPECT_EQ(printable("\x1b[31m"), "\\x1b[31m");  // a terminal escape
  EXPECT_EQ(printable("\xc2\x9b"
                      "2J"),
            "\\xc2\\x9b2J");  // C1 CSI
  EXPECT_EQ(printable("\xff\x7f"), "\\xff\\x7f");
  EXPECT_EQ(printable(std::string("\0", 1)), "\\x00");
}

TEST(Markdown, CodeSpanHoldsBackticks) {
  EXPECT_EQ(markdown_code("/data"), "`/data`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`a``"), "``` `a`` ```");
  EXPECT_EQ(markdown_code("a\nb"), "`a\\nb`");
}

TEST(Markdown, CellEscapesPipes) {
  EXPECT_EQ(markdown_cell("node|1"), "node\\|1");
  EXPECT_EQ(markdown_cell("a\nb"), "a\\nb");
}

TEST(Csv, FieldsQuotedOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("repetition"), "repetition");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("a\nb"), "\"a\nb\"");
  EXPECT_EQ(csv_field("a\rb"), "\"a\rb\"");
}

}  // namespace
}  // namespace mpiwrite
