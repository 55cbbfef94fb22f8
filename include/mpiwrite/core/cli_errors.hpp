#pragma once
// How a command line that does not run ends, for both programs (mpiwrite, mpiwrite-compare):
// --help and --version print to standard output and exit 0; a usage error is one line
// "<program>: error: <what>" (printable: no raw control characters) for standard error and
// kExitUsage. One place, so the two programs cannot drift apart. Pure: nothing is printed.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
}  // namespace CLI

namespace mpiwrite {

struct CliStop {
  int exit_code = 0;
  std::string message;  // stdout when exit_code == 0, else stderr
};

// "<program>: error: <what>" and `hint`, then a newline.
std::string usage_message(std::string_view program, std::string_view what,
                          std::string_view hint = {});

// Runs `parse` (app.parse and whatever checks the values); nothing when it returned. Else what
// it threw, as what to print and the exit code: CLI11's help and version requests, a CLI11
// parse error (followed by `parse_hint`, which says where the options are listed), or a
// UsageError (a value checked after parsing). Anything else propagates.
std::optional<CliStop> parse_or_stop(const CLI::App& app, std::string_view program,
                                     std::string_view parse_hint,
                                     const std::function<void()>& parse);

}  // namespace mpiwrite
