#include "mpiwrite/core/cli.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "mpiwrite/core/cli_errors.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/help_format.hpp"
#include "mpiwrite/core/option_dependencies.hpp"
#include "mpiwrite/core/report_outputs.hpp"
#include "mpiwrite/core/stopping_rule.hpp"
#include "mpiwrite/core/version.hpp"

namespace mpiwrite {

namespace {

// Enum options are read as text and checked against the names to_string() gives, so --help
// lists the choices and the error names them.
struct EnumText {
  std::string partition{to_string(Partition::Block)};
  std::string write_mode{to_string(WriteMode::Line)};
  std::string engine{to_string(Engine::Posix)};
  std::string format{to_string(Format::Table)};
  // --layout is a list, split here too (layout_list): an empty item is refused by name.
  std::vector<std::string> layouts;
  // Lists are read as text and split here (number_list): CLI11's delimiter drops an empty
  // item, so "1,,2" was read as 1,2 while '' was "  is not a whole number".
  std::vector<std::string> sweep_threads;
  std::vector<std::string> slow_ranks;
  std::string progress_style{to_string(ProgressStyle::Auto)};
  std::vector<std::string> phases;  // --phases, split by phase_list
};

// What --progress given without a value reads as (CLI11 puts default_str there).
constexpr const char* kProgressBareText = "default";

// Which rule `text` breaks as --progress's seconds, or empty; `seconds` is set when none.
// Decimal seconds (0.2), 0 (off), or the bare option.
std::string progress_problem(const std::string& text, double& seconds) {
  if (text == kProgressBareText) {
    seconds = kProgressBare;
    return {};
  }
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, seconds);
  if (text.empty()) return "an empty value is not a number of seconds";
  if (text.front() == '-') return text + " is negative";
  if (error != std::errc{} || stop != end || !(seconds == seconds)) {
    return text + " is not a number of seconds";
  }
  if (seconds != 0 && (seconds < kMinProgressS || seconds > kMaxProgressS)) {
    return fmt::format("{} is not 0 (off) or between {} and {} seconds", text, kMinProgressS,
                       kMaxProgressS);
  }
  return {};
}

// Which rule `text` breaks as a whole number in [min, max], or empty; `value` is set when none.
std::string whole_number_problem(const std::string& text, std::uint64_t min, std::uint64_t max,
                                 std::uint64_t& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty()) return "an empty value is not a whole number";
  if (text.front() == '-') return text + " is negative";
  if (error == std::errc::result_out_of_range) return text + " is too large";
  if (error != std::errc{} || stop != end) return text + " is not a whole number";
  if (value < min || value > max) {
    return text + " is not between " + std::to_string(min) + " and " + std::to_string(max);
  }
  return {};
}

// Which rule `text` breaks as a size in bytes in [min, max], or empty; `value` is set when
// none. A whole number, optionally followed by k, M or G (any case: powers of 1024): 4096, 4k.
std::string size_problem(const std::string& text, std::uint64_t min, std::uint64_t max,
                         std::uint64_t& value) {
  constexpr std::string_view kUnits = "kmg";
  std::string digits = text;
  unsigned shift = 0;
  if (!text.empty()) {
    const auto unit = static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
    if (const std::size_t at = kUnits.find(unit); at != std::string_view::npos) {
      digits.pop_back();
      shift = 10 * static_cast<unsigned>(at + 1);
    }
  }
  const char* end = digits.data() + digits.size();
  const auto [stop, error] = std::from_chars(digits.data(), end, value);
  if (text.empty()) return "an empty value is not a number of bytes";
  if (text.front() == '-') return text + " is negative";
  if (error == std::errc::result_out_of_range || (error == std::errc{} && value > (max >> shift)))
    return fmt::format("{} is more than {} bytes", text, max);
  if (digits.empty() || error != std::errc{} || stop != end)
    return text + " is not a number of bytes (like 4096, 4k, 1M)";
  value <<= shift;
  if (value < min) return fmt::format("{} is less than {} byte{}", text, min, min == 1 ? "" : "s");
  return {};
}

