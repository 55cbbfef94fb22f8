// Each reporter against a golden file. To accept an intended change of format, run the test
// with MPIWRITE_UPDATE_GOLDEN=1 and review the diff of tests/golden/.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/reporters.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

RunReport sample_report(Format format, bool per_rank) {
  RunReport r;
  r.config.files = 100;
  r.config.repetitions = 2;
  r.config.format = format;
  r.config.per_rank = per_rank;
  r.context = {"0.1.0",
               2,
               1,
               {{"node1", {0, 1}}},
               "Open MPI v4.1.4",
               "/data/mpiwrite-data",
               "ext4",
               "2026-11-30T12:00:00Z",
               {2, 2},
               true,
               {5120, 6144},
               {}};
  LatencyHistogram h;
  OperationHistograms operations;  // 40 + 30 + 20 of each file's 100 % (no fsync)
  for (int i = 1; i <= 100; ++i) {
    const auto us = static_cast<std::uint64_t>(i) * 1000;
    h.record(us);
    operations.record(Operation::Create, us * 4 / 10);
    operations.record(Operation::Writes, us * 3 / 10);
    operations.record(Operation::Close, us * 2 / 10);
  }
  PointReport point(PointSpec{2, 1, PointMode::Run});
  RepetitionFigures first =
      summarize_repetition(1, {{0, 0.004, 50, 70000}, {1, 0.005, 50, 70000}}, h);
  RepetitionFigures second =
      summarize_repetition(2, {{0, 0.003, 50, 70000}, {1, 0.006, 50, 70000}}, h);
  first.operations = second.operations = operation_figures(operations);
  point.repetitions.push_back(first);
  point.repetitions.push_back(second);
  r.points.push_back(point);
  summarize_report(r);
  r.cleanup = {true, 0.0025, 100};
  return r;
}

