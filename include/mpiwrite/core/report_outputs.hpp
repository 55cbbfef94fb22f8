#pragma once
// The files a run's report goes to, derived once from the options (issue 24 §3): -o/--output
// FILE (a copy of what standard output gets, in --format's format) and --json, --csv and
// --markdown FILE (each in its own format, beside standard output's). Pure: the file system's
// checks (what stands at each FILE, two names of one file) are sys/output_path.hpp's.
//
// The rules (README, docs/errors.md "The report's outputs"):
//   - a file name's extension names a format, in any case: .json, .csv, .md or .markdown, and
//     .txt for the table; any other name (none, .log, /dev/stdout, a FIFO) names none;
//   - -o FILE without --format: FILE's extension picks the report's format (the table when it
//     names none); with --format, an extension naming another format is refused (.txt never
//     is: markdown, CSV and JSON are text too);
//   - --json, --csv, --markdown FILE: an extension naming another format is refused (not .txt);
//   - "-" is refused: standard output always gets the report, in --format's format;
//   - two outputs naming the same path (spelled alike once "." and ".." are taken out) are
//     refused; the same file under other names is found by check_output_paths.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mpiwrite/core/config.hpp"

namespace mpiwrite {

struct ReportOutput {
  Format format = Format::Table;
  std::string path;    // as the user gave it
  std::string option;  // "--output", "--json", "--csv" or "--markdown": names it in messages
  bool operator==(const ReportOutput&) const = default;
};

// The format `path`'s extension names, if any (.json .csv .md .markdown .txt, any case).
std::optional<Format> format_of_extension(std::string_view path);

// The report's format (standard output's and -o's): `asked` (--format) when given, else the
// one -o's `output` extension names, else the table. Throws UsageError when --format and -o's
// extension name different formats.
Format report_format(std::optional<Format> asked, const std::string& output);

// Every file the report of `config` goes to, -o first, then --json, --csv, --markdown; empty
// when none was given. Throws UsageError (one line naming the option and FILE as given) for
// "-", an extension that names another format than the option's, or two outputs naming the
// same path.
std::vector<ReportOutput> report_outputs(const RunConfig& config);

}  // namespace mpiwrite