// A size in bytes in [min, max] (size_problem), stored into `target`.
CLI::Option* add_size_option(CLI::App& app, const std::string& name,
                             std::optional<std::uint64_t>& target, std::uint64_t min,
                             std::uint64_t max, const std::string& help) {
  return app
      .add_option_function<std::string>(
          name,
          [&target, name, min, max](const std::string& text) {
            std::uint64_t value = 0;
            if (std::string problem = size_problem(text, min, max, value); !problem.empty()) {
              throw CLI::ValidationError(name, problem);
            }
            target = value;
          },
          help)
      ->type_name("BYTES");
}

// -r: a whole number of repetitions, or "auto" (core/stopping_rule.hpp).
CLI::Option* add_repetitions_option(CLI::App& app, RunConfig& c) {
  return app
      .add_option_function<std::string>(
          "-r,--repetitions",
          [&c](const std::string& text) {
            c.auto_repetitions = text == "auto";
            if (c.auto_repetitions) return;
            std::uint64_t value = 0;
            if (std::string problem = whole_number_problem(text, 1, kMaxRepetitions, value);
                !problem.empty()) {
              throw CLI::ValidationError("--repetitions", problem);
            }
            c.repetitions = static_cast<unsigned>(value);
          },
          "Timed repetitions, or auto: until every point's median is --precision precise")
      ->type_name("N|auto")
      ->default_str("1");
}

// --precision and --equivalence: a fraction (0.02) or a percentage (2%).
CLI::Option* add_fraction_option(CLI::App& app, const std::string& name, double& target,
                                 const std::string& help) {
  return app
      .add_option_function<std::string>(
          name,
          [&target, name](const std::string& text) {
            const std::optional<double> value = parse_fraction(text);
            if (!value) {
              throw CLI::ValidationError(
                  name, text + " is not a fraction above 0 and below 1 (like 0.02 or 2%)");
            }
            target = *value;
          },
          help)
      ->type_name("FRACTION")
      ->default_str("2%");
}

// A number of seconds in (0, max]: decimals, no hex, no inf.
CLI::Validator seconds_up_to(double max) {
  return CLI::Validator(
      [max](const std::string& v) {
        double s = 0;
        const auto [stop, error] = std::from_chars(v.data(), v.data() + v.size(), s);
        return error == std::errc{} && stop == v.data() + v.size() && std::isfinite(s) &&
                       s > 0 && s <= max
                   ? std::string()
                   : fmt::format("must be a number of seconds above 0, at most {:.0f}", max);
      },
      "SECONDS");
}

// A whole number in [min, max], with a message that says which rule the text broke (CLI11's
// Range would call "abc" out of range).
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::uint64_t value = 0;
        return whole_number_problem(text, min, max, value);
      },
      "[" + std::to_string(min) + "-" + std::to_string(max) + "]");
}

// The comma-separated whole numbers of every occurrence of a list option, each in [min, max].
// An empty item is refused by name, whether the whole value is empty or two commas meet.
template <typename T>
std::vector<T> number_list(const std::string& option, const std::vector<std::string>& texts,
                           std::uint64_t min, std::uint64_t max, const char* example) {
  std::vector<T> values;
  for (const std::string& text : texts) {
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      const std::string item = text.substr(start, comma - start);
      if (item.empty()) {
        throw CLI::ValidationError(option, text.empty()
                                               ? std::string("an empty value; ") + example
                                               : "'" + text + "' has an empty item; " + example);
      }
      std::uint64_t value = 0;
      if (std::string problem = whole_number_problem(item, min, max, value); !problem.empty()) {
        throw CLI::ValidationError(option, problem);
      }
      values.push_back(static_cast<T>(value));
      if (comma == text.size()) break;
      start = comma + 1;
    }
  }
  return values;
}