// A comparison on 2 ranks: 1x1, 2x1, 1x2, 1x4, 2x2, each with six repetitions. At
// concurrency 2 the two modes overlap (no winner may be named); at 4 hybrid is faster in every
// repetition (a winner). 1x4's first repetition is slow (a warning and an outlier).
RunReport sample_comparison(Format format) {
  RunReport r = sample_report(format, false);
  r.kind = RunKind::Compare;
  r.seed = 42;
  r.config.compare = true;
  r.config.threads = 2;
  r.config.repetitions = 6;
  r.points.clear();
  const std::pair<PointSpec, double> measured[] = {{{1, 1, PointMode::Processes}, 0.008},
                                                   {{2, 1, PointMode::Processes}, 0.005},
                                                   {{1, 2, PointMode::Threads}, 0.0049},
                                                   {{1, 4, PointMode::Threads}, 0.004},
                                                   {{2, 2, PointMode::Hybrid}, 0.003}};
  const double spread[] = {1.00, 1.06, 0.95, 1.03, 0.98, 1.08};
  LatencyHistogram h;
  h.record(40'000);
  OperationHistograms operations;  // half, a quarter and an eighth of the file's 40 us
  operations.record(Operation::Create, 20'000);
  operations.record(Operation::Writes, 10'000);
  operations.record(Operation::Close, 5'000);
  for (const auto& [spec, seconds] : measured) {
    PointReport p(spec);
    for (unsigned rep = 1; rep <= 6; ++rep) {
      const double slow_first = spec.threads == 4 && rep == 1 ? 1.6 : 1.0;
      std::vector<RankFigures> ranks;
      for (int rank = 0; rank < spec.ranks; ++rank) {
        ranks.push_back({rank, seconds * spread[rep - 1] * slow_first,
                         100u / static_cast<unsigned>(spec.ranks), 70000, 0.0001 * rank});
      }
      RepetitionFigures figures = summarize_repetition(rep, std::move(ranks), h);
      figures.operations = operation_figures(operations);
      p.repetitions.push_back(figures);
    }
    r.points.push_back(p);
  }
  summarize_report(r);
  return r;
}

// The comparison interrupted in its second round: 1x1 (the baseline) and 1x4 never completed
// a repetition, 2x1 completed one of two.
RunReport interrupted_comparison(Format format, bool per_rank) {
  RunReport r = sample_comparison(format);
  r.config.per_rank = per_rank;
  r.interrupted_by = 15;
  r.interrupted_in = InterruptedIn{"write", "2x1", false, 2};  // after its first repetition
  for (PointReport& p : r.points) {
    if (p.spec.label() == "1x1" || p.spec.label() == "1x4") p.repetitions = {};
    if (p.spec.label() == "2x1") {
      RepetitionLog first;
      first.push_back(p.repetitions.front());
      p.repetitions = first;
    }
  }
  summarize_report(r);
  return r;
}

// A comparison of two layouts on 2 ranks (--layout shared,rank): 1x1, 2x1, 1x2 in each, six
// repetitions. Every rank-layout point is faster than every shared one, but winners are
// decided per (layout, concurrency): at 2 shared's threads win, rank's processes win; every
// speedup is against 1x1 of shared, the first layout.
RunReport two_layout_comparison(Format format) {
  RunReport r = sample_report(format, false);
  r.kind = RunKind::Compare;
  r.seed = 42;
  r.config.compare = true;
  r.config.repetitions = 6;
  r.config.layouts = {Layout::Shared, Layout::Rank};
  r.points.clear();
  const auto rank = [](PointSpec spec) {
    spec.layout = Layout::Rank;
    return spec;
  };
  const std::pair<PointSpec, double> measured[] = {
      {{1, 1, PointMode::Processes}, 0.008},       {{2, 1, PointMode::Processes}, 0.006},
      {{1, 2, PointMode::Threads}, 0.0045},        {rank({1, 1, PointMode::Processes}), 0.004},
      {rank({2, 1, PointMode::Processes}), 0.002}, {rank({1, 2, PointMode::Threads}), 0.003}};
  const double spread[] = {1.00, 1.06, 0.95, 1.03, 0.98, 1.08};
  LatencyHistogram h;
  h.record(40'000);
  for (const auto& [spec, seconds] : measured) {
    PointReport p(spec);
    for (unsigned rep = 1; rep <= 6; ++rep) {
      std::vector<RankFigures> ranks;
      for (int rank_index = 0; rank_index < spec.ranks; ++rank_index) {
        ranks.push_back({rank_index, seconds * spread[rep - 1],
                         100u / static_cast<unsigned>(spec.ranks), 70000, 0.0001 * rank_index});
      }
      p.repetitions.push_back(summarize_repetition(rep, std::move(ranks), h));
    }
    r.points.push_back(p);
  }
  summarize_report(r);
  return r;
}

// A comparison on 2 ranks with --phases tree-create,write,stat,remove,tree-remove --layout
// rank: 1x1, 2x1, 1x2, six repetitions. Each phase scales differently: stat twice as fast at
// 2 (rank or thread alike), remove not at all, and 2x1 makes twice 1x1's directories in the
// same time (a speedup of 2 in the rate), 1x2 the same directories as 1x1 (one rank).
RunReport phases_comparison(Format format, bool per_rank = false) {
  RunReport r = sample_report(format, per_rank);
  r.kind = RunKind::Compare;
  r.seed = 42;
  r.config.compare = true;
  r.config.threads = 2;
  r.config.repetitions = 6;
  r.config.layouts = {Layout::Rank};
  r.config.phases = {Phase::TreeCreate, Phase::Write, Phase::Stat, Phase::Remove,
                     Phase::TreeRemove};
  r.points.clear();
  struct Measured {
    PointSpec spec;
    double write_s, stat_s, remove_s, tree_s;
    std::uint64_t directories;
  };
  const auto rank = [](PointSpec spec) {
    spec.layout = Layout::Rank;
    return spec;
  };
  const Measured measured[] = {{rank({1, 1, PointMode::Processes}), 0.008, 0.002, 0.003, 0.001, 1},
                               {rank({2, 1, PointMode::Processes}), 0.005, 0.001, 0.003, 0.001, 2},
                               {rank({1, 2, PointMode::Threads}), 0.0049, 0.001, 0.0031, 0.001, 1}};
  const double spread[] = {1.00, 1.06, 0.95, 1.03, 0.98, 1.08};
  LatencyHistogram h;
  h.record(40'000);
  for (const Measured& m : measured) {
    PointReport p(m.spec);
    for (unsigned rep = 1; rep <= 6; ++rep) {
      const double f = spread[rep - 1];
      std::vector<RankFigures> ranks;
      for (int rank_index = 0; rank_index < m.spec.ranks; ++rank_index) {
        ranks.push_back({rank_index, m.write_s * f, 100u / static_cast<unsigned>(m.spec.ranks),
                         70000, 0.0001 * rank_index});
      }
      RepetitionFigures figures = summarize_repetition(rep, std::move(ranks), h);
      const auto phase = [f, &m](Phase which, double seconds, std::uint64_t items) {
        PhaseFigures g;
        g.phase = which;
        g.makespan_s = seconds * f;
        g.items = items;
        g.items_per_s = static_cast<double>(items) / g.makespan_s;
        g.slowest_s = g.fastest_s = g.first_done_s = g.makespan_s;
        // Each rank's own: the items split evenly, rank k starting k x 10 us late.
        const auto rank_count = static_cast<std::uint64_t>(m.spec.ranks);
        for (int k = 0; k < m.spec.ranks; ++k) {
          const std::uint64_t own = items * static_cast<std::uint64_t>(k + 1) / rank_count -
                                    items * static_cast<std::uint64_t>(k) / rank_count;
          g.ranks.push_back({k, g.makespan_s - 0.00001 * k, own, 0, 0.00001 * k});
        }
        return g;
      };
      figures.phases = {phase(Phase::TreeCreate, m.tree_s, m.directories),
                        phase(Phase::Stat, m.stat_s, 100), phase(Phase::Remove, m.remove_s, 100),
                        phase(Phase::TreeRemove, m.tree_s, m.directories)};
      p.repetitions.push_back(figures);
    }
    r.points.push_back(p);
  }
  summarize_report(r);
  return r;
}

void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(MPIWRITE_GOLDEN_DIR) + "/" + name;
  if (std::getenv("MPIWRITE_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << actual;
    GTEST_SKIP() << "updated " << path;
  }
  EXPECT_EQ(actual, testing::read_file(path)) << "differs from " << path;
}

std::string render(const RunReport& report) {
  std::ostringstream out;
  write_report(report, out);
  return out.str();
}

// --wide: every column, the full grids (the default table keeps the columns that matter).
RunReport wide(RunReport r) {
  r.config.wide = true;
  return r;
}

TEST(Reporters, Table) { expect_golden("table.txt", render(sample_report(Format::Table, false))); }
TEST(Reporters, TablePerRank) {
  expect_golden("table_per_rank.txt", render(sample_report(Format::Table, true)));
}
TEST(Reporters, TableWide) {
  expect_golden("table_wide.txt", render(wide(sample_report(Format::Table, false))));
}
TEST(Reporters, TablePerRankWide) {
  expect_golden("table_per_rank_wide.txt", render(wide(sample_report(Format::Table, true))));
}
TEST(Reporters, Markdown) {
  expect_golden("markdown.md", render(sample_report(Format::Markdown, true)));
}
TEST(Reporters, Csv) { expect_golden("report.csv", render(sample_report(Format::Csv, true))); }
TEST(Reporters, Json) { expect_golden("report.json", render(sample_report(Format::Json, false))); }

TEST(Reporters, CompareTable) {
  expect_golden("compare.txt", render(sample_comparison(Format::Table)));
}
TEST(Reporters, CompareTableWide) {
  expect_golden("compare_wide.txt", render(wide(sample_comparison(Format::Table))));
}
TEST(Reporters, CompareMarkdown) {
  expect_golden("compare.md", render(sample_comparison(Format::Markdown)));
}
TEST(Reporters, CompareCsv) {
  expect_golden("compare.csv", render(sample_comparison(Format::Csv)));
}
TEST(Reporters, CompareJson) {
  expect_golden("compare.json", render(sample_comparison(Format::Json)));
}

TEST(Reporters, CompareInterruptedTable) {
  expect_golden("compare_interrupted.txt", render(interrupted_comparison(Format::Table, false)));
}
TEST(Reporters, CompareInterruptedMarkdown) {
  expect_golden("compare_interrupted.md", render(interrupted_comparison(Format::Markdown, false)));
}
TEST(Reporters, CompareInterruptedCsv) {
  expect_golden("compare_interrupted.csv", render(interrupted_comparison(Format::Csv, false)));
}
TEST(Reporters, CompareInterruptedJson) {
  expect_golden("compare_interrupted.json", render(interrupted_comparison(Format::Json, false)));
}
TEST(Reporters, CompareTwoLayoutsTable) {
  expect_golden("compare_layouts.txt", render(two_layout_comparison(Format::Table)));
}
TEST(Reporters, CompareTwoLayoutsTableWide) {
  expect_golden("compare_layouts_wide.txt", render(wide(two_layout_comparison(Format::Table))));
}
TEST(Reporters, CompareTwoLayoutsMarkdown) {
  expect_golden("compare_layouts.md", render(two_layout_comparison(Format::Markdown)));
}
TEST(Reporters, CompareTwoLayoutsJson) {
  expect_golden("compare_layouts.json", render(two_layout_comparison(Format::Json)));
}
TEST(Reporters, CompareTwoLayoutsJsonNamesTheLayoutOfEveryPointAndRow) {
  const auto doc = nlohmann::json::parse(render(two_layout_comparison(Format::Json)));
  EXPECT_EQ(doc.at("config").at("layouts"), (nlohmann::json{"shared", "rank"}));
  const auto& points = doc.at("points");
  ASSERT_EQ(points.size(), 6u);
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].at("layout"), i < 3 ? "shared" : "rank") << i;
  }
  EXPECT_EQ(points[3].at("label"), "1x1-rank");
  const auto& rows = doc.at("comparison");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1].at("layout"), "shared");
  EXPECT_EQ(rows[1].at("winner"), "threads");
  EXPECT_EQ(rows[3].at("layout"), "rank");
  EXPECT_EQ(rows[3].at("winner"), "processes");
  EXPECT_EQ(rows[3].at("processes").at("label"), "2x1-rank");
  // A CSV row says its layout in the `layout` column (no cell of these rows has a comma).
  std::istringstream csv(render(two_layout_comparison(Format::Csv)));
  std::string line;
  std::getline(csv, line);  // the header
  const auto cells = [](const std::string& row) {
    std::vector<std::string> out;
    std::istringstream in(row);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    if (!row.empty() && row.back() == ',') out.emplace_back();
    return out;
  };
  const std::vector<std::string> header = cells(line);
  const auto column =
      static_cast<std::size_t>(std::find(header.begin(), header.end(), "layout") - header.begin());
  ASSERT_EQ(column, 34u);  // the 35th, where it always stood
  std::set<std::string> layouts;
  while (std::getline(csv, line)) {
    if (cells(line).at(0) != "removal") layouts.insert(cells(line).at(column));  // the run's
  }
  EXPECT_EQ(layouts, (std::set<std::string>{"shared", "rank"}));
}
TEST(Reporters, ComparePhasesTable) {
  expect_golden("compare_phases.txt", render(phases_comparison(Format::Table)));
}
TEST(Reporters, ComparePhasesMarkdown) {
  expect_golden("compare_phases.md", render(phases_comparison(Format::Markdown)));
}
TEST(Reporters, ComparePhasesJson) {
  expect_golden("compare_phases.json", render(phases_comparison(Format::Json)));
}
TEST(Reporters, ComparePhasesJsonGivesEachPhaseItsSpeedup) {
  const RunReport r = phases_comparison(Format::Json);
  const nlohmann::json doc = nlohmann::json::parse(render(r));
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const nlohmann::json& phases = doc["points"][i]["summary"]["phases"];
    for (const PhaseSummary& s : r.points[i].phases) {
      const nlohmann::json& got = phases[std::string(phase_name(s.phase))];
      ASSERT_TRUE(s.speedup) << i << " " << phase_name(s.phase);
      EXPECT_EQ(got["speedup"]["estimate"].get<double>(), *s.speedup);
      EXPECT_EQ(got["efficiency"]["estimate"].get<double>(), *s.efficiency);
      EXPECT_EQ(got["speedup"]["ci"].is_null(), !s.speedup_ci);
    }
    // The write phase's is the point's.
    EXPECT_EQ(phases["write"]["speedup"], doc["points"][i]["summary"]["speedup"]);
  }
  // 2x1 made twice the directories in the same time: twice the rate.
  EXPECT_DOUBLE_EQ(doc["points"][1]["summary"]["phases"]["tree-create"]["speedup"]["estimate"],
                   2.0);
  EXPECT_DOUBLE_EQ(doc["points"][2]["summary"]["phases"]["tree-create"]["speedup"]["estimate"],
                   1.0);
}

