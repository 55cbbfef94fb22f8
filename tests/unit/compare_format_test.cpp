// mpiwrite-compare's outputs, checked as a reader would: rows per matched point, the seed,
// the verdicts, nothing of a report's control characters, and JSON with every figure.
#include "mpiwrite/compare/compare_format.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "compare_fixtures.hpp"

namespace mpiwrite {
namespace {

using testing::fixture_text;

ReportComparison compare_fixtures(const std::string& old_name, const std::string& new_name,
                                  std::uint64_t seed = kDefaultCompareSeed) {
  return compare_reports(read_report(fixture_text(old_name), old_name),
                         read_report(fixture_text(new_name), new_name), seed);
}

std::string output(const ReportComparison& c, CompareFormat format) {
  std::ostringstream out;
  write_comparison(c, format, out);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The rows of the aligned table whose header starts with `first_column`, up to a blank line.
std::vector<std::string> table_rows(const std::string& text, const std::string& first_column) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> rows;
  bool in_table = false;
  for (const std::string& line : lines) {
    const std::size_t start = line.find_first_not_of(' ');
    if (!in_table) {
      in_table =
          start != std::string::npos && line.compare(start, first_column.size(), first_column) == 0;
      continue;
    }
    if (line.empty()) break;
    rows.push_back(line);
  }
  return rows;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CompareTable, OneRowPerMatchedPointWithItsVerdict) {
  const ReportComparison c = compare_fixtures("sweep_old_v4.json", "sweep_new_v4.json");
  const std::string text = output(c, CompareFormat::Table);
  // Two grids, each a row per point: the verdicts with new/old and p, then the medians.
  const std::vector<std::string> verdicts = table_rows(text, "verdict");
  const std::vector<std::string> rows = table_rows(text, "mode  point");
  ASSERT_EQ(verdicts.size(), c.points.size()) << text;
  ASSERT_EQ(rows.size(), c.points.size()) << text;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_TRUE(contains(verdicts[i], fmt::format(" {} ", c.points[i].old_side.label)))
        << verdicts[i];
    EXPECT_TRUE(contains(verdicts[i], verdict_name(c.points[i].verdict))) << verdicts[i];
    EXPECT_TRUE(contains(verdicts[i], fmt::format("{:.3f}", *c.points[i].ratio))) << verdicts[i];
    EXPECT_TRUE(contains(rows[i], fmt::format(" {} ", c.points[i].old_side.label))) << rows[i];
    EXPECT_TRUE(contains(rows[i], fmt::format("{:.6f}", *c.points[i].old_side.median_s)))
        << rows[i];
  }
  // Aligned: every row as long as the header.
  const std::vector<std::string> lines = lines_of(text);
  for (const char* first : {"verdict", "mode  point"}) {
    const auto header = std::find_if(lines.begin(), lines.end(), [&](const std::string& l) {
      return l.substr(std::min(l.size(), l.find_first_not_of(' '))).rfind(first, 0) == 0;
    });
    ASSERT_NE(header, lines.end());
    for (const std::string& row : table_rows(text, first)) {
      EXPECT_EQ(row.size(), header->size()) << row;
    }
  }
  EXPECT_TRUE(contains(text, "seed 42")) << text;
  // Unmatched points are listed with the report they are in.
  const std::vector<std::string> unmatched = table_rows(text, "only in");
  ASSERT_EQ(unmatched.size(), c.unmatched.size()) << text;
  EXPECT_TRUE(contains(unmatched[0], "old") && contains(unmatched[0], "4x8")) << unmatched[0];
  EXPECT_TRUE(contains(unmatched[1], "new") && contains(unmatched[1], "4x16")) << unmatched[1];
}

TEST(CompareTable, TheSeedIsPrinted) {
  const std::string text = output(
      compare_fixtures("sweep_old_v4.json", "sweep_new_v4.json", 123456789), CompareFormat::Table);
  EXPECT_TRUE(contains(text, "seed 123456789")) << text;
}

TEST(CompareTable, SaysWhenSinglePointsWithOtherLabelsAreCompared) {
  const std::string text =
      output(compare_fixtures("run_old_v3.json", "run_new_v3.json"), CompareFormat::Table);
  EXPECT_TRUE(
      contains(text, "each report has one point: old 1x1 (run) is compared with new 1x2 (run)"))
      << text;
  const std::vector<std::string> rows = table_rows(text, "mode");
  ASSERT_EQ(rows.size(), 1u) << text;
  EXPECT_TRUE(contains(rows[0], "1x1 vs 1x2")) << rows[0];
}

// The table's text with each line broken to fit 120 columns joined again: a continuation line
// starts with the 12 spaces of the hanging indent.
std::string unwrapped(std::string text) {
  const std::string continuation = "\n" + std::string(12, ' ');
  for (std::size_t at; (at = text.find(continuation)) != std::string::npos;) {
    text.replace(at, continuation.size(), " ");
  }
  return text;
}

TEST(CompareTable, WarnsAboutWorkloadsAndStatesFileSystemsAndHosts) {
  const std::string text = unwrapped(
      output(compare_fixtures("compare_old_v3.json", "compare_new_v3.json"), CompareFormat::Table));
  const std::vector<std::string> lines = lines_of(text);
  const auto warning = std::find_if(
      lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("WARNING:", 0) == 0; });
  ASSERT_NE(warning, lines.end()) << text;
  EXPECT_TRUE(contains(*warning, "write_mode \"line\" (old) vs \"whole\" (new)")) << *warning;
  EXPECT_TRUE(contains(*warning, "text ")) << *warning;
  EXPECT_FALSE(contains(*warning, "engine")) << "engine is the same: " << *warning;
  EXPECT_TRUE(contains(text, "the file systems differ: ext4 (old), tmpfs (new)")) << text;
  EXPECT_TRUE(contains(text, "the hosts differ: node1 (old); cn1, cn2 (new)")) << text;
  EXPECT_TRUE(contains(text, "interrupted (SIGINT)")) << text;
}

