#pragma once
// A table of already formatted cells, printed either aligned for a terminal or as Markdown, so
// the human formats show the same rows.

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {

struct Grid {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// Cells are printed through printable(): a host name with a newline or an escape sequence
// stays on its row.
inline void print_aligned(const Grid& raw, std::ostream& out) {
  Grid grid{{}, {}};
  for (const std::string& cell : raw.header) grid.header.push_back(printable(cell));
  for (const auto& row : raw.rows) {
    grid.rows.emplace_back();
    for (const std::string& cell : row) grid.rows.back().push_back(printable(cell));
  }
  std::vector<std::size_t> width(grid.header.size());
  for (std::size_t i = 0; i < width.size(); ++i) width[i] = grid.header[i].size();
  for (const auto& row : grid.rows) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  const auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += fmt::format("{}{:>{}}", i ? "  " : "", row[i], width[i]);
    }
    fmt::print(out, "{}\n", line);
  };
  print_row(grid.header);
  for (const auto& row : grid.rows) print_row(row);
}

// Cells are printed through markdown_cell(): a '|' or a newline inside one keeps the table's shape.
inline void print_markdown(const Grid& grid, std::ostream& out) {
  const auto print_row = [&](const std::vector<std::string>& row) {
    std::string line = "|";
    for (const std::string& cell : row) line.append(" ").append(markdown_cell(cell)).append(" |");
    fmt::print(out, "{}\n", line);
  };
  print_row(grid.header);
  std::string rule = "|";
  for (std::size_t i = 0; i < grid.header.size(); ++i) rule += "---:|";
  fmt::print(out, "{}\n", rule);
  for (const auto& row : grid.rows) print_row(row);
}

}  // namespace mpiwrite
