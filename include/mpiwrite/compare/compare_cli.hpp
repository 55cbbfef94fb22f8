#pragma once
// mpiwrite-compare's command line (CLI11). Pure: nothing read, nothing printed.

#include <cstdint>
#include <string>

#include "mpiwrite/compare/compare_format.hpp"
#include "mpiwrite/compare/compare_gate.hpp"
#include "mpiwrite/compare/report_comparison.hpp"
#include "mpiwrite/core/cli.hpp"

namespace mpiwrite {

struct CompareOptions {
  std::string old_path, new_path;
  CompareFormat format = CompareFormat::Table;
  std::uint64_t seed = kDefaultCompareSeed;
  double equivalence = kNoiseThreshold;  // --equivalence D
  std::string phase = "write";  // --phase: whose makespans are compared (core/phase.hpp names)
  FailOn fail_on;               // --fail-on slower,different: exit kExitGate on those verdicts
};

// Either options to compare with, or a text to print and an exit code: --help and --version
// (0, standard output), a usage error (kExitUsage, one line for standard error).
struct CompareCliOutcome {
  bool run = false;
  CompareOptions options;
  int exit_code = 0;
  std::string message;
};

CompareCliOutcome parse_compare_command_line(int argc, const char* const* argv);

// The same CLI11 app parse_compare_command_line parses with, for the man page and the
// completion (src/manual; cli.hpp's describe_command_line is mpiwrite's).
void describe_compare_command_line(const CliReader& read);

}  // namespace mpiwrite
