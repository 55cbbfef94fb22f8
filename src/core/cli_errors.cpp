// How a command line that does not run ends (cli_errors.hpp).
#include "mpiwrite/core/cli_errors.hpp"

#include <CLI/CLI.hpp>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {

std::string usage_message(std::string_view program, std::string_view what, std::string_view hint) {
  std::string message(program);
  message += ": error: ";
  message += printable(what);
  message += hint;
  message += '\n';
  return message;
}

std::optional<CliStop> parse_or_stop(const CLI::App& app, std::string_view program,
                                     std::string_view parse_hint,
                                     const std::function<void()>& parse) {
  try {
    parse();
    return std::nullopt;
  } catch (const CLI::CallForHelp&) {
    return CliStop{kExitOk, app.help()};
  } catch (const CLI::CallForVersion& version) {
    return CliStop{kExitOk, std::string(version.what()) + "\n"};
  } catch (const CLI::ParseError& error) {
    return CliStop{kExitUsage, usage_message(program, error.what(), parse_hint)};
  } catch (const UsageError& error) {
    return CliStop{kExitUsage, usage_message(program, error.what())};
  }
}

}  // namespace mpiwrite