TEST(Reporters, ComparePerRankTable) {
  expect_golden("compare_per_rank.txt", render(interrupted_comparison(Format::Table, true)));
}
TEST(Reporters, ComparePerRankMarkdown) {
  expect_golden("compare_per_rank.md", render(interrupted_comparison(Format::Markdown, true)));
}

// The class: in every format an unmeasured point shows no figure (no 0.000000, no 0 speedup),
// a partly measured one says how many repetitions it rests on, and neither wins.
TEST(Reporters, UnmeasuredPointsShowNoFiguresInAnyFormat) {
  for (const bool wide_table : {false, true}) {  // the default table, long form, says it too
    RunReport r = interrupted_comparison(Format::Table, false);
    r.config.wide = wide_table;
    const std::string text = render(r);
    const std::regex partly(wide_table ? "2x1 \\(1 of 6\\)" : "\n.* 2x1 .* 1 of 6\n");
    EXPECT_TRUE(std::regex_search(text, partly)) << text;
  }
  for (Format f : {Format::Table, Format::Markdown}) {
    const std::string text = render(interrupted_comparison(f, false));
    if (f == Format::Markdown) {
      EXPECT_NE(text.find("2x1 (1 of 6)"), std::string::npos) << text;
    }
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      // The rows of 1x1 and 1x4 (never measured) hold no number but their shape.
      // (The row of concurrency 4 also holds the measured 2x2, the heading names 1x1.)
      if (line.find("1x1") == std::string::npos && line.find("1x4") == std::string::npos) continue;
      if (line.find("2x2") != std::string::npos || line.find("against") != std::string::npos)
        continue;
      EXPECT_NE(line.find("not measured"), std::string::npos) << line;
      EXPECT_EQ(line.find("0."), std::string::npos) << line;
    }
  }
  const auto doc = nlohmann::json::parse(render(interrupted_comparison(Format::Json, false)));
  for (const auto& point : doc.at("points")) {
    const auto& summary = point.at("summary");
    EXPECT_TRUE(summary.at("speedup").is_null())
        << point.at("label");  // the baseline is unmeasured
    EXPECT_TRUE(summary.at("efficiency").is_null()) << point.at("label");
    if (point.at("label") == "1x4") {
      EXPECT_TRUE(summary.at("makespan_s").is_null());
      EXPECT_EQ(summary.at("repetitions_measured"), 0);
      EXPECT_EQ(summary.at("repetitions_asked"), 6);
    }
  }
  const auto& rows = doc.at("comparison");
  EXPECT_TRUE(rows.at(0).at("winner").is_null());
  EXPECT_TRUE(rows.at(0).at("processes").at("mean_s").is_null());
  EXPECT_TRUE(rows.at(2).at("winner").is_null());  // 2x2 alone was measured: nothing to test
  EXPECT_TRUE(rows.at(2).at("verdict").is_null());
  EXPECT_TRUE(rows.at(2).at("threads").at("mean_s").is_null());
  std::istringstream csv(render(interrupted_comparison(Format::Csv, false)));
  std::string line;
  while (std::getline(csv, line)) {
    if (line.rfind("mean,processes,1,1,", 0) == 0) {
      // Through `layout`; the figures after it (per operation, time limit, phases) are empty
      // too, all but `concurrency`, which the point has measured or not.
      const std::string through_layout =
          "mean,processes,1,1,,,,,,,,,,,,,,,,,posix,1,,,,,,,,,,,,,shared";
      EXPECT_EQ(line.substr(0, through_layout.size()), through_layout);
      const std::string after = line.substr(through_layout.size());
      EXPECT_EQ(after.find_first_not_of(','), after.find(",1,") + 1) << line;
      EXPECT_EQ(after.find_first_not_of(',', after.find(",1,") + 2), std::string::npos) << line;
    }
  }
}

