#include "text_wrap.hpp"

#include <cctype>

namespace mpiwrite {

namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// ", " between two "name value" pairs ("of depth 2, branch 3") joins them: not a boundary.
bool joins_pairs(std::string_view text, std::size_t comma) {
  if (comma == 0 || !digit(text[comma - 1])) return false;
  const std::size_t word = comma + 2;
  const std::size_t space = text.find(' ', word);
  return space != std::string_view::npos && space > word && space + 1 < text.size() &&
         digit(text[space + 1]) && text.substr(word, space - word).find(',') == std::string::npos;
}

// The units a line is made of, each with the separator that ends it: the clauses of a list
// (after ", " or "; " outside parentheses), and a clause too long for a line cut into words.
std::vector<std::string_view> units(std::string_view text, std::size_t room) {
  std::vector<std::string_view> clauses;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(' || text[i] == '[') ++depth;
    if ((text[i] == ')' || text[i] == ']') && depth > 0) --depth;
    const bool boundary = depth == 0 && (text[i] == ',' || text[i] == ';') &&
                          i + 1 < text.size() && text[i + 1] == ' ' &&
                          !(text[i] == ',' && joins_pairs(text, i));
    if (boundary) {
      clauses.push_back(text.substr(start, i + 2 - start));
      start = i + 2;
    }
  }
  clauses.push_back(text.substr(start));
  std::vector<std::string_view> out;
  for (std::string_view clause : clauses) {
    if (clause.size() <= room) {
      out.push_back(clause);
      continue;
    }
    for (std::size_t from = 0; from < clause.size();) {
      const std::size_t space = clause.find(' ', from);
      const std::size_t end = space == std::string_view::npos ? clause.size() : space + 1;
      out.push_back(clause.substr(from, end - from));
      from = end;
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> wrap_clauses(std::string_view first, std::string_view text,
                                      std::size_t width, std::size_t indent) {
  std::vector<std::string> lines{std::string(first)};
  bool fresh = true;  // nothing but the prefix or the indent on the line yet
  for (std::string_view unit : units(text, width > indent ? width - indent : 0)) {
    // The separator's trailing space does not count against the width at a line's end.
    const std::size_t visible = unit.ends_with(' ') ? unit.size() - 1 : unit.size();
    if (!fresh && lines.back().size() + visible > width) {
      while (lines.back().ends_with(' ')) lines.back().pop_back();
      lines.push_back(std::string(indent, ' '));
    }
    lines.back().append(unit);
    fresh = false;
  }
  while (lines.back().ends_with(' ')) lines.back().pop_back();
  return lines;
}

}  // namespace mpiwrite
