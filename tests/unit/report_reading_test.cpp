// Reading mpiwrite's JSON reports back: the right time per schema_version, and every input
// that cannot be compared refused with one line naming the file.
#include "mpiwrite/compare/report_reading.hpp"

#include <gtest/gtest.h>

#include "compare_fixtures.hpp"
#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

using testing::fixture_json;
using testing::fixture_text;
using testing::fixture_times;

// The message of the UsageError `text` gives, or "" when it is read.
std::string refusal(const std::string& text, const std::string& file = "r.json") {
  try {
    read_report(text, file);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ReportReading, Version4TakesTheMakespan) {
  const ReportInput r = read_report(fixture_text("sweep_old_v4.json"), "old.json");
  const nlohmann::json doc = fixture_json("sweep_old_v4.json");
  EXPECT_EQ(r.about.schema_version, 4);
  EXPECT_EQ(r.about.file, "old.json");
  EXPECT_EQ(r.about.kind, "sweep");
  ASSERT_EQ(r.points.size(), doc["points"].size());
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    EXPECT_EQ(r.points[i].label, doc["points"][i]["label"]);
    EXPECT_EQ(r.points[i].mode, doc["points"][i]["mode"]);
    EXPECT_EQ(r.points[i].times, fixture_times(doc, r.points[i].label, "makespan_s"));
    // Not the slowest rank's own time, which v4 keeps beside it (and which v3 called slowest_s).
    EXPECT_NE(r.points[i].times, fixture_times(doc, r.points[i].label, "slowest_rank_s"));
  }
}

TEST(ReportReading, ARepetitionCutShortByTheTimeLimitIsScaledToTheAskedFiles) {
  nlohmann::json doc = fixture_json("sweep_old_v4.json");
  nlohmann::json& reps = doc["points"][0]["repetitions"];
  ASSERT_GE(reps.size(), 2u);
  const double first = reps[0]["makespan_s"], second = reps[1]["makespan_s"];
  reps[0]["files"] = 25;
  reps[0]["time_limit"] = {{"cut_short", true}, {"files_at_limit", 25}, {"files_asked", 100}};
  reps[1]["time_limit"] = {{"cut_short", false}, {"files_at_limit", 100}, {"files_asked", 100}};
  const ReportInput r = read_report(doc.dump(), "limited.json");
  EXPECT_DOUBLE_EQ(r.points[0].times[0], first * 4);  // 100 asked / 25 written
  EXPECT_EQ(r.points[0].times[1], second);            // not cut: its makespan
}

TEST(ReportReading, Version3TakesTheSlowestRank) {
  const ReportInput r = read_report(fixture_text("run_old_v3.json"), "a");
  const nlohmann::json doc = fixture_json("run_old_v3.json");
  EXPECT_EQ(r.about.schema_version, 3);
  ASSERT_EQ(r.points.size(), 1u);
  EXPECT_EQ(r.points[0].times, fixture_times(doc, "1x1", "slowest_s"));
  EXPECT_EQ(r.about.filesystem, doc["context"]["filesystem"]);
  EXPECT_EQ(r.about.hosts, std::vector<std::string>{"node1"});
  EXPECT_EQ(r.about.mpiwrite_version, doc["context"]["mpiwrite_version"]);
  ASSERT_EQ(r.about.workload.size(), kWorkloadKeys.size());
  for (std::size_t k = 0; k < kWorkloadKeys.size(); ++k) {
    EXPECT_EQ(r.about.workload[k].first, kWorkloadKeys[k]);
    ASSERT_TRUE(r.about.workload[k].second.has_value());
    EXPECT_EQ(*r.about.workload[k].second, doc["config"][kWorkloadKeys[k]]);
  }
}

TEST(ReportReading, AnUnmeasuredPointHasNoTimes) {
  const ReportInput r = read_report(fixture_text("compare_new_v3.json"), "new.json");
  EXPECT_EQ(r.about.interrupted, "SIGINT");
  ASSERT_EQ(r.points.size(), 3u);
  EXPECT_EQ(r.points[1].label, "2x1");
  EXPECT_TRUE(r.points[1].times.empty());
}