TEST(Reporters, AnUnmeasuredRunSaysSoInsteadOfZeros) {
  RunReport r = sample_report(Format::Table, false);
  r.points.front().repetitions = {};
  r.interrupted_by = 2;
  summarize_points(r.points);
  const std::string text = render(r);
  EXPECT_EQ(text.rfind("files/s: not measured (no timed repetition of 2 completed)\n", 0), 0u)
      << text;
  EXPECT_EQ(text.find("0.000000"), std::string::npos) << text;
  const std::string wide_text = render(wide(r));
  EXPECT_NE(wide_text.find("makespan: not measured"), std::string::npos) << wide_text;
  EXPECT_EQ(wide_text.find("0.000000"), std::string::npos) << wide_text;
  r.points.front().repetitions.push_back(
      sample_report(Format::Table, false).points[0].repetitions[0]);
  summarize_points(r.points);
  EXPECT_NE(render(wide(r)).find("makespan over 1 of 2 repetitions"), std::string::npos);
  EXPECT_EQ(render(r).rfind("files/s 20000.0 (1 of 2 repetitions: no interval); makespan "
                            "0.005000 s\n",
                            0),
            0u)
      << render(r);
}

// A sweep whose fewest-threads point (the baseline) is unmeasured: no speedups at all.
TEST(Reporters, ASweepWithAnUnmeasuredBaselineHasNoSpeedups) {
  RunReport r = sample_comparison(Format::Markdown);
  r.kind = RunKind::Sweep;
  r.config.compare = false;
  r.comparison.clear();
  r.points.erase(r.points.begin() + 1);  // 1x1 1x2 1x4 2x2 as stand-ins for sweep points
  for (PointReport& p : r.points) p.spec.mode = PointMode::Sweep;
  r.points.front().repetitions = {};
  summarize_points(r.points);
  const std::string text = render(r);
  EXPECT_NE(
      text.find("| sweep | 1x1 | 1 | - | - | - | - | - | - | - | - | - | - | - | not measured |"),
      std::string::npos)
      << text;
  // Its figures, but no speedup, interval or efficiency against the unmeasured baseline.
  EXPECT_NE(
      text.find("| sweep | 1x2 | 2 | 0.004974 | 0.004655-0.005292 | 0.004982 | 0.000241 | 4.8% | "
                "0.004655 | 0.005292 | - | - | - |"),
      std::string::npos)
      << text;
}

TEST(Reporters, PerRankIsHonouredByEveryFormatOfAComparison) {
  const std::string table = render(interrupted_comparison(Format::Table, true));
  EXPECT_NE(table.find("per rank, point 2x2 (hybrid): 6"), std::string::npos) << table;
  EXPECT_NE(table.find("\nrank 1 "), std::string::npos) << table;
  EXPECT_NE(render(wide(interrupted_comparison(Format::Table, true))).find("\nrank 1 "),
            std::string::npos);
  const std::string md = render(interrupted_comparison(Format::Markdown, true));
  EXPECT_NE(md.find("| rank 1 |"), std::string::npos) << md;
  const std::string csv = render(interrupted_comparison(Format::Csv, true));
  EXPECT_NE(csv.find("\nrank,hybrid,2,2,"), std::string::npos) << csv;
  // Without --per-rank none of them has rank rows.
  EXPECT_EQ(render(interrupted_comparison(Format::Table, false)).find("\nrank 1 "),
            std::string::npos);
  EXPECT_EQ(render(interrupted_comparison(Format::Markdown, false)).find("| rank 1 |"),
            std::string::npos);
}