// Schema 5 only renamed lists (issue 24): it times the makespan as 4 does, so no warning.
TEST(CompareTable, Versions4And5TimeTheSame) {
  const ReportComparison c = compare_fixtures("sweep_old_v4.json", "sweep_new_v5.json");
  ASSERT_EQ(c.points.size(), 2u);
  const std::string text = output(c, CompareFormat::Table);
  EXPECT_FALSE(contains(text, "time differently")) << text;
  EXPECT_TRUE(contains(text, "schema_version 5")) << text;
}

TEST(CompareTable, WarnsWhenTheReportsTimeDifferentlyAndNothingMatches) {
  const ReportComparison c = compare_fixtures("run_old_v3.json", "sweep_old_v4.json");
  ASSERT_TRUE(c.points.empty());
  const std::string text = output(c, CompareFormat::Table);
  EXPECT_TRUE(contains(text, "WARNING:    the reports time differently: old is schema_version 3"))
      << text;
  EXPECT_TRUE(contains(text, "note:       no point is in both reports")) << text;
  EXPECT_TRUE(
      contains(text, "note:       the reports are of different kinds: run (old), sweep (new)"))
      << text;
  EXPECT_EQ(table_rows(text, "only in").size(), 1 + 4u) << text;  // 1 run point, 4 sweep points
  for (const std::string& line : lines_of(text)) {
    EXPECT_NE(
        line.substr(std::min(line.size(), line.find_first_not_of(' '))).rfind("mode  point", 0), 0u)
        << "an empty table was printed: " << text;
  }
}

TEST(CompareTable, SaysWhenBothArgumentsAreTheSameFile) {
  const std::string same =
      output(compare_fixtures("run_old_v3.json", "run_old_v3.json"), CompareFormat::Table);
  EXPECT_TRUE(contains(same, "old and new are the same file")) << same;
  const std::string other =
      output(compare_fixtures("run_old_v3.json", "run_new_v3.json"), CompareFormat::Table);
  EXPECT_FALSE(contains(other, "same file")) << other;
  EXPECT_FALSE(contains(other, "different kinds")) << other;
}

// The longest time read_report() accepts (kLongestSeconds; longer, 0 and 1e308 are refused:
// compare_hostile_reports_test.cpp) keeps the columns and prints no 10-digit fixed point.
TEST(CompareTable, TheLongestTimeIsShownReadably) {
  nlohmann::json doc = nlohmann::json::parse(fixture_text("sweep_new_v4.json"));
  for (auto& rep : doc["points"][0]["repetitions"]) rep["makespan_s"] = kLongestSeconds;
  const ReportInput old_report =
      read_report(fixture_text("sweep_old_v4.json"), "sweep_old_v4.json");
  const std::string huge = output(
      compare_reports(old_report, read_report(doc.dump(), "edited.json")), CompareFormat::Table);
  for (const std::string& line : lines_of(huge)) EXPECT_LT(line.size(), 400u) << line;
  EXPECT_TRUE(contains(huge, "1e+09")) << huge;
}

TEST(CompareTable, ControlCharactersAndBytesOfAReportAreEscaped) {
  for (CompareFormat format : {CompareFormat::Table, CompareFormat::Markdown}) {
    const std::string text =
        output(compare_fixtures("compare_old_v3.json", "compare_new_v3.json"), format);
    EXPECT_FALSE(contains(text, "\x1b")) << to_string(format);
    EXPECT_FALSE(contains(text, "\xff")) << to_string(format);
    EXPECT_TRUE(contains(text, "Hi\\x1b[2J\\xff|x")) << text;
  }
}