template <typename Enum>
CLI::IsMember choices(std::initializer_list<Enum> values) {
  std::vector<std::string> names;
  for (Enum value : values) names.emplace_back(to_string(value));
  return CLI::IsMember(names, CLI::ignore_case);
}

template <typename Enum>
Enum from_name(std::string name, std::initializer_list<Enum> values) {
  for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (Enum value : values) {
    if (to_string(value) == name) return value;
  }
  throw UsageError("unknown value " + name);  // unreachable: IsMember checked it
}

// The layouts named by every --layout, comma-separated, in the order given, each once (a
// repeated name adds no point). None given: the default, shared. An empty item or an unknown
// name is refused by name, as in number_list.
std::vector<Layout> layout_list(const std::vector<std::string>& texts) {
  const std::initializer_list<Layout> all{Layout::Shared, Layout::Rank, Layout::Thread};
  const CLI::IsMember known = choices(all);
  std::vector<Layout> layouts;
  for (const std::string& text : texts) {
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      std::string item = text.substr(start, comma - start);
      if (item.empty()) {
        throw CLI::ValidationError(
            "--layout", text.empty()
                            ? std::string("an empty value; give layouts like shared,rank")
                            : "'" + text + "' has an empty item; give layouts like shared,rank");
      }
      if (std::string problem = known(item); !problem.empty()) {
        throw CLI::ValidationError("--layout", problem);
      }
      const Layout layout = from_name(item, all);
      if (std::find(layouts.begin(), layouts.end(), layout) == layouts.end())
        layouts.push_back(layout);
      if (comma == text.size()) break;
      start = comma + 1;
    }
  }
  if (layouts.empty()) layouts.push_back(Layout::Shared);
  return layouts;
}

// The phases named by every --phases, comma-separated (core/phase.hpp); they run in their
// own order whatever the order given. None given: the write phase alone. An empty item or an
// unknown name is refused by name.
std::vector<Phase> phase_list(const std::vector<std::string>& texts) {
  if (texts.empty()) return {Phase::Write};
  PhaseSet phases;
  for (const std::string& text : texts) {
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      const std::string item = text.substr(start, comma - start);
      if (item.empty()) {
        throw CLI::ValidationError(
            "--phases", (text.empty() ? std::string("an empty value") : "'" + text + "' has an empty item") +
                            "; give phases like write,stat,read,remove");
      }
      const std::optional<Phase> phase = parse_phase(item);
      if (!phase) {
        throw CLI::ValidationError(
            "--phases", "'" + item +
                            "' is not a phase: tree-create, write, stat, read, remove, tree-remove");
      }
      phases.add(*phase);
      if (comma == text.size()) break;
      start = comma + 1;
    }
  }
  return phases.ordered();
}

