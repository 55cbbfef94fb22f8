#pragma once
// Prose lines of the table that fit a terminal: a sentence is broken between the clauses of a
// list (after ", " or "; " outside parentheses, but not inside "depth 2, branch 3"), so a
// phrase a reader or a script looks for ("in the leaves of a tree of depth 2, branch 3 (9
// leaves)") stays on one line; only a clause longer than a line is broken between words.

#include <string>
#include <string_view>
#include <vector>

namespace mpiwrite {

// `first` + text, broken into lines of at most `width` columns where a clause boundary allows,
// each further line indented by `indent` spaces. A word longer than the width stays whole.
std::vector<std::string> wrap_clauses(std::string_view first, std::string_view text,
                                      std::size_t width, std::size_t indent);

}  // namespace mpiwrite
