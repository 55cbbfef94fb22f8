#pragma once
// The report's strings that come from the user or the system (--text, --dir, --pattern,
// --output, the working directory inside the absolute --dir, host names) are bytes: not
// necessarily UTF-8, and they may hold newlines, '|' or terminal escape sequences. These turn
// them into text each report format carries without breaking and without losing a byte
// (docs/metrics.md, "Strings in the reports"). Pure functions.

#include <cstddef>
#include <string>
#include <string_view>

namespace mpiwrite {

// The length (1-4) of the well-formed UTF-8 sequence starting at s[at], or 0 when none starts
// there (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF, no truncation).
std::size_t utf8_sequence_length(std::string_view s, std::size_t at);

// A JSON string literal, quotes included, that keeps every byte: well-formed UTF-8 as is; each
// other byte B as the escape \udcXX of U+DC00 + B (U+DC80..U+DCFF: Python's "surrogateescape").
// Characters are escaped as nlohmann-json does, so valid UTF-8 gives exactly its output.
std::string json_string(std::string_view s);

// One line of plain text, reversible: printable UTF-8 as is; '\\' as \\; newline, carriage
// return and tab as \n \r \t; every other byte of a control character (C0, DEL, C1) and every
// byte that is not well-formed UTF-8 as \xHH.
std::string printable(std::string_view s);

// A Markdown code span of printable(s), fenced with more backticks than any run inside it.
std::string markdown_code(std::string_view s);

// A Markdown table cell: printable(s) with '|' escaped as \|.
std::string markdown_cell(std::string_view s);

// An RFC 4180 CSV field: s itself, or quoted with "" for " when it holds , " CR or LF.
std::string csv_field(std::string_view s);

}  // namespace mpiwrite