// What is written, where, by whom and how.
void add_write_options(CLI::App& app, RunConfig& c, EnumText& e) {
  app.add_option("-n,--files", c.files, "Number of files, named by 1-based global index")
      ->capture_default_str()
      ->check(whole_number(1, kMaxFiles));
  // mdtest's workload words (config.hpp): N files per rank, and sizes in bytes.
  app.add_option_function<std::uint64_t>(
         "--files-per-rank", [&c](const std::uint64_t& n) { c.files_per_rank = n; },
         "Files per rank: N x the job's ranks (mpirun -np) in all, the same for every point "
         "of a sweep or --compare (equal work); instead of --files")
      ->type_name("N")
      ->check(whole_number(1, kMaxFiles));
  add_size_option(app, "--file-size", c.file_size, 0, kMaxFileSizeBytes,
                  "Bytes per file (0: created and closed, no write), the lines' text cut there; "
                  "instead of --lines, --text, --write-mode. 4k, 1M, 1G: powers of 1024");
  add_size_option(app, "--write-size", c.write_size, 1, kMaxFileSizeBytes,
                  "Bytes per write() call with --file-size (the last may be shorter; "
                  "default: the whole file in one)");
  app.add_option("-l,--lines", c.lines, "Lines per file")
      ->capture_default_str()
      ->check(whole_number(1, kMaxLines));
  app.add_option("--text", c.text, "Text of every line (a newline is added)")
      ->capture_default_str();
  app.add_option("-d,--dir", c.dir, "Directory for the files (created if missing, not its parents)")
      ->capture_default_str();
  app.add_option("--pattern", c.pattern, "File name pattern; {} is the 1-based index")
      ->capture_default_str();
  app.add_option("-t,--threads", c.threads, "Writer threads per rank (1 = sequential)")
      ->capture_default_str()
      ->check(whole_number(1, kMaxThreads));
  app.add_option("--partition", e.partition,
                 "How files are split across ranks and threads (dynamic: chunks on demand)")
      ->capture_default_str()
      ->check(choices({Partition::Block, Partition::Cyclic, Partition::Dynamic}));
  app.add_option("--chunk", c.chunk, "Files per hand-out with --partition dynamic")
      ->capture_default_str()
      ->check(whole_number(1, kMaxFiles));
  app.add_option("--write-mode", e.write_mode,
                 "line: one write() per line (the seed); whole: one write() per file")
      ->capture_default_str()
      ->check(choices({WriteMode::Line, WriteMode::Whole}));
  app.add_option("--engine", e.engine,
                 "posix: blocking system calls; uring: io_uring, --queue-depth files in flight "
                 "per thread; null: no I/O (mpiwrite's own overhead)")
      ->capture_default_str()
      ->check(choices({Engine::Posix, Engine::Uring, Engine::Null}));
  app.add_option("-q,--queue-depth", c.queue_depth,
                 "Files in flight per thread with --engine uring")
      ->capture_default_str()
      ->check(whole_number(1, kMaxQueueDepth));
  app.add_flag("--fsync", c.fsync, "fsync() each file before close, inside the timed phase");
  app.add_option("--layout", e.layouts,
                 "shared: all files in DIR; rank: a subdirectory per rank; thread: one per writer "
                 "thread. A list (shared,rank) with --compare or --sweep-threads: each point in "
                 "each layout")
      ->default_str("shared");
  app.add_option("--files-per-dir", c.files_per_dir,
                 "Spread each layout directory's files over subdirectories of at most N")
      ->check(whole_number(1, kMaxFiles));
  app.add_option("--tree-depth", c.tree_depth,
                 "A tree of D levels below each layout directory, files in its leaves (mdtest -z)")
      ->check(whole_number(0, kMaxTreeDepth));
  app.add_option("--branch", c.branch, "Subdirectories of each tree directory (mdtest -b)")
      ->capture_default_str()
      ->check(whole_number(1, kMaxSubdirectories));
}

// Which phases of a file's life each repetition times (docs/metrics.md, "Phases").
void add_phase_options(CLI::App& app, RunConfig& c, EnumText& e) {
  app.add_option("--phases", e.phases,
                 "Phases timed every repetition, run in this order: tree-create, write, stat, "
                 "read, remove, tree-remove (write always; default: write)")
      ->type_name("LIST");
  app.add_option("--shift", c.shift,
                 "stat and read: rank r takes the files of rank (r + N) mod ranks (mdtest -N)")
      ->capture_default_str()
      ->check(whole_number(0, kMaxShift));
  app.add_flag("--random-order", c.random_order,
               "stat, read, remove: each rank takes its files in a shuffled order (seeded; mdtest "
               "-R)");
}

