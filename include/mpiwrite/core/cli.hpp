#pragma once
// Command line → RunConfig (CLI11). Pure: no MPI, no file system, nothing printed.

#include <functional>
#include <string>

#include "mpiwrite/core/config.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace mpiwrite {

// Either a configuration to run, or something to print and an exit code (--help, --version,
// or a usage error with kExitUsage).
struct CliOutcome {
  bool run = false;
  RunConfig config;
  int exit_code = 0;
  std::string message;  // printed once by rank 0: stdout when exit_code == 0, else stderr
};

CliOutcome parse_command_line(int argc, const char* const* argv);
// The same, with what --version prints (core/version_text.hpp; the other: "mpiwrite 0.4.0").
CliOutcome parse_command_line(int argc, const char* const* argv, const std::string& version);

// Reads the command line's definition, the same CLI11 app parse_command_line parses with:
// the man page and the bash completion are made from it (src/manual), so an option added
// here cannot be missing from them.
using CliReader = std::function<void(const CLI::App&)>;
void describe_command_line(const CliReader& read);

}  // namespace mpiwrite