TEST(Reporters, JsonParsesAndCarriesSchemaConfigContextAndRanks) {
  const auto doc = nlohmann::json::parse(render(sample_report(Format::Json, false)));
  EXPECT_EQ(doc.at("schema_version"), kJsonSchemaVersion);
  EXPECT_EQ(doc.at("kind"), "run");
  EXPECT_EQ(doc.at("config").at("files"), 100);
  EXPECT_EQ(doc.at("context").at("hosts").at(0).at("rank_count"), 2);
  const auto& point = doc.at("points").at(0);
  EXPECT_EQ(point.at("repetitions").size(), 2u);
  EXPECT_EQ(point.at("repetitions").at(1).at("per_rank").at(1).at("elapsed_s"), 0.006);
  EXPECT_DOUBLE_EQ(point.at("repetitions").at(1).at("files_per_s").get<double>(), 100 / 0.006);
  EXPECT_EQ(point.at("summary").at("makespan_s").at("median"), 0.0055);
  EXPECT_FALSE(doc.contains("comparison"));
}

// The kinds of value ("number", "list") of every key of the records pandas.json_normalize
// flattens and takes metadata from: the report, its points, their repetitions, those
// repetitions' per-rank and host rows, the hosts of the context and of each summary, and the
// comparison's rows. (Keys inside config or a summary come out prefixed, and never meet them.)
std::map<std::string, std::set<std::string>> record_key_kinds(const nlohmann::json& doc) {
  std::map<std::string, std::set<std::string>> kinds;
  const auto add = [&](const nlohmann::json& record) {
    for (const auto& [key, value] : record.items()) {
      if (value.is_array()) kinds[key].insert("list");
      if (value.is_number()) kinds[key].insert("number");
    }
  };
  add(doc);
  for (const auto& h : doc.at("context").at("hosts")) add(h);
  for (const auto& row : doc.value("comparison", nlohmann::json::array())) add(row);
  for (const auto& p : doc.at("points")) {
    add(p);
    for (const auto& h : p.at("summary").at("hosts")) add(h);
    for (const auto& rep : p.at("repetitions")) {
      add(rep);
      for (const auto& r : rep.at("per_rank")) add(r);
      for (const auto& h : rep.at("hosts")) add(h);
    }
  }
  return kinds;
}

// pandas.json_normalize(points, "repetitions", meta=["ranks", ...]) refuses a meta key that is
// also a record's key; schema 5 keeps `ranks` a count everywhere (issue 24).
TEST(Reporters, JsonHasNoRecordKeyThatIsANumberInOnePlaceAndAListInAnother) {
  for (const RunReport& report :
       {sample_report(Format::Json, true), sample_comparison(Format::Json)}) {
    const auto kinds = record_key_kinds(nlohmann::json::parse(render(report)));
    for (const auto& [key, seen] : kinds) EXPECT_EQ(seen.size(), 1u) << key;
    EXPECT_EQ(kinds.at("ranks"), std::set<std::string>{"number"});
    EXPECT_EQ(kinds.at("per_rank"), std::set<std::string>{"list"});
    EXPECT_EQ(kinds.at("rank_ids"), std::set<std::string>{"list"});
  }
}

TEST(Reporters, CompareJsonHasARowPerConcurrencyWithNullForMissingModes) {
  const auto doc = nlohmann::json::parse(render(sample_comparison(Format::Json)));
  EXPECT_EQ(doc.at("kind"), "compare");
  EXPECT_EQ(doc.at("points").size(), 5u);
  const auto& rows = doc.at("comparison");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows.at(2).at("processes").is_null());
  EXPECT_TRUE(rows.at(1).at("hybrid").is_null());
  EXPECT_EQ(rows.at(2).at("hybrid").at("label"), "2x2");
  EXPECT_EQ(rows.at(2).at("winner"), "hybrid");
  EXPECT_EQ(rows.at(2).at("verdict").at("runner_up"), "threads");
  EXPECT_NEAR(rows.at(2).at("verdict").at("p_value").get<double>(), 2.0 / 924, 1e-12);
  EXPECT_TRUE(rows.at(1).at("winner").is_null());  // 2x1 and 1x2 overlap
  EXPECT_EQ(rows.at(1).at("verdict").at("outcome"), "no significant difference");
}

TEST(Reporters, CsvRowsHaveTheHeaderColumnCount) {
  std::istringstream lines(render(sample_report(Format::Csv, true)));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, kCsvHeader);
  const auto columns = [](const std::string& l) { return std::count(l.begin(), l.end(), ','); };
  const auto expected = columns(line);
  int rows = 0;
  while (std::getline(lines, line)) {
    EXPECT_EQ(columns(line), expected) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 2 + 4 + 5 + 1);  // repetitions, rank rows, summary rows, the removal row
}