// What to repeat, report, compare and check.
void add_run_options(CLI::App& app, RunConfig& c, EnumText& e) {
  add_repetitions_option(app, c);
  add_fraction_option(app, "--precision", c.precision,
                      "-r auto: stop when every point's median is this precise (half-width of "
                      "its 95% interval over it)");
  app.add_option("--min-repetitions", c.min_repetitions, "-r auto: at least this many")
      ->capture_default_str()
      ->check(whole_number(1, kMaxRepetitions));
  app.add_option("--max-repetitions", c.max_repetitions, "-r auto: at most this many")
      ->capture_default_str()
      ->check(whole_number(1, kMaxRepetitions));
  app.add_option("--max-time", c.max_time_s,
                 "-r auto: seconds of timed phases to spend at most (all points)")
      ->capture_default_str()
      ->check(seconds_up_to(kMaxTimeLimitS));
  add_fraction_option(app, "--equivalence", c.equivalence,
                      "Points whose ratio of medians has its 95% interval within 1 +- D are "
                      "equivalent; faster means beyond D");
  app.add_option("--warmup", c.warmup, "Untimed repetitions before the timed ones")
      ->capture_default_str()
      ->check(whole_number(0, kMaxRepetitions));
  app.add_flag("--overwrite", c.overwrite,
               "Truncate and rewrite the same files every repetition (the seed's re-run) "
               "instead of creating fresh ones");
  app.add_flag("--cleanup", c.cleanup,
               "Remove the files (and DIR, if mpiwrite created it) "
               "after the last repetition");
  app.add_flag("--per-rank", c.per_rank, "Add per-rank rows to table, markdown and csv");
  app.add_flag("--dry-run", c.dry_run,
               "Print which rank and thread writes which files; write nothing");
  app.add_flag("--verify", c.verify,
               "Read every file back after each timed write phase (by another rank) and check it");
  app.add_option("--timeout", c.timeout_s,
                 "Seconds a rank's phase may run before it aborts the job (0: no limit)")
      ->capture_default_str()
      ->check(whole_number(0, kMaxTimeoutS));
  app.add_option("--time-limit", c.time_limit_s,
                 "Seconds after which a rank's writers take no new file in a write phase "
                 "(stonewalling); the report counts what was written")
      ->check(CLI::Validator(
          [](const std::string& v) {
            // Decimal only, as --progress (from_chars: no hex "0x1", which strtod would take).
            double s = 0;
            const auto [stop, error] = std::from_chars(v.data(), v.data() + v.size(), s);
            return error == std::errc{} && stop == v.data() + v.size() && std::isfinite(s) &&
                           s >= kMinTimeLimitS && s <= kMaxTimeLimitS
                       ? std::string()
                       : fmt::format("must be a number of seconds from {} to {:.0f}",
                                     kMinTimeLimitS, kMaxTimeLimitS);
          },
          "SECONDS"));
  app.add_flag("--wear-out", c.wear_out,
               "With --time-limit: every writer goes on to the largest count any writer reached, "
               "so every rank writes as many files (mdtest -W)");
  app.add_option("--sweep-threads", e.sweep_threads,
                 "Measure each thread count per rank, e.g. 1,2,4,8 (one point each)");
  app.add_flag("--compare", c.compare,
               "Processes vs threads vs hybrid at equal concurrency 1, 2, 4, ... in one launch");
  app.add_option("--max-concurrency", c.max_concurrency,
                 "Largest concurrency for --compare (default: ranks x --threads)")
      ->check(whole_number(1, kMaxThreads * 1024u));
  // An optional: 0 is a seed like any other, and not given means the clock.
  app.add_option_function<std::uint64_t>(
         "--seed", [&c](const std::uint64_t& seed) { c.seed = seed; },
         "Seed for the shuffled order of points of --compare or --sweep-threads (default: the "
         "clock)")
      ->check(whole_number(0, UINT64_MAX));
  app.add_option("--slow-rank", e.slow_ranks,
                 "Make these ranks sleep --slow-delay-us per item of every phase (to test "
                 "imbalance)");
  app.add_option("--slow-delay-us", c.slow_delay_us,
                 "Delay per file (or directory) on a --slow-rank, in every phase, in µs")
      ->capture_default_str()
      ->check(whole_number(0, kMaxSlowDelayUs));
}

