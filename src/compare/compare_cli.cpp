#include "mpiwrite/compare/compare_cli.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <optional>
#include <vector>

#include "compare_words.hpp"
#include "mpiwrite/core/cli_errors.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/statistics.hpp"
#include "mpiwrite/core/stopping_rule.hpp"
#include "mpiwrite/core/verdict.hpp"
#include "mpiwrite/core/version_text.hpp"

namespace mpiwrite {

namespace {

// --format's value, which CLI11 checked against the names ignoring case.
CompareFormat format_named(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (CompareFormat f : {CompareFormat::Table, CompareFormat::Markdown, CompareFormat::Json}) {
    if (text == to_string(f)) return f;
  }
  return CompareFormat::Table;  // unreachable: IsMember checked it
}

// What --help says after the options: how points are matched and what each verdict means.
std::string footer() {
  return fmt::format(
      R"(
Reads two mpiwrite JSON reports (schema_version 3: a repetition's time is slowest_s; 4:
makespan_s, scaled to the asked files at its rate when --time-limit cut it short; --phase NAME:
phases.NAME.makespan_s instead) and tells, point by point, whether NEW is faster than OLD.
Points are matched by mode and label (e.g. processes 2x1); when each report has exactly one
point (two plain runs) those two are compared whatever their labels. Points in one report only
are listed as unmatched.

Per point: the repetitions of each report, the medians with their {0:g} % intervals (order
statistics; none below 6 repetitions), new/old = median new / median old with its {0:g} %
percentile-bootstrap interval ({1} resamples, seeded by --seed), the p-value of a two-sided
Mann-Whitney U test of new against old, and the verdict:
  faster                     p < {2:g} and old/new above 1 + D: new is faster
  slower                     p < {2:g} and old/new below 1 - D: new is slower
  equivalent                 the interval of new/old lies inside 1 +- D: the same within D
  no significant difference  p >= {2:g}: the two series cannot be told apart (undecided)
  below noise threshold      p < {2:g}, old/new within 1 +- D, interval wider (undecided)
  too few repetitions        no outcome could reach p < {2:g} with these counts (need N each)
D is --equivalence (default {3:g}).
Workloads that differ (config files, lines, text, write_mode, engine, fsync, partition) are
warned about and still compared; different file systems or hosts are stated.

Exit status: 0 compared (whatever the verdicts, unless --fail-on); 1 standard output could not
be written; 2 bad usage, or a report that is missing, not JSON, of another schema_version,
without points, or without the --phase asked (one line on standard error); 3 --fail-on's
verdict was drawn (slower: a point is slower; different: a point is faster or slower), said in
one line on standard error after the comparison.
)",
      kConfidenceLevel * 100, kBootstrapResamples, kSignificanceLevel, kNoiseThreshold);
}

// --help fits 100 columns (issue 24): CLI11 2.1 does not break a description, but indents the
// line after each newline in it to the description column (kHelpColumn).
constexpr std::size_t kHelpColumn = 30;
constexpr std::size_t kHelpWidth = 100;
std::string help(std::string_view text, std::size_t column = kHelpColumn) {
  std::string lines = wrapped("", text, 0, kHelpWidth - column);
  lines.pop_back();  // wrapped() ends with a newline; CLI11 adds its own
  return lines;
}

bool parse_seed(const std::string& text, std::uint64_t& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return !text.empty() && error == std::errc{} && stop == end;
}

// The one definition of the command line: parse_compare_command_line parses with it, and
// describe_compare_command_line hands it to `read` instead (the man page and the completion).
CompareCliOutcome parse_or_describe(int argc, const char* const* argv, const CliReader* read) {
  CompareCliOutcome outcome;
  CompareOptions& o = outcome.options;
  CLI::App app{help("mpiwrite-compare: is NEW faster than OLD? Compares two mpiwrite JSON reports "
                     "point by point, with medians, intervals and a test.",
                     0),
               "mpiwrite-compare"};
  app.set_version_flag("--version", compare_version_text(build_facts()));
  app.get_formatter()->column_width(kHelpColumn);
  app.footer(footer());
  app.add_option("OLD", o.old_path, help("The report to compare against (mpiwrite --format json)"))
      ->required();
  app.add_option("NEW", o.new_path, help("The report to judge"))->required();
  // Read as text and checked against the names, so --help lists them and an error names them.
  std::string format = to_string(CompareFormat::Table);
  app.add_option("--format", format,
                 help("table: aligned for a terminal (120 columns); markdown: GitHub tables; "
                      "json: every figure (\"schema\": \"mpiwrite-compare/1\")"))
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "markdown", "json"}, CLI::ignore_case));
  app.add_option("--phase", o.phase,
                 help("The phase whose makespans are compared (mpiwrite --phases): write is each "
                      "repetition's makespan_s, another its phases.<name>.makespan_s; a report "
                      "that did not time it is refused"))
      ->capture_default_str()
      ->check(CLI::IsMember({"tree-create", "write", "stat", "read", "remove", "tree-remove"}));
  // A list, so one gate can fail on a regression and on any change: --fail-on slower,different.
  std::vector<std::string> fail_on;
  app.add_option("--fail-on", fail_on,
                 help("slower: exit 3 when a point's verdict is slower; different: when it is "
                      "faster or slower (a list: slower,different). For CI jobs"))
      ->delimiter(',')
      ->check(CLI::IsMember({"slower", "different"}));
  std::string equivalence = "2%";
  app.add_option("--equivalence", equivalence,
                 help("D: equivalent when the 95% interval of new/old lies inside 1 +- D; faster "
                      "or slower only beyond D. A fraction (0.02) or a percentage (2%)"))
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return parse_fraction(text) ? ""
                                        : text + " is not a fraction above 0 and below 1 (like "
                                                 "0.02 or 2%)";
          },
          "FRACTION"));
  std::string seed = std::to_string(kDefaultCompareSeed);
  app.add_option("--seed", seed,
                 help(fmt::format("Seed of the bootstrap intervals; printed with the results, "
                                  "so they can be reproduced (default {})",
                                  kDefaultCompareSeed)))
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            std::uint64_t value = 0;
            return parse_seed(text, value) ? "" : text + " is not a whole number from 0 to 2^64-1";
          },
          "UINT64"));
  if (read != nullptr) {
    (*read)(app);
    return outcome;
  }
  const std::optional<CliStop> stop =
      parse_or_stop(app, "mpiwrite-compare", " (see mpiwrite-compare --help)", [&] {
        app.parse(argc, argv);
        parse_seed(seed, o.seed);
        o.equivalence = *parse_fraction(equivalence);
        o.format = format_named(format);
        for (const std::string& name : fail_on) {
          if (name == "slower") o.fail_on.slower = true;
          if (name == "different") o.fail_on.different = true;
        }
        // An empty value ("--fail-on ''") would turn the gate off without a word.
        if (app.count("--fail-on") > 0 && !o.fail_on.slower && !o.fail_on.different) {
          throw UsageError("--fail-on: give slower, different or slower,different");
        }
      });
  if (stop) {
    outcome.exit_code = stop->exit_code;
    outcome.message = stop->message;
  } else {
    outcome.run = true;
  }
  return outcome;
}

}  // namespace

CompareCliOutcome parse_compare_command_line(int argc, const char* const* argv) {
  return parse_or_describe(argc, argv, nullptr);
}

void describe_compare_command_line(const CliReader& read) { parse_or_describe(0, nullptr, &read); }

}  // namespace mpiwrite