// The rows of one kind, split into cells by the header's names (no cell of these has a comma).
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& csv,
                                                         const std::string& kind) {
  std::istringstream lines(csv);
  const auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::istringstream in(line);
    for (std::string c; std::getline(in, c, ',');) cells.push_back(c);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    return cells;
  };
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> names = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(lines, line)) {
    const std::vector<std::string> cells = split(line);
    if (cells.empty() || cells[0] != kind) continue;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < names.size() && i < cells.size(); ++i) row[names[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

// Long form (issue 24): with --phases a `phase` row per point and phase, with --compare a
// `verdict` row per comparison row and phase, decided or not, and the removal's row.
TEST(Reporters, CsvHasPhaseVerdictAndRemovalRows) {
  RunReport r = sample_comparison(Format::Csv);
  r.config.phases = {Phase::Write, Phase::Stat};
  for (PointReport& p : r.points) {
    if (!p.measured()) continue;
    PhaseSummary stat;
    stat.phase = Phase::Stat;
    stat.items = 100;
    stat.makespan.count = 6;
    stat.makespan.median = 0.002;
    stat.items_per_s.at_median = 100 / 0.002;
    p.phases.push_back(stat);
  }
  PhaseVerdict stat_verdict;
  stat_verdict.verdict = *r.comparison.at(2).verdict;
  stat_verdict.winner = "threads";
  r.comparison.at(2).phases.push_back(stat_verdict);
  r.cleanup = {true, 0.25, 600, false, false};
  const std::string csv = render(r);

  const auto phases = csv_rows(csv, "phase");
  ASSERT_EQ(phases.size(), 2 * r.points.size());
  EXPECT_EQ(phases.at(0).at("phase"), "write");
  EXPECT_EQ(phases.at(1).at("phase"), "stat");
  EXPECT_EQ(phases.at(1).at("items"), "100");
  EXPECT_EQ(phases.at(1).at("elapsed_s"), "0.002");
  EXPECT_EQ(phases.at(1).at("items_per_s"), "50000");
  EXPECT_EQ(phases.at(0).at("elapsed_s"), csv_rows(csv, "median").at(0).at("elapsed_s"));

  const auto verdicts = csv_rows(csv, "verdict");
  ASSERT_EQ(verdicts.size(), 2 * r.comparison.size());
  EXPECT_EQ(verdicts.at(4).at("phase"), "write");
  EXPECT_EQ(verdicts.at(4).at("winner"), "hybrid");
  EXPECT_EQ(verdicts.at(4).at("runner_up"), "threads");
  EXPECT_EQ(verdicts.at(5).at("phase"), "stat");
  EXPECT_EQ(verdicts.at(5).at("winner"), "threads");
  EXPECT_EQ(verdicts.at(5).at("concurrency"), verdicts.at(4).at("concurrency"));
  EXPECT_EQ(verdicts.at(3).at("phase"), "stat");  // no stat verdict there: an empty row
  EXPECT_EQ(verdicts.at(3).at("fastest"), "");

  const auto removal = csv_rows(csv, "removal");
  ASSERT_EQ(removal.size(), 1u);
  EXPECT_EQ(removal.at(0).at("removal_files"), "600");
  EXPECT_EQ(removal.at(0).at("removal_s"), "0.25");
  EXPECT_EQ(removal.at(0).at("removal_failed"), "false");
}

// Issue 23: a report cut short names the phase and repetition the signal stopped, in the text
// line, in JSON (`interrupted_in`) and in the CSV's `interrupted` row (`phase`, `repetition`).
TEST(Reporters, AnInterruptedReportNamesThePhaseItCut) {
  RunReport r = interrupted_comparison(Format::Json, false);
  r.interrupted_in = InterruptedIn{"stat", "2x1", false, 2};
  EXPECT_EQ(nlohmann::json::parse(render(r)).at("interrupted_in"),
            (nlohmann::json{{"phase", "stat"}, {"point", "2x1"}, {"repetition", 2},
                            {"warmup", false}}));
  r.config.format = Format::Markdown;
  EXPECT_NE(render(r).find("- INTERRUPTED by SIGTERM in the stat phase of 2x1 rep 2: only the "
                           "repetitions that completed are reported"),
            std::string::npos);
  r.config.format = Format::Csv;
  const auto rows = csv_rows(render(r), "interrupted");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("mode"), "SIGTERM");
  EXPECT_EQ(rows[0].at("phase"), "stat");
  EXPECT_EQ(rows[0].at("repetition"), "2");

  r.interrupted_in = InterruptedIn{"layout", "1x4", true, 1};  // a warm-up's layout directories
  r.config.format = Format::Table;
  EXPECT_NE(render(r).find("INTERRUPTED by SIGTERM while making the layout directories of 1x4 "
                           "warm-up 1: "),
            std::string::npos);
  r.config.format = Format::Csv;
  EXPECT_EQ(csv_rows(render(r), "interrupted").at(0).at("repetition"), "");  // not a timed one

  r.interrupted_in = InterruptedIn{"removal", "", false, 0};
  r.config.format = Format::Json;
  EXPECT_EQ(nlohmann::json::parse(render(r)).at("interrupted_in"),
            (nlohmann::json{{"phase", "removal"}, {"point", nullptr}, {"repetition", nullptr},
                            {"warmup", nullptr}}));
  r.config.format = Format::Markdown;
  EXPECT_NE(render(r).find("INTERRUPTED by SIGTERM during the final removal: every repetition "
                           "completed"),
            std::string::npos);

  r.interrupted_in.reset();  // between two steps: nothing cut
  r.config.format = Format::Json;
  EXPECT_TRUE(nlohmann::json::parse(render(r)).at("interrupted_in").is_null());
  r.config.format = Format::Markdown;
  EXPECT_NE(render(r).find("- INTERRUPTED by SIGTERM: only the repetitions"), std::string::npos);
}

TEST(Reporters, ComparePhasesCsv) {
  expect_golden("compare_phases.csv", render(phases_comparison(Format::Csv)));
}
TEST(Reporters, ComparePhasesPerRankTable) {
  expect_golden("compare_phases_per_rank.txt", render(phases_comparison(Format::Table, true)));
}
TEST(Reporters, ComparePhasesPerRankMarkdown) {
  expect_golden("compare_phases_per_rank.md", render(phases_comparison(Format::Markdown, true)));
}
TEST(Reporters, ComparePhasesPerRankCsv) {
  expect_golden("compare_phases_per_rank.csv", render(phases_comparison(Format::Csv, true)));
}
// --per-rank with --phases: a `rank` row for every rank of every phase of every repetition, in
// the order the phases ran, naming its phase, with that rank's own items, time and start; the
// write phase's with its files in `files` too, as without --phases.
TEST(Reporters, PerRankCsvRowsCoverEveryPhase) {
  const RunReport r = phases_comparison(Format::Csv, true);
  const auto rows = csv_rows(render(r), "rank");
  std::size_t k = 0;
  for (const PointReport& p : r.points) {
    for (const RepetitionFigures& rep : p.repetitions) {
      for (const PhaseFigures& f : rep.all_phases()) {
        const bool write = f.phase == Phase::Write;
        const std::vector<RankFigures>& ranks = write ? rep.ranks : f.ranks;
        ASSERT_EQ(ranks.size(), static_cast<std::size_t>(p.spec.ranks));
        for (const RankFigures& rank : ranks) {
          SCOPED_TRACE(::testing::Message() << p.spec.label() << " rep " << rep.index << " "
                                            << phase_name(f.phase) << " rank " << rank.rank);
          const auto& row = rows.at(k++);
          EXPECT_EQ(row.at("phase"), phase_name(f.phase));
          EXPECT_EQ(row.at("repetition"), fmt::format("{}", rep.index));
          EXPECT_EQ(row.at("rank"), fmt::format("{}", rank.rank));
          EXPECT_EQ(row.at("items"), fmt::format("{}", rank.files));
          EXPECT_EQ(row.at("files"), write ? fmt::format("{}", rank.files) : "");
          EXPECT_EQ(row.at("elapsed_s"), fmt::format("{}", rank.elapsed_s));
          EXPECT_EQ(row.at("start_s"), fmt::format("{}", rank.start_s));
        }
      }
    }
  }
  EXPECT_EQ(k, rows.size());
  // Without --phases beyond write the rank rows stay as they were: no phase, no items.
  for (const auto& row : csv_rows(render(sample_report(Format::Csv, true)), "rank")) {
    EXPECT_EQ(row.at("phase"), "");
    EXPECT_EQ(row.at("items"), "");
  }
}
// Issue 23: the CSV's `phase` rows carry each phase's speedup and efficiency against the
// baseline's same phase, with their intervals, in the median row's columns, as the JSON does.
TEST(Reporters, ComparePhasesCsvGivesEachPhaseItsSpeedup) {
  const RunReport r = phases_comparison(Format::Csv);
  const std::string csv = render(r);
  const auto rows = csv_rows(csv, "phase");
  const auto medians = csv_rows(csv, "median");
  const auto estimate = [](const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; };
  const auto bound = [](const std::optional<Interval>& i, bool low) {
    return i ? fmt::format("{}", low ? i->low : i->high) : "";
  };
  ASSERT_EQ(rows.size(), r.points.size() * r.config.phases.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    for (Phase phase : r.config.phases) {
      const auto& row = rows.at(k++);
      ASSERT_EQ(row.at("phase"), phase_name(phase));
      const PhaseSummary* s = nullptr;
      for (const PhaseSummary& candidate : r.points[i].phases) {
        if (candidate.phase == phase) s = &candidate;
      }
      ASSERT_NE(s, nullptr);
      ASSERT_TRUE(s->speedup) << i << " " << phase_name(phase);
      EXPECT_EQ(row.at("speedup"), estimate(s->speedup)) << i << " " << phase_name(phase);
      EXPECT_EQ(row.at("efficiency"), estimate(s->efficiency));
      EXPECT_EQ(row.at("speedup_ci_low"), bound(s->speedup_ci, true));
      EXPECT_EQ(row.at("speedup_ci_high"), bound(s->speedup_ci, false));
      EXPECT_EQ(row.at("efficiency_ci_low"), bound(s->efficiency_ci, true));
      EXPECT_EQ(row.at("efficiency_ci_high"), bound(s->efficiency_ci, false));
      if (phase == Phase::Write) {  // the write phase's is the point's
        EXPECT_EQ(row.at("speedup"), medians.at(i).at("speedup"));
        EXPECT_EQ(row.at("speedup_ci_low"), medians.at(i).at("speedup_ci_low"));
      }
    }
  }
  // 2x1 made twice the directories in the same time: twice the rate.
  EXPECT_EQ(rows.at(r.config.phases.size()).at("phase"), "tree-create");
  EXPECT_EQ(rows.at(r.config.phases.size()).at("speedup"), "2");
}

// Files/s per point is computed once (summarize_report): the CSV's median row, the JSON's
// summary and the table's and markdown's points grid print the same number.
TEST(Reporters, EveryFormatPrintsTheSameFilesPerSecondOfAPoint) {
  const RunReport compare = sample_comparison(Format::Json);
  const auto doc = nlohmann::json::parse(render(compare));
  std::map<std::string, double> json_rate;  // by label
  for (const auto& point : doc.at("points")) {
    json_rate[point.at("label")] = point.at("summary").at("files_per_s").at("at_median");
  }
  RunReport csv = compare;
  csv.config.format = Format::Csv;
  std::istringstream lines(render(csv));
  std::string line;
  std::size_t median_rows = 0;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.at(0) != "median") continue;
    ++median_rows;
    const double rate = json_rate.at(cells.at(2) + "x" + cells.at(3));
    EXPECT_EQ(cells.at(12), fmt::format("{}", rate)) << line;  // files_per_s
  }
  EXPECT_EQ(median_rows, json_rate.size());
  for (const Format format : {Format::Table, Format::Markdown}) {
    RunReport human = compare;
    human.config.format = format;
    const std::string text = render(human);
    for (const auto& [label, rate] : json_rate) {
      EXPECT_NE(text.find(fmt::format(" {:.1f} ", rate)), std::string::npos) << label;
    }
  }
}

