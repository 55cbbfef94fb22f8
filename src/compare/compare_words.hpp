#pragma once
// The words of mpiwrite-compare's human formats that are more than a cell: lines broken to fit
// 120 columns, and where a change comes from (operation_change.hpp) as one phrase. Pure.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "mpiwrite/compare/operation_change.hpp"

namespace mpiwrite {

// The widest line of the table format (issue 24: a terminal of 120 columns), and the column
// where a header line's text starts ("statistics: ").
inline constexpr std::size_t kTableWidth = 120;
inline constexpr std::size_t kLabelWidth = 12;

// `text` after `first` (the label), broken at spaces into lines of at most `width` bytes, each
// further line indented by `indent` spaces, ending with a newline; a word longer than a line (a
// path) keeps a line of its own.
std::string wrapped(std::string_view first, std::string_view text, std::size_t indent,
                    std::size_t width = kTableWidth);

// "create +38 % per file (+5.21 us), writes +2 %, close -1 %, other +-0 %; latency +20 %
// (+5.3 us)": the operation that carries the change first, with its time, then every other
// operation's relative change, then the whole file's. `quote` escapes the operations' names
// (a report's keys) for the format.
std::string change_text(const ChangeAttribution& a,
                        const std::function<std::string(std::string_view)>& quote);

}  // namespace mpiwrite