// Issue 24: every line of the table and markdown outputs fits a terminal of 120 columns, in
// every shape the fixtures give (sweeps with unmatched points, warnings and notes, v3 against
// v4, too few repetitions, a change and where it comes from).
TEST(CompareTable, EveryLineFitsOneHundredTwentyColumns) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"sweep_old_v4.json", "sweep_new_v4.json"},
      {"run_old_v3.json", "run_new_v3.json"},
      {"compare_old_v3.json", "compare_new_v3.json"},
      {"run_old_v3.json", "sweep_old_v4.json"},
      {"sweep_phases_v4.json", "sweep_phases_v4.json"}};
  for (const auto& [old_name, new_name] : pairs) {
    for (CompareFormat format : {CompareFormat::Table, CompareFormat::Markdown}) {
      const std::string text = output(compare_fixtures(old_name, new_name, UINT64_MAX), format);
      for (const std::string& line : lines_of(text)) {
        EXPECT_LE(line.size(), 120u)
            << old_name << " " << new_name << " " << to_string(format) << ":\n"
            << line;
      }
    }
  }
}

// A copy of sweep_phases_v4.json whose every makespan is doubled and whose creates take
// 50 us more per file: new is slower, and the create carries it.
std::string slower_creates() {
  nlohmann::json doc = nlohmann::json::parse(fixture_text("sweep_phases_v4.json"));
  for (auto& point : doc["points"]) {
    for (auto& rep : point["repetitions"]) {
      rep["makespan_s"] = rep["makespan_s"].get<double>() * 2;
      for (auto* figures : {&rep, &rep["phases"]["write"]}) {
        const std::uint64_t extra = 50'000 * (*figures)["latency_us"]["count"].get<std::uint64_t>();
        for (auto* total : {&(*figures)["latency_us"]["total_ns"],
                            &(*figures)["operations_us"]["create"]["total_ns"]}) {
          *total = total->get<std::uint64_t>() + extra;
        }
      }
    }
  }
  return doc.dump();
}

TEST(CompareTable, NamesTheOperationThatCarriesAChange) {
  const std::string name = "sweep_phases_v4.json";
  const ReportComparison c =
      compare_reports(read_report(fixture_text(name), name), read_report(slower_creates(), "b"));
  ASSERT_EQ(c.points.size(), 2u);
  for (const PointComparison& p : c.points) {
    ASSERT_EQ(p.verdict, CompareVerdict::Slower);
    ASSERT_TRUE(p.per_file.has_value());
    EXPECT_EQ(p.per_file->operations.front().name, "create");
    EXPECT_NEAR(p.per_file->operations.front().change_us(), 50, 1e-6);
    EXPECT_NEAR(p.per_file->latency.change_us(), 50, 1e-6);
  }
  const std::string text = output(c, CompareFormat::Table);
  EXPECT_TRUE(contains(text, "\nwhere the change is: each operation's mean per file")) << text;
  const std::string first = fmt::format("  {} {} slower: create +", c.points[0].old_side.mode,
                                        c.points[0].old_side.label);
  EXPECT_TRUE(contains(text, first)) << text;
  EXPECT_TRUE(contains(text, " per file (+50 us), ")) << text;
  EXPECT_TRUE(contains(text, "writes +-0 %")) << text;
  const std::string markdown = output(c, CompareFormat::Markdown);
  // Markdown names the report's strings as code, as it does the files.
  const std::string item = "\n- `sweep` `" + c.points[0].old_side.label + "` slower: `create` +";
  EXPECT_TRUE(contains(markdown, item)) << markdown;
  const nlohmann::json doc = nlohmann::json::parse(output(c, CompareFormat::Json));
  EXPECT_EQ(doc["points"][0]["per_file"]["carried_by"], "create");
  EXPECT_NEAR(doc["points"][0]["per_file"]["operations"][0]["change_us"].get<double>(), 50, 1e-6);
  // No line for a verdict that names no change; null where a report has no such figures.
  const std::string same = output(compare_fixtures(name, name), CompareFormat::Table);
  EXPECT_FALSE(contains(same, "where the change is")) << same;
  const nlohmann::json v3 = nlohmann::json::parse(
      output(compare_fixtures("run_old_v3.json", "run_new_v3.json"), CompareFormat::Json));
  EXPECT_TRUE(v3["points"][0]["per_file"].is_null());
}

