// The default table fits a terminal (issue 24): a run's report 100 columns, a sweep's or a
// comparison's 120. Every table golden file is checked (the *_wide.txt ones, --wide, keep
// every column), and reports whose prose would run long.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/reporters.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

// Columns, not bytes: a UTF-8 continuation byte does not take one.
std::size_t columns(const std::string& line) {
  std::size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::pair<std::size_t, std::string> widest(const std::string& text) {
  std::istringstream lines(text);
  std::pair<std::size_t, std::string> w{0, ""};
  for (std::string line; std::getline(lines, line);) {
    if (columns(line) > w.first) w = {columns(line), line};
  }
  return w;
}

TEST(ReportWidth, EveryTableGoldenFitsItsWidth) {
  std::size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(MPIWRITE_GOLDEN_DIR)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".txt" || name.ends_with("_wide.txt")) continue;
    // table*.txt are runs; compare*.txt comparisons.
    const std::size_t limit = name.starts_with("table") ? 100 : 120;
    const auto [width, line] = widest(testing::read_file(entry.path().string()));
    EXPECT_LE(width, limit) << name << ": " << line;
    ++checked;
  }
  EXPECT_GE(checked, 7u);  // table, table_per_rank, table_two_hosts, compare (4 of them)
}

TEST(ReportWidth, ALongWorkloadIsBrokenBetweenClausesNotInsideOne) {
  RunReport r;
  r.config.files = 1'000'000;
  r.config.fsync = true;
  r.config.partition = Partition::Dynamic;
  r.config.chunk = 64;
  r.config.layouts = {Layout::Rank};
  r.config.files_per_dir = 1000;
  r.config.tree_depth = 2;
  r.config.branch = 3;
  r.config.slow_ranks = {1, 2, 3};
  r.config.slow_delay_us = 100000;
  r.context.ranks = 4;
  r.context.threads = 1;
  r.context.hosts = {{"node1", {0, 1, 2, 3}}};
  r.context.directory = "/data/mpiwrite-data";
  r.context.filesystem = "ext4";
  PointReport p(PointSpec{4, 1, PointMode::Run});
  LatencyHistogram h;
  h.record(1000);
  p.repetitions.push_back(summarize_repetition(
      1, {{0, 0.5, 250000, 1}, {1, 0.6, 250000, 1}, {2, 0.5, 250000, 1}, {3, 0.5, 250000, 1}},
      h));
  r.points.push_back(p);
  summarize_report(r);
  std::ostringstream out;
  write_report(r, out);
  const auto [width, line] = widest(out.str());
  EXPECT_LE(width, 100u) << line << "\n" << out.str();
  // A clause stays on one line, so a reader's (or a script's) grep still finds it.
  EXPECT_NE(out.str().find("in the leaves of a tree of depth 2, branch 3 (9 leaves)"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("\n           "), std::string::npos) << "not broken at all";
  EXPECT_EQ(out.str().rfind("files/s ", 0), 0u) << "the headline is not first: " << out.str();
  EXPECT_NE(out.str().find("(1 repetition: no interval)"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace mpiwrite