TEST(SetupWarnings, MoreThreadsThanBoundCpusIsSaidOnceInEveryFormat) {
  RunReport r = sample_report(Format::Table, false);
  EXPECT_TRUE(setup_warnings(r.context).empty());
  r.context.threads = 4;
  r.context.cpus_of_rank = {4, 1};
  const auto warnings = setup_warnings(r.context);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("rank 1 may run on 1 CPU(s) for 4 writer threads"), std::string::npos);
  EXPECT_NE(render(r).find("WARNING:   rank 1"), std::string::npos);
  r.config.format = Format::Markdown;
  EXPECT_NE(render(r).find("**warning**: rank 1"), std::string::npos);
  r.config.format = Format::Json;
  EXPECT_EQ(nlohmann::json::parse(render(r)).at("context").at("warnings").size(), 1u);
}

// The advice fits what the launcher did: --bind-to none is not advised when it was given.
TEST(SetupWarnings, TheAdviceFitsWhetherMpirunBoundTheRank) {
  RunContext x = sample_report(Format::Table, false).context;
  x.threads = 4;
  x.cpus_of_rank = {2, 2};
  x.bound_by_launcher = {0, 0};  // mpirun --bind-to none, on a machine or job with 2 CPUs
  auto warnings = setup_warnings(x);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].find("use --bind-to none"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("mpirun did not bind it (--bind-to none)"), std::string::npos);
  EXPECT_NE(warnings[0].find("--threads 2"), std::string::npos) << warnings[0];
  x.bound_by_launcher = {1, 1};
  warnings = setup_warnings(x);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("mpirun bound it; use --bind-to none or --map-by slot:PE=4"),
            std::string::npos)
      << warnings[0];
  x.bound_by_launcher.clear();  // unknown: the general advice
  EXPECT_NE(setup_warnings(x)[0].find("mpirun binds ranks to cores by default"), std::string::npos);
}