// An output file's name: empty would silently mean "no file", refused like an empty --dir.
CLI::Validator output_file() {
  return CLI::Validator([](const std::string& v) { return v.empty() ? "must not be empty" : ""; },
                        "FILE");
}

// Where the report goes, in which formats (core/report_outputs.hpp): standard output always,
// -o a copy of it, --json/--csv/--markdown each in its own format beside it.
void add_output_options(CLI::App& app, RunConfig& c, EnumText& e) {
  app.add_option("--format", e.format,
                 "Standard output's (and -o's) format; not given: -o FILE's extension's "
                 "(.json .csv .md .txt), else table")
      ->capture_default_str()
      ->check(choices({Format::Table, Format::Markdown, Format::Csv, Format::Json}));
  app.add_flag("--wide", c.wide, "Table: every column (the default fits 100, sweeps 120 columns)");
  app.add_option("-o,--output", c.output,
                 "Also write standard output's report to FILE (a regular file atomically; a "
                 "device, FIFO or /dev/stdout in place)")
      ->check(output_file());
  app.add_option("--json", c.json_output, "Also write the report as JSON to FILE, as -o does")
      ->check(output_file());
  app.add_option("--csv", c.csv_output, "Also write the report as CSV to FILE, as -o does")
      ->check(output_file());
  app.add_option("--markdown", c.markdown_output,
                 "Also write the report as markdown to FILE, as -o does")
      ->check(output_file());
}

// Live progress on rank 0's standard error (docs/metrics.md, "Live progress").
void add_progress_options(CLI::App& app, RunConfig& c, EnumText& e) {
  app.add_option_function<std::string>(
         "--progress",
         [&c](const std::string& text) {
           double seconds = 0;
           if (std::string problem = progress_problem(text, seconds); !problem.empty()) {
             throw CLI::ValidationError("--progress", problem);
           }
           c.progress_s = seconds;
         },
         "Print progress on stderr every SECONDS (0: off). Alone: every 1 s on a terminal, "
         "10 s otherwise. Not given: every 1 s when stderr is a terminal and the report is "
         "not JSON, else off")
      ->expected(0, 1)
      ->default_str(kProgressBareText)
      ->type_name("[SECONDS]");
  app.add_option("--progress-style", e.progress_style,
                 "tty: one line rewritten in place; lines: a line per interval; auto: tty "
                 "when stderr is a terminal (never under mpirun, which pipes it)")
      ->capture_default_str()
      ->check(choices({ProgressStyle::Auto, ProgressStyle::Tty, ProgressStyle::Lines}));
}

// --help lists the options by what they decide, not in one list of 40 (issue 24 §6). An option
// missing here stays under OPTIONS with --help and --version (a unit test lists the groups).
void group_options(CLI::App& app) {
  // Vectors: an initializer_list inside a pair would outlive its array.
  const std::vector<std::pair<std::string, std::vector<std::string>>> groups{
      {"Workload", {"--files", "--files-per-rank", "--file-size", "--write-size", "--lines",
                    "--text", "--write-mode", "--fsync", "--pattern"}},
      {"Directories", {"--dir", "--layout", "--files-per-dir", "--tree-depth", "--branch"}},
      {"Parallelism", {"--threads", "--partition", "--chunk", "--engine", "--queue-depth"}},
      {"Phases", {"--phases", "--shift", "--random-order", "--verify", "--overwrite",
                  "--cleanup"}},
      {"Repetitions and timing", {"--repetitions", "--precision", "--min-repetitions",
                                  "--max-repetitions", "--max-time", "--warmup", "--timeout",
                                  "--time-limit", "--wear-out", "--slow-rank",
                                  "--slow-delay-us"}},
      {"Sweeps and comparisons", {"--sweep-threads", "--compare", "--max-concurrency", "--seed",
                                  "--equivalence"}},
      {"Report", {"--format", "--wide", "--output", "--json", "--csv", "--markdown", "--per-rank",
                  "--dry-run", "--progress", "--progress-style"}},
  };
  for (const auto& [group, names] : groups) {
    for (const std::string& name : names) app.get_option(name)->group(group);
  }
}

