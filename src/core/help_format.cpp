// --help that fits 100 columns (help_format.hpp).
#include "mpiwrite/core/help_format.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace mpiwrite {

namespace {

// `text` in lines of at most `width` columns, broken at spaces; the text's own newlines kept.
// A word longer than `width` stands alone on its line (never cut).
std::vector<std::string> wrap(std::string_view text, std::size_t width) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::istringstream words{std::string(text.substr(start, end - start))};
    std::string line, word;
    while (words >> word) {
      if (!line.empty() && line.size() + 1 + word.size() > width) {
        lines.push_back(line);
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

class WrappingFormatter : public CLI::Formatter {
 public:
  explicit WrappingFormatter(int name_width) { column_width(static_cast<std::size_t>(name_width)); }

  // The program's description above the usage line, wrapped like the options'.
  std::string make_description(const CLI::App* app) const override {
    std::string out;
    for (const std::string& line : wrap(CLI::Formatter::make_description(app), std::size_t{kHelpColumns})) {
      out += line + "\n";
    }
    while (out.ends_with("\n\n")) out.pop_back();
    return out;
  }

  std::string make_option(const CLI::Option* opt, bool is_positional) const override {
    const std::size_t column = get_column_width();
    const std::string name = "  " + make_option_name(opt, is_positional) + make_option_opts(opt);
    const std::string indent(column, ' ');
    if (make_option_desc(opt).empty()) return name + "\n";
    std::string out = name;
    const std::vector<std::string> lines =
        wrap(make_option_desc(opt), static_cast<std::size_t>(kHelpColumns) - column);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (i == 0 && name.size() < column) {
        out += std::string(column - name.size(), ' ') + lines[i];
      } else {
        out += "\n" + indent + lines[i];
      }
    }
    return out + "\n";
  }
};

}  // namespace

void use_wrapping_help(CLI::App& app, int name_width) {
  app.formatter(std::make_shared<WrappingFormatter>(name_width));
}

}  // namespace mpiwrite