TEST(PerHost, SumsFilesAndTakesTheSlowestRankOfEachHost) {
  LatencyHistogram h;
  const RepetitionFigures rep =
      summarize_repetition(1, {{0, 1.0, 10, 100}, {1, 3.0, 20, 200}, {2, 2.0, 30, 300}}, h);
  const auto hosts = per_host(rep, group_ranks_by_host({"a", "b", "a", "b"}));  // rank 3 absent
  ASSERT_EQ(hosts.size(), 2u);
  EXPECT_EQ(hosts[0].host, "a");
  EXPECT_EQ(hosts[0].ranks, (std::vector<int>{0, 2}));
  EXPECT_EQ(hosts[0].files, 40u);
  EXPECT_DOUBLE_EQ(hosts[0].slowest_s, 2.0);
  EXPECT_EQ(hosts[1].ranks, (std::vector<int>{1}));
  EXPECT_DOUBLE_EQ(hosts[1].slowest_s, 3.0);
}

TEST(Reporters, TwoHostsGetPerHostRows) {
  RunReport r = sample_report(Format::Table, false);
  r.context.hosts = group_ranks_by_host({"node1", "node2"});
  summarize_report(r);  // the per-host figures are of the hosts
  expect_golden("table_two_hosts.txt", render(r));
  r.config.format = Format::Json;
  const auto doc = nlohmann::json::parse(render(r));
  EXPECT_EQ(doc.at("points").at(0).at("repetitions").at(1).at("hosts").at(1).at("slowest_rank_s"),
            0.006);
}

// A report whose strings hold bytes that are not UTF-8, a newline, '|' and a terminal escape:
// every reporter writes it, and nothing of it is lost or breaks the format.
RunReport hostile_report(Format format) {
  RunReport r = sample_report(format, false);
  r.config.text = "caf\xe9";  // Latin-1
  r.config.dir = "d\xff\nx";
  r.config.pattern = "w\x80{}.txt";
  r.context.directory = "/data/a\nb|c\x1b[2J\xfe";
  r.context.hosts = group_ranks_by_host({"node|1", "node\n\xff"});
  summarize_report(r);  // the per-host figures are of the hosts
  return r;
}

TEST(HostileStrings, JsonKeepsEveryByteAsSurrogateEscapes) {
  std::string json;
  ASSERT_NO_THROW(json = render(hostile_report(Format::Json)));
  EXPECT_NE(json.find("\"text\": \"caf\\udce9\""), std::string::npos);
  EXPECT_NE(json.find("\"dir\": \"d\\udcff\\nx\""), std::string::npos);
  EXPECT_NE(json.find("\"pattern\": \"w\\udc80{}.txt\""), std::string::npos);
  EXPECT_NE(json.find("\"directory\": \"/data/a\\nb|c\\u001b[2J\\udcfe\""), std::string::npos);
  EXPECT_NE(json.find("\"host\": \"node\\n\\udcff\""), std::string::npos);
  // With the escapes of invalid bytes spelled out, the rest is JSON nlohmann parses.
  std::string plain;
  for (std::size_t at = 0; at < json.size(); ++at) {
    const bool escape = json.compare(at, 4, "\\udc") == 0;
    plain += escape ? '~' : json[at];
    if (escape) ++at;  // its backslash and 'u' became one '~'
  }
  EXPECT_TRUE(nlohmann::json::accept(plain));
}

TEST(HostileStrings, MarkdownKeepsTheBulletAndTheTableShape) {
  const std::string md = render(hostile_report(Format::Markdown));
  EXPECT_NE(md.find("\n- directory: `/data/a\\nb|c\\x1b[2J\\xfe` (ext4)\n"), std::string::npos)
      << md;
  EXPECT_EQ(md.find('\x1b'), std::string::npos);
  EXPECT_EQ(md.find('\xff'), std::string::npos);
  EXPECT_NE(md.find("| node\\|1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| node\\n\\xff |"), std::string::npos) << md;
}

TEST(HostileStrings, TableKeepsEveryLineItsOwn) {
  const std::string table = render(hostile_report(Format::Table));
  EXPECT_NE(table.find("\ndirectory: /data/a\\nb|c\\x1b[2J\\xfe (ext4)\n"), std::string::npos)
      << table;
  EXPECT_EQ(table.find('\x1b'), std::string::npos);
  EXPECT_NE(table.find("node\\n\\xff  "), std::string::npos) << table;
}

TEST(HostileStrings, CsvStillHasTheHeaderColumnCount) {
  std::istringstream lines(render(hostile_report(Format::Csv)));
  std::string line;
  std::getline(lines, line);
  const auto commas = std::count(line.begin(), line.end(), ',');  // the header's: no quoted cell
  EXPECT_EQ(commas, 94);
  while (std::getline(lines, line))
    EXPECT_EQ(std::count(line.begin(), line.end(), ','), commas) << line;
}

TEST(GroupRanksByHost, KeepsFirstRankOrder) {
  const auto hosts = group_ranks_by_host({"b", "a", "b", "a", "c"});
  ASSERT_EQ(hosts.size(), 3u);
  EXPECT_EQ(hosts[0].host, "b");
  EXPECT_EQ(hosts[0].ranks, (std::vector<int>{0, 2}));
  EXPECT_EQ(hosts[1].ranks, (std::vector<int>{1, 3}));
  EXPECT_EQ(hosts[2].ranks, (std::vector<int>{4}));
}

}  // namespace
}  // namespace mpiwrite