TEST(ReportReading, BytesThatAreNotUtf8ComeBack) {
  // mpiwrite writes the byte 0xff as \udcff, which nlohmann-json alone refuses.
  const ReportInput r = read_report(fixture_text("compare_new_v3.json"), "new.json");
  const auto& [key, text] = r.about.workload[2];
  ASSERT_EQ(key, "text");
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->get<std::string>(), "Hi\x1b[2J\xff|x");
}

std::string minimal(const std::string& text_value) {
  return R"({"schema_version": 3, "config": {"text": ")" + text_value +
         R"("}, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": 1}]}]})";
}

std::string text_of(const ReportInput& r) { return r.about.workload[2].second->get<std::string>(); }

TEST(ReportReading, OnlyLoneSurrogatesAreBytes) {
  EXPECT_EQ(text_of(read_report(minimal(R"(a\udc80\udcffb)"), "r")), "a\x80\xff" "b");
  // A real pair whose low half is in DC80..DCFF: U+1F480 as UTF-8.
  EXPECT_EQ(text_of(read_report(minimal(R"(\ud83d\udc80)"), "r")), "\xf0\x9f\x92\x80");
  // An escaped backslash before "udcff" is text, not an escape.
  EXPECT_EQ(text_of(read_report(minimal(R"(\\udcff)"), "r")), "\\udcff");
  EXPECT_EQ(text_of(read_report(minimal(R"(\"\udc9f\u00e9)"), "r")), "\"\x9f\xc3\xa9");
}

TEST(ReportReading, AbsentConfigKeysAreEmpty) {
  const ReportInput r = read_report(minimal("x"), "r");
  for (const auto& [key, value] : r.about.workload) EXPECT_EQ(value.has_value(), key == std::string("text")) << key;
  EXPECT_TRUE(r.about.filesystem.empty());
  EXPECT_TRUE(r.about.hosts.empty());
}

TEST(ReportReading, RefusesWhatCannotBeCompared) {
  const std::string point = R"({"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": 0.1}]})";
  const struct {
    std::string text, expected;
  } cases[] = {
      {"", "not JSON"},
      {"{\"schema_version\": 3,", "not JSON"},
      {"[1, 2]", "not an mpiwrite report (the top level is not an object)"},
      {R"({"points": []})", "no schema_version"},
      {R"({"schema_version": 2, "points": [)" + point + "]}", "schema_version 2 is not supported"},
      {R"({"schema_version": 5, "points": [)" + point + "]}", "schema_version 5 is not supported"},
      {R"({"schema_version": "3", "points": [)" + point + "]}", R"(schema_version "3" is not supported)"},
      {R"({"schema_version": 3})", "points is missing"},
      {R"({"schema_version": 3, "points": {}})", "points is not an array"},
      {R"({"schema_version": 3, "points": []})", "the report has no points"},
      {R"({"schema_version": 3, "points": [7]})", "points[0] is not an object"},
      {R"({"schema_version": 3, "points": [{"label": "1x1", "repetitions": []}]})", "points[0].mode is missing"},
      {R"({"schema_version": 3, "points": [{"mode": 1, "label": "1x1", "repetitions": []}]})",
       "points[0].mode is not a string"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1"}]})", "points[0].repetitions is missing"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"makespan_s": 1}]}]})",
       "points[0].repetitions[0].slowest_s is missing"},
      {R"({"schema_version": 4, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": 1}]}]})",
       "points[0].repetitions[0].makespan_s is missing"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": "1"}]}]})",
       "points[0].repetitions[0].slowest_s is not a number"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": -1}]}]})",
       "points[0].repetitions[0].slowest_s is negative"},
      {R"({"schema_version": 3, "points": [)" + point + "," + point + "]}", "two points are run 1x1"},
  };
  for (const auto& c : cases) {
    const std::string message = refusal(c.text, "dir/r.json");
    EXPECT_EQ(message.rfind("dir/r.json: ", 0), 0u) << c.text << " -> " << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << c.text << " -> " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
  }
}

TEST(ReportReading, MessagesDoNotCarryTheReportsControlCharacters) {
  const std::string message = refusal("{\"schema_version\": 3, \x1b[2J", "a\nb.json");
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("a\\nb.json"), std::string::npos) << message;
}

}  // namespace
}  // namespace mpiwrite
