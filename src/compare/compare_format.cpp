// mpiwrite-compare's table, Markdown and JSON. The warnings and notes are worded once
// (messages()) and the report's strings in them escaped per format by a `quote` function.
#include "mpiwrite/compare/compare_format.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>
#include <functional>
#include <ostream>

#include "mpiwrite/core/statistics.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/core/verdict.hpp"
#include "mpiwrite/report/grid.hpp"
#include "mpiwrite/report/json_text.hpp"
#include "compare_words.hpp"

namespace mpiwrite {

namespace {

using Json = nlohmann::ordered_json;
using Quote = std::function<std::string(std::string_view)>;

std::string raw(std::string_view s) { return std::string(s); }

std::string same_or_both_text(const std::string& old_text, const std::string& new_text) {
  return old_text == new_text ? old_text : old_text + " vs " + new_text;
}

// Whether a point's line says where its change comes from: only a verdict that names one.
bool names_a_change(const PointComparison& p) {
  return p.verdict == CompareVerdict::Faster || p.verdict == CompareVerdict::Slower;
}

// "processes 2x1 slower: create +38 % per file (+5.21 us), ..."
std::string change_line(const PointComparison& p, const Quote& quote) {
  const std::string head =
      fmt::format("{} {} {}", quote(same_or_both_text(p.old_side.mode, p.new_side.mode)),
                  quote(same_or_both_text(p.old_side.label, p.new_side.label)),
                  verdict_name(p.verdict));
  if (!p.per_file) return head + ": the reports have no per-operation figures for this phase";
  return head + ": " + change_text(*p.per_file, quote);
}

// A config value as text: strings in double quotes, everything else as JSON; a report without
// the key says so beside the default it counts with.
std::string value_text(const WorkloadValue& v) {
  // (fmt: GCC 12 warns falsely about "\"" + std::string, -Wrestrict)
  std::string text =
      v.value.is_string() ? fmt::format("\"{}\"", v.value.get<std::string>()) : v.value.dump();
  return v.absent ? text + " (absent: the default)" : text;
}

std::string joined(const std::vector<std::string>& items, const Quote& quote) {
  if (items.empty()) return "unknown";
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + quote(item);
  return text;
}

std::string or_unknown(const std::string& s, const Quote& quote) {
  return s.empty() ? std::string("unknown") : quote(s);
}

// "a.json: schema_version 3, run, mpiwrite 0.3.0, ext4 on node1"
std::string about_text(const ReportAbout& a, const Quote& quote) {
  std::string text = fmt::format("{}: schema_version {}", quote(a.file), a.schema_version);
  if (!a.kind.empty()) text += ", " + quote(a.kind);
  if (!a.mpiwrite_version.empty()) text += ", mpiwrite " + quote(a.mpiwrite_version);
  text += fmt::format(", {} on {}", or_unknown(a.filesystem, quote), joined(a.hosts, quote));
  if (!a.interrupted.empty()) text += ", interrupted by " + quote(a.interrupted);
  return text;
}

std::string statistics_text(const ReportComparison& c) {
  return fmt::format(
      "medians of the repetitions with {0:g} % intervals (order statistics; none below 6 "
      "repetitions); new/old = median new / median old with a {0:g} % percentile-bootstrap "
      "interval ({1} resamples, seed {2}); p: Mann-Whitney U of new against old, two-sided; "
      "faster or slower needs p < {3:g} and old/new beyond 1 +- {4:g}; equivalent: the interval "
      "of new/old inside 1 +- {4:g}",
      kConfidenceLevel * 100, kBootstrapResamples, c.seed, kSignificanceLevel, c.equivalence);
}

// Which phase's makespans the figures below are (--phase), and where they were read.
std::string phase_text(const ReportComparison& c) {
  const std::string& phase = c.old_report.phase;
  if (phase == "write") return "write (each repetition's makespan, or slowest_s in schema 3)";
  return fmt::format("{0} (each repetition's phases.{0}.makespan_s)", phase);
}

std::string point_name(const SideFigures& s, const Quote& quote) {
  return fmt::format("{} ({})", quote(s.label), quote(s.mode));
}

struct Messages {
  std::vector<std::string> warnings, notes;
};

Messages messages(const ReportComparison& c, const Quote& quote) {
  Messages m;
  if (!c.workload_differences.empty()) {
    std::string keys;
    for (const WorkloadDifference& d : c.workload_differences) {
      keys += fmt::format("{}{} {} (old) vs {} (new)", keys.empty() ? "" : "; ", d.key,
                          quote(value_text(d.old_value)), quote(value_text(d.new_value)));
    }
    m.warnings.push_back("the workloads differ: " + keys +
                         "; compared anyway, so each verdict includes that difference");
  }
  // Version 3 timed the slowest rank's own time; 4 and later the makespan (5 renamed lists).
  const int old_v = c.old_report.schema_version, new_v = c.new_report.schema_version;
  if ((old_v >= 4) != (new_v >= 4)) {
    const auto what = [](int v) {
      return v >= 4 ? "makespan from the ranks' common start" : "the slowest rank's own time";
    };
    m.warnings.push_back(fmt::format(
        "the reports time differently: old is schema_version {} ({}), new is {} ({}); a "
        "makespan also holds the ranks' start spread",
        old_v, what(old_v), new_v, what(new_v)));
  }
  if (c.single_points && !c.points.empty()) {
    const PointComparison& p = c.points.front();
    m.notes.push_back(fmt::format("each report has one point: old {} is compared with new {}",
                                  point_name(p.old_side, quote), point_name(p.new_side, quote)));
  }
  if (c.points.empty()) m.notes.push_back("no point is in both reports");
  if (c.old_report.kind != c.new_report.kind) {
    m.notes.push_back(fmt::format("the reports are of different kinds: {} (old), {} (new)",
                                  or_unknown(c.old_report.kind, quote),
                                  or_unknown(c.new_report.kind, quote)));
  }
  if (c.old_report.file == c.new_report.file) {
    m.notes.push_back("old and new are the same file: every point is compared with itself");
  }
  if (c.filesystems_differ) {
    m.notes.push_back(fmt::format("the file systems differ: {} (old), {} (new)",
                                  or_unknown(c.old_report.filesystem, quote),
                                  or_unknown(c.new_report.filesystem, quote)));
  }
  if (c.hosts_differ) {
    m.notes.push_back(fmt::format("the hosts differ: {} (old); {} (new)",
                                  joined(c.old_report.hosts, quote),
                                  joined(c.new_report.hosts, quote)));
  }
  for (const PointComparison& p : c.points) {
    if (p.verdict != CompareVerdict::NotComparable) continue;
    m.warnings.push_back(
        fmt::format("point {}: not compared: {}", point_name(p.new_side, quote), p.not_comparable));
  }
  for (const ReportAbout* a : {&c.old_report, &c.new_report}) {
    if (a->interrupted.empty()) continue;
    m.notes.push_back(
        fmt::format("the {} run was interrupted ({}): only the repetitions it "
                    "completed are compared",
                    a == &c.old_report ? "old" : "new", quote(a->interrupted)));
  }
  return m;
}

// Fixed point for what times and ratios are (µs to hours), else 6 significant digits: a value
// no run gives (1e308 in an edited report) must not print 310 digits and break the columns.
// A figure that is not finite never reaches here (PointComparison); "-" if one did.
std::string number(double value, const char* format) {
  if (!std::isfinite(value)) return "-";
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e6) return fmt::format("{:.6g}", value);
  return fmt::format(fmt::runtime(format), value);
}

std::string seconds(const std::optional<double>& s) { return s ? number(*s, "{:.6f}") : "-"; }

std::string interval(const std::optional<Interval>& i, const char* format) {
  if (!i) return "-";
  return fmt::format("[{}, {}]", number(i->low, format), number(i->high, format));
}

std::string verdict_text(const PointComparison& p) {
  std::string text = verdict_name(p.verdict);
  if (p.repetitions_needed) text += fmt::format(" (need {} each)", *p.repetitions_needed);
  return text;
}

// Cells are raw: print_aligned and print_markdown escape them. Two grids, so that each fits 120
// columns: the verdicts with new/old and p (the answer), then the medians behind them.
Grid verdicts_grid(const ReportComparison& c) {
  Grid grid{{"verdict", "mode", "point", "new/old", "95% CI", "p"}, {}};
  for (const PointComparison& p : c.points) {
    grid.rows.push_back({verdict_text(p), same_or_both_text(p.old_side.mode, p.new_side.mode),
                         same_or_both_text(p.old_side.label, p.new_side.label),
                         p.ratio ? number(*p.ratio, "{:.3f}") : "-", interval(p.ratio_ci, "{:.3f}"),
                         p.p_value ? fmt::format("{:.3g}", *p.p_value) : "-"});
  }
  return grid;
}

Grid medians_grid(const ReportComparison& c) {
  Grid grid{{"mode", "point", "n old", "median old [s]", "95% CI old [s]", "n new",
             "median new [s]", "95% CI new [s]"},
            {}};
  for (const PointComparison& p : c.points) {
    grid.rows.push_back({same_or_both_text(p.old_side.mode, p.new_side.mode),
                         same_or_both_text(p.old_side.label, p.new_side.label),
                         fmt::format("{}", p.old_side.repetitions), seconds(p.old_side.median_s),
                         interval(p.old_side.median_ci, "{:.6f}"),
                         fmt::format("{}", p.new_side.repetitions), seconds(p.new_side.median_s),
                         interval(p.new_side.median_ci, "{:.6f}")});
  }
  return grid;
}

Grid unmatched_grid(const ReportComparison& c) {
  Grid grid{{"only in", "mode", "point", "repetitions"}, {}};
  for (const UnmatchedPoint& u : c.unmatched) {
    grid.rows.push_back(
        {u.in_old ? "old" : "new", u.mode, u.label, fmt::format("{}", u.repetitions)});
  }
  return grid;
}

// The lines "per file, new against old": one per point whose verdict names a change.
std::vector<std::string> change_lines(const ReportComparison& c, const Quote& quote) {
  std::vector<std::string> lines;
  for (const PointComparison& p : c.points) {
    if (names_a_change(p)) lines.push_back(change_line(p, quote));
  }
  return lines;
}

constexpr const char* kChangeHeading =
    "where the change is: each operation's mean per file, new against old, the one that "
    "changed most in time first (docs/metrics.md, \"Comparing two reports\")";

void write_table(const ReportComparison& c, std::ostream& out) {
  const Quote quote = [](std::string_view s) { return printable(s); };
  const auto line = [&](const char* label, const std::string& text) {
    out << wrapped(fmt::format("{:<{}}", label, kLabelWidth), text, kLabelWidth);
  };
  fmt::print(out, "mpiwrite-compare: is new faster than old?\n");
  line("old:", about_text(c.old_report, quote));
  line("new:", about_text(c.new_report, quote));
  line("phase:", phase_text(c));
  line("statistics:", statistics_text(c));
  const Messages m = messages(c, quote);
  for (const std::string& w : m.warnings) line("WARNING:", w);
  for (const std::string& n : m.notes) line("note:", n);
  if (!c.points.empty()) {
    fmt::print(out, "\n");
    print_aligned(verdicts_grid(c), out);
    fmt::print(out, "\n");
    print_aligned(medians_grid(c), out);
    const std::vector<std::string> changes = change_lines(c, quote);
    if (!changes.empty()) {
      fmt::print(out, "\n");
      out << wrapped("", kChangeHeading, 0);
      for (const std::string& change : changes) out << wrapped("  ", change, 4);
    }
  }
  if (!c.unmatched.empty()) {
    fmt::print(out, "\nunmatched points (in one report only):\n");
    print_aligned(unmatched_grid(c), out);
  }
}

void write_markdown(const ReportComparison& c, std::ostream& out) {
  const Quote quote = [](std::string_view s) { return markdown_code(s); };
  fmt::print(out, "### mpiwrite-compare: is new faster than old?\n\n");
  // A list item continues on lines indented by two spaces: wrapped like the table's lines.
  const auto item = [&](const std::string& label, const std::string& text) {
    out << wrapped("- " + label, text, 2);
  };
  item("old: ", about_text(c.old_report, quote));
  item("new: ", about_text(c.new_report, quote));
  item("phase: ", phase_text(c));
  item("statistics: ", statistics_text(c));
  const Messages m = messages(c, quote);
  for (const std::string& w : m.warnings) item("**warning**: ", w);
  for (const std::string& n : m.notes) item("", n);
  if (!c.points.empty()) {
    fmt::print(out, "\n");
    print_markdown(verdicts_grid(c), out);
    fmt::print(out, "\n");
    print_markdown(medians_grid(c), out);
    const std::vector<std::string> changes = change_lines(c, quote);
    if (!changes.empty()) {
      out << "\n" << wrapped("", kChangeHeading, 0) << "\n";
      for (const std::string& change : changes) item("", change);
    }
  }
  if (!c.unmatched.empty()) {
    fmt::print(out, "\nUnmatched points (in one report only):\n\n");
    print_markdown(unmatched_grid(c), out);
  }
}

template <typename T>
Json optional_json(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json interval_json(const std::optional<Interval>& i) {
  if (!i) return nullptr;
  return {{"low", i->low}, {"high", i->high}, {"level", i->level}};
}

Json about_json(const ReportAbout& a) {
  const auto text_or_null = [](const std::string& s) {
    return s.empty() ? Json(nullptr) : Json(s);
  };
  return {{"file", a.file},
          {"schema_version", a.schema_version},
          {"kind", text_or_null(a.kind)},
          {"mpiwrite_version", text_or_null(a.mpiwrite_version)},
          {"filesystem", text_or_null(a.filesystem)},
          {"hosts", a.hosts},
          {"interrupted", text_or_null(a.interrupted)}};
}

Json change_json(const OperationChange& c) {
  return {{"name", c.name},
          {"old_mean_us", c.old_us},
          {"new_mean_us", c.new_us},
          {"change_us", c.change_us()},
          {"relative", optional_json(c.relative())}};
}

// null without the per-operation figures; "operations" largest change first, so
// operations[0] is the one "carried_by" names.
Json per_file_json(const std::optional<ChangeAttribution>& a) {
  if (!a) return nullptr;
  Json operations = Json::array();
  for (const OperationChange& op : a->operations) operations.push_back(change_json(op));
  return {{"latency", change_json(a->latency)},
          {"operations", operations},
          {"carried_by", a->operations.empty() ? Json(nullptr) : Json(a->operations[0].name)}};
}

Json side_json(const SideFigures& s) {
  return {{"mode", s.mode},
          {"label", s.label},
          {"repetitions", s.repetitions},
          {"median_s", optional_json(s.median_s)},
          {"median_ci", interval_json(s.median_ci)}};
}

void write_json(const ReportComparison& c, std::ostream& out) {
  const Messages m = messages(c, raw);
  Json differences = Json::array();
  for (const WorkloadDifference& d : c.workload_differences) {
    differences.push_back(
        {{"key", d.key},
         {"old", Json(d.old_value.value)},  // nlohmann::json to ordered_json, bytes kept
         {"new", Json(d.new_value.value)},
         {"old_absent", d.old_value.absent},
         {"new_absent", d.new_value.absent}});
  }
  Json points = Json::array();
  for (const PointComparison& p : c.points) {
    points.push_back(
        {{"old", side_json(p.old_side)},
         {"new", side_json(p.new_side)},
         {"ratio", {{"estimate", optional_json(p.ratio)}, {"ci", interval_json(p.ratio_ci)}}},
         {"p_value", optional_json(p.p_value)},
         {"exact", optional_json(p.exact)},
         {"prob_new_faster", optional_json(p.prob_new_faster)},
         {"verdict", verdict_name(p.verdict)},
         {"repetitions_needed", optional_json(p.repetitions_needed)},
         {"not_comparable", p.not_comparable.empty() ? Json(nullptr) : Json(p.not_comparable)},
         {"per_file", per_file_json(p.per_file)}});
  }
  Json unmatched = Json::array();
  for (const UnmatchedPoint& u : c.unmatched) {
    unmatched.push_back({{"report", u.in_old ? "old" : "new"},
                         {"mode", u.mode},
                         {"label", u.label},
                         {"repetitions", u.repetitions}});
  }
  const Json doc = {
      {"schema", kCompareJsonSchema},
      {"phase", c.old_report.phase},
      {"old", about_json(c.old_report)},
      {"new", about_json(c.new_report)},
      {"statistics",
       {{"confidence_level", kConfidenceLevel},
        {"alpha", kSignificanceLevel},
        {"noise_threshold", c.equivalence},
        {"equivalence", c.equivalence},
        {"median_ci", "order statistics"},
        {"ratio", "median new / median old"},
        {"ratio_ci",
         "percentile bootstrap of the ratio of medians; above 5e7 draws the large-sample delta "
         "method"},
        {"bootstrap_resamples", kBootstrapResamples},
        {"seed", c.seed},
        {"test", "Mann-Whitney U of new against old, two-sided"}}},
      {"matched_by", c.single_points ? "the only point of each report" : "mode and label"},
      {"workload_differences", differences},
      {"filesystems_differ", c.filesystems_differ},
      {"hosts_differ", c.hosts_differ},
      {"warnings", m.warnings},
      {"notes", m.notes},
      {"points", points},
      {"unmatched", unmatched}};
  out << dump_lossless(doc, 2) << '\n';
}

}  // namespace

const char* to_string(CompareFormat format) {
  switch (format) {
    case CompareFormat::Table:
      return "table";
    case CompareFormat::Markdown:
      return "markdown";
    case CompareFormat::Json:
      return "json";
  }
  return "?";
}

void write_comparison(const ReportComparison& comparison, CompareFormat format, std::ostream& out) {
  switch (format) {
    case CompareFormat::Table:
      write_table(comparison, out);
      break;
    case CompareFormat::Markdown:
      write_markdown(comparison, out);
      break;
    case CompareFormat::Json:
      write_json(comparison, out);
      break;
  }
}

}  // namespace mpiwrite
