#pragma once
// --help that fits 100 columns, for both programs (issue 24 §6). CLI11 2.1's Formatter pads
// an option's name to a column and prints its description as given, however long, so a
// long description or a long name with its choices ran to 214 columns. This one wraps the
// description at word boundaries within kHelpColumns, indented under its column, and puts a
// name wider than the column on a line of its own. Pure: it only formats text.

namespace CLI {
class App;
}  // namespace CLI

namespace mpiwrite {

inline constexpr int kHelpColumns = 100;

// Gives `app` the wrapping formatter, its descriptions starting at column `name_width`.
void use_wrapping_help(CLI::App& app, int name_width);

}  // namespace mpiwrite