TEST(CompareMarkdown, ATableRowPerMatchedPoint) {
  const ReportComparison c = compare_fixtures("sweep_old_v4.json", "sweep_new_v4.json");
  const std::vector<std::string> lines = lines_of(output(c, CompareFormat::Markdown));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].rfind("### ", 0), 0u);
  std::size_t rows = 0, rules = 0;
  for (const std::string& l : lines) {
    if (l.rfind("|---", 0) == 0)
      ++rules;
    else if (l.rfind("| sweep |", 0) == 0)
      ++rows;
  }
  EXPECT_EQ(rules, 3u);  // the verdicts, the medians and the unmatched points
  EXPECT_EQ(rows, c.points.size());
}

TEST(CompareJson, EveryFigureWithNullsWhereAbsent) {
  const ReportComparison c = compare_fixtures("sweep_old_v4.json", "sweep_new_v4.json", 9);
  const nlohmann::json doc = nlohmann::json::parse(output(c, CompareFormat::Json));
  EXPECT_EQ(doc["schema"], "mpiwrite-compare/1");
  EXPECT_EQ(doc["statistics"]["seed"], 9);
  EXPECT_EQ(doc["statistics"]["alpha"], kSignificanceLevel);
  EXPECT_EQ(doc["matched_by"], "mode and label");
  EXPECT_EQ(doc["old"]["file"], "sweep_old_v4.json");
  EXPECT_EQ(doc["new"]["schema_version"], 4);
  ASSERT_EQ(doc["points"].size(), c.points.size());
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const auto& j = doc["points"][i];
    const PointComparison& p = c.points[i];
    EXPECT_EQ(j["verdict"], verdict_name(p.verdict));
    EXPECT_EQ(j["old"]["label"], p.old_side.label);
    EXPECT_EQ(j["old"]["repetitions"], p.old_side.repetitions);
    EXPECT_EQ(j["new"]["median_s"].get<double>(), *p.new_side.median_s);
    EXPECT_EQ(j["ratio"]["estimate"].get<double>(), *p.ratio);
    EXPECT_EQ(j["ratio"]["ci"]["low"].get<double>(), p.ratio_ci->low);
    EXPECT_EQ(j["p_value"].get<double>(), *p.p_value);
    EXPECT_TRUE(j["exact"].is_boolean());
    EXPECT_EQ(j["old"]["median_ci"].is_null(), !p.old_side.median_ci.has_value());
    EXPECT_EQ(j["repetitions_needed"].is_null(), !p.repetitions_needed.has_value());
  }
  ASSERT_EQ(doc["unmatched"].size(), 2u);
  EXPECT_EQ(doc["unmatched"][0]["report"], "old");
  EXPECT_EQ(doc["unmatched"][1]["report"], "new");
  EXPECT_TRUE(doc["workload_differences"].empty());
}

TEST(CompareJson, UnmeasuredFiguresAreNullAndBytesAreKept) {
  const ReportComparison c = compare_fixtures("compare_old_v3.json", "compare_new_v3.json");
  std::string text = output(c, CompareFormat::Json);
  // The byte 0xff of the new report's text comes back as mpiwrite wrote it.
  EXPECT_TRUE(contains(text, R"("Hi\u001b[2J\udcff|x")")) << text;
  // For nlohmann, which refuses a lone surrogate (and -Wrestrict warns falsely on replace()).
  for (std::size_t at; (at = text.find("\\udcff")) != std::string::npos;) {
    text = text.substr(0, at) + std::string(1, '?') + text.substr(at + 6);
  }
  const nlohmann::json doc = nlohmann::json::parse(text);
  const auto& p = doc["points"][1];
  EXPECT_EQ(p["new"]["label"], "2x1");
  EXPECT_TRUE(p["new"]["median_s"].is_null());
  EXPECT_TRUE(p["new"]["median_ci"].is_null());
  EXPECT_TRUE(p["ratio"]["estimate"].is_null());
  EXPECT_TRUE(p["ratio"]["ci"].is_null());
  EXPECT_TRUE(p["p_value"].is_null());
  EXPECT_EQ(p["verdict"], "too few repetitions");
  ASSERT_EQ(doc["workload_differences"].size(), 2u);
  EXPECT_EQ(doc["workload_differences"][1]["key"], "write_mode");
  EXPECT_EQ(doc["workload_differences"][1]["old"], "line");
  EXPECT_EQ(doc["workload_differences"][1]["new"], "whole");
  EXPECT_TRUE(doc["filesystems_differ"].get<bool>());
  EXPECT_TRUE(doc["hosts_differ"].get<bool>());
  EXPECT_EQ(doc["new"]["interrupted"], "SIGINT");
  EXPECT_TRUE(doc["old"]["interrupted"].is_null());
  EXPECT_FALSE(doc["warnings"].empty());
}

}  // namespace
}  // namespace mpiwrite