// The options CLI11 parsed as text, turned into values, and the whole checked: validate(),
// then the options given that do nothing (throws UsageError).
void fill_config(const CLI::App& app, const EnumText& text, RunConfig& c) {
  c.partition =
      from_name(text.partition, {Partition::Block, Partition::Cyclic, Partition::Dynamic});
  c.write_mode = from_name(text.write_mode, {WriteMode::Line, WriteMode::Whole});
  c.engine = from_name(text.engine, {Engine::Posix, Engine::Uring, Engine::Null});
  // -o x.json without --format is JSON (it wrote a table into x.json); with --format, an
  // extension naming another format is refused.
  std::optional<Format> asked;
  if (const CLI::Option* format = app.get_option_no_throw("--format"); format && format->count())
    asked = from_name(text.format, {Format::Table, Format::Markdown, Format::Csv, Format::Json});
  c.format = report_format(asked, c.output);
  c.layouts = layout_list(text.layouts);
  c.progress_style = from_name(text.progress_style,
                               {ProgressStyle::Auto, ProgressStyle::Tty, ProgressStyle::Lines});
  c.sweep_threads = number_list<unsigned>("--sweep-threads", text.sweep_threads, 1, kMaxThreads,
                                          "give thread counts like 1,2,4");
  c.slow_ranks =
      number_list<int>("--slow-rank", text.slow_ranks, 0, 1u << 30, "give ranks like 0,3");
  c.phases = phase_list(text.phases);
  validate(c);
  report_outputs(c);  // throws for "-", a contradicting extension, or one file named twice
  // Again with what the command line named: `--chunk 8` without dynamic is the default's
  // value, yet given, and does nothing.
  check_option_dependencies(c, [&app](std::string_view option) {
    const CLI::Option* named = app.get_option_no_throw(std::string(option));
    return named != nullptr && named->count() > 0;
  });
}

}  // namespace

// Where the descriptions start in --help: the longest names with their choices
// ("--partition TEXT:{block,cyclic,dynamic}=block") get a line of their own.
constexpr int kNameColumn = 32;

namespace {

// The one definition of the command line: parse_command_line parses with it, and
// describe_command_line hands it to `read` instead (the man page and the completion).
CliOutcome parse_or_describe(int argc, const char* const* argv, const std::string& version,
                             const CliReader* read) {
  CliOutcome outcome;
  CLI::App app{
      "mpiwrite: create many small files from MPI ranks and threads, and time it.\n"
      "Run it under mpirun (mpirun -np 4 mpiwrite) or as a plain process.",
      "mpiwrite"};
  app.set_version_flag("--version", version);
  use_wrapping_help(app, kNameColumn);
  EnumText text;
  add_write_options(app, outcome.config, text);
  add_phase_options(app, outcome.config, text);
  add_run_options(app, outcome.config, text);
  add_output_options(app, outcome.config, text);
  add_progress_options(app, outcome.config, text);
  group_options(app);
  if (read != nullptr) {
    (*read)(app);
    return outcome;
  }
  const std::optional<CliStop> stop =
      parse_or_stop(app, "mpiwrite", "\nRun 'mpiwrite --help' for the options.", [&] {
        app.parse(argc, argv);
        fill_config(app, text, outcome.config);
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

CliOutcome parse_command_line(int argc, const char* const* argv) {
  return parse_command_line(argc, argv, std::string("mpiwrite ") + kVersion);
}

CliOutcome parse_command_line(int argc, const char* const* argv, const std::string& version) {
  return parse_or_describe(argc, argv, version, nullptr);
}

void describe_command_line(const CliReader& read) {
  parse_or_describe(0, nullptr, std::string("mpiwrite ") + kVersion, &read);
}

}  // namespace mpiwrite
