// Reading mpiwrite's JSON reports back: the right time per schema_version, and every input
// that cannot be compared refused with one line naming the file.
#include "mpiwrite/compare/report_reading.hpp"
#include "mpiwrite/compare/report_comparison.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "compare_fixtures.hpp"
#include "mpiwrite/core/config_fields.hpp"
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

// sweep_new_v5.json: a real -np 4 --sweep-threads 1,2 -r 6 run of schema 5 (issue 24: the lists
// once called `ranks` are `per_rank` and `rank_ids`), which times the makespan as version 4 does,
// so an old report compares with it.
TEST(ReportReading, Version5TakesTheMakespanAndComparesWithVersion4) {
  const nlohmann::json doc = fixture_json("sweep_new_v5.json");
  ASSERT_EQ(doc["schema_version"], 5);
  ASSERT_TRUE(doc["points"][0]["repetitions"][0].contains("per_rank"));
  ASSERT_TRUE(doc["context"]["hosts"][0].contains("rank_ids"));
  const ReportInput r = read_report(fixture_text("sweep_new_v5.json"), "new.json");
  EXPECT_EQ(r.about.schema_version, 5);
  EXPECT_EQ(r.about.hosts.size(), doc["context"]["hosts"].size());
  ASSERT_EQ(r.points.size(), doc["points"].size());
  for (const ReportPoint& p : r.points) {
    EXPECT_EQ(p.times, fixture_times(doc, p.label, "makespan_s")) << p.label;
  }
  const ReportComparison c =
      compare_reports(read_report(fixture_text("sweep_old_v4.json"), "old.json"), r);
  EXPECT_EQ(c.points.size(), 2u);  // 4x1 and 4x2; the old 4x4 and 4x8 are unmatched
  EXPECT_EQ(c.unmatched.size(), 2u);
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

// sweep_phases_v4.json: a real --sweep-threads 1,2 -r 6 --phases write,stat,remove run.
TEST(ReportReading, AnotherPhaseTakesItsOwnMakespans) {
  const nlohmann::json doc = fixture_json("sweep_phases_v4.json");
  const ReportInput write = read_report(fixture_text("sweep_phases_v4.json"), "p.json");
  const ReportInput stat = read_report(fixture_text("sweep_phases_v4.json"), "p.json", "stat");
  EXPECT_EQ(write.about.phase, "write");
  EXPECT_EQ(stat.about.phase, "stat");
  ASSERT_EQ(stat.points.size(), doc["points"].size());
  for (std::size_t i = 0; i < stat.points.size(); ++i) {
    std::vector<double> want;
    for (const auto& rep : doc["points"][i]["repetitions"]) {
      want.push_back(rep["phases"]["stat"]["makespan_s"].get<double>());
    }
    EXPECT_EQ(stat.points[i].times, want);
    EXPECT_EQ(write.points[i].times, fixture_times(doc, write.points[i].label, "makespan_s"));
    EXPECT_NE(stat.points[i].times, write.points[i].times);
  }
}

TEST(ReportReading, AFilePhaseOfARepetitionCutShortIsScaledToTheAskedFiles) {
  nlohmann::json doc = fixture_json("sweep_phases_v4.json");
  nlohmann::json& rep = doc["points"][0]["repetitions"][0];
  const double stat = rep["phases"]["stat"]["makespan_s"];
  rep["phases"]["stat"]["files"] = 10;
  rep["time_limit"] = {{"cut_short", true}, {"files_at_limit", 10}, {"files_asked", 40}};
  EXPECT_DOUBLE_EQ(read_report(doc.dump(), "l.json", "stat").points[0].times[0], stat * 4);
}

TEST(ReportReading, AReportWithoutThePhaseIsRefusedNamingWhatItTimed) {
  const auto refused = [](const std::string& file, const std::string& phase) {
    try {
      read_report(fixture_text(file), file, phase);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refused("sweep_old_v4.json", "stat"),
            "sweep_old_v4.json: the report has no stat phase (it timed: write; mpiwrite "
            "--phases)");
  EXPECT_EQ(refused("run_old_v3.json", "remove"),
            "run_old_v3.json: the report has no remove phase (it timed: write; mpiwrite "
            "--phases)");
  EXPECT_EQ(refused("sweep_phases_v4.json", "read"),
            "sweep_phases_v4.json: the report has no read phase (it timed: write, stat, remove; "
            "mpiwrite --phases)");
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
    const WorkloadValue& w = r.about.workload[k];
    EXPECT_EQ(w.key, kWorkloadKeys[k].name);
    // This v3 report predates time_limit_s, wear_out, layouts and files_per_dir.
    EXPECT_EQ(w.absent, !doc["config"].contains(w.key)) << w.key;
    EXPECT_EQ(w.value,
              w.absent ? nlohmann::json::parse(kWorkloadKeys[k].fallback) : doc["config"][w.key]);
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
  const WorkloadValue& text = r.about.workload[2];
  ASSERT_EQ(text.key, "text");
  ASSERT_FALSE(text.absent);
  EXPECT_EQ(text.value.get<std::string>(), "Hi\x1b[2J\xff|x");
}

std::string minimal(const std::string& text_value) {
  return R"({"schema_version": 3, "config": {"text": ")" + text_value +
         R"("}, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": 1}]}]})";
}

std::string text_of(const ReportInput& r) { return r.about.workload[2].value.get<std::string>(); }

TEST(ReportReading, OnlyLoneSurrogatesAreBytes) {
  EXPECT_EQ(text_of(read_report(minimal(R"(a\udc80\udcffb)"), "r")),
            "a\x80\xff"
            "b");
  // A real pair whose low half is in DC80..DCFF: U+1F480 as UTF-8.
  EXPECT_EQ(text_of(read_report(minimal(R"(\ud83d\udc80)"), "r")), "\xf0\x9f\x92\x80");
  // An escaped backslash before "udcff" is text, not an escape.
  EXPECT_EQ(text_of(read_report(minimal(R"(\\udcff)"), "r")), "\\udcff");
  EXPECT_EQ(text_of(read_report(minimal(R"(\"\udc9f\u00e9)"), "r")), "\"\x9f\xc3\xa9");
}

// A report without a key ran with its default: an old report against a new one differs only
// where the new one chose another value (a missing time_limit_s is no limit).
TEST(ReportReading, AbsentConfigKeysAreTheirDefaults) {
  const ReportInput r = read_report(minimal("x"), "r");
  ASSERT_EQ(r.about.workload.size(), kWorkloadKeys.size());
  for (std::size_t k = 0; k < kWorkloadKeys.size(); ++k) {
    const WorkloadValue& w = r.about.workload[k];
    EXPECT_EQ(w.absent, w.key != "text") << w.key;
    if (w.absent) {
      EXPECT_EQ(w.value, nlohmann::json::parse(kWorkloadKeys[k].fallback)) << w.key;
    }
  }
  EXPECT_TRUE(r.about.filesystem.empty());
  EXPECT_TRUE(r.about.hosts.empty());
}

TEST(ReportReading, RefusesWhatCannotBeCompared) {
  const std::string point =
      R"({"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": 0.1}]})";
  const struct {
    std::string text, expected;
  } cases[] = {
      {"", "not JSON"},
      {"{\"schema_version\": 3,", "not JSON"},
      {"[1, 2]", "not an mpiwrite report (the top level is not an object)"},
      {R"({"points": []})", "no schema_version"},
      {R"({"schema_version": 2, "points": [)" + point + "]}", "schema_version 2 is not supported"},
      {R"({"schema_version": 6, "points": [)" + point + "]}", "schema_version 6 is not supported"},
      {R"({"schema_version": "3", "points": [)" + point + "]}",
       R"(schema_version "3" is not supported)"},
      {R"({"schema_version": 3})", "points is missing"},
      {R"({"schema_version": 3, "points": {}})", "points: expected an array, got {}"},
      {R"({"schema_version": 3, "points": []})", "the report has no points"},
      {R"({"schema_version": 3, "points": [7]})", "points[0]: expected an object, got 7"},
      {R"({"schema_version": 3, "points": [{"label": "1x1", "repetitions": []}]})",
       "points[0].mode is missing"},
      {R"({"schema_version": 3, "points": [{"mode": 1, "label": "1x1", "repetitions": []}]})",
       "points[0].mode: expected a string, got 1"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1"}]})",
       "points[0].repetitions is missing"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"makespan_s": 1}]}]})",
       "points[0].repetitions[0].slowest_s is missing"},
      {R"({"schema_version": 4, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": 1}]}]})",
       "points[0].repetitions[0].makespan_s is missing"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": "1"}]}]})",
       R"(points[0].repetitions[0].slowest_s: expected seconds between 1e-09 and 1e+09, got "1")"},
      {R"({"schema_version": 3, "points": [{"mode": "run", "label": "1x1", "repetitions": [{"slowest_s": -1}]}]})",
       "points[0].repetitions[0].slowest_s: expected seconds between 1e-09 and 1e+09, got -1"},
      {R"({"schema_version": 3, "points": [)" + point + "," + point + "]}",
       "two points are run 1x1"},
  };
  for (const auto& c : cases) {
    const std::string message = refusal(c.text, "dir/r.json");
    EXPECT_EQ(message.rfind("dir/r.json: ", 0), 0u) << c.text << " -> " << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << c.text << " -> " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
  }
}

// Every config key a report holds is either a workload key or named as not one, so a new
// option must be classified before it can slip past the comparison (issue 21 §6: overwrite,
// files_per_dir, time_limit_s, wear_out and slow_ranks were not compared).
TEST(ReportReading, EveryConfigKeyOfAReportIsClassified) {
  std::set<std::string> classified;
  for (const WorkloadKey& key : kWorkloadKeys)
    EXPECT_TRUE(classified.insert(key.name).second) << key.name;
  for (const char* key : kNotWorkloadKeys) EXPECT_TRUE(classified.insert(key).second) << key;
  std::set<std::string> in_report = {"file_size_bytes", "write_size_bytes"};
  const RunConfig defaults;
  visit_config_fields(defaults, [&](const ConfigField& field, const auto&) {
    if (field.in_report) in_report.insert(std::string(field.name));
  });
  EXPECT_EQ(classified, in_report);
  for (const char* key : {"overwrite", "files_per_dir", "time_limit_s", "wear_out", "slow_ranks",
                          "slow_delay_us", "layouts", "queue_depth", "chunk"}) {
    EXPECT_TRUE(std::any_of(kWorkloadKeys.begin(), kWorkloadKeys.end(), [&](const WorkloadKey& k) {
      return k.name == std::string(key);
    })) << key;
  }
}

// The fallback of each workload key is mpiwrite's default: what a report without the key ran
// with. Checked against a report of the default configuration.
TEST(ReportReading, EachFallbackIsTheDefault) {
  const nlohmann::json doc = fixture_json("sweep_new_v4.json");
  const RunConfig defaults;
  const std::map<std::string, nlohmann::json> expected = {
      {"files", defaults.files},
      {"lines", defaults.lines},
      {"file_size", nullptr},
      {"write_size", nullptr},
      {"text", defaults.text},
      {"pattern", defaults.pattern},
      {"partition", to_string(defaults.partition)},
      {"write_mode", to_string(defaults.write_mode)},
      {"engine", to_string(defaults.engine)},
      {"queue_depth", defaults.queue_depth},
      {"fsync", defaults.fsync},
      {"overwrite", defaults.overwrite},
      {"chunk", defaults.chunk},
      {"slow_ranks", defaults.slow_ranks},
      {"slow_delay_us", defaults.slow_delay_us},
      {"time_limit_s", defaults.time_limit_s},
      {"wear_out", defaults.wear_out},
      {"layouts", nlohmann::json::array({to_string(defaults.layouts.front())})},
      {"files_per_dir", defaults.files_per_dir},
      {"tree_depth", defaults.tree_depth},
      {"branch", defaults.branch},
      {"shift", defaults.shift},
      {"random_order", defaults.random_order}};
  ASSERT_EQ(defaults.layouts.size(), 1u);
  for (const WorkloadKey& key : kWorkloadKeys) {
    ASSERT_TRUE(expected.count(key.name)) << key.name;
    EXPECT_EQ(nlohmann::json::parse(key.fallback), expected.at(key.name)) << key.name;
  }
}

// The keys the issue named, one at a time, as an old report (without the newer keys) against
// a new one that set each; and an old report against a new one of the defaults: no difference.
TEST(ReportReading, EachWorkloadKeyThatDiffersIsFlagged) {
  const std::map<std::string, nlohmann::json> changed = {
      {"overwrite", true}, {"files_per_dir", 10}, {"time_limit_s", 2.5}, {"wear_out", true},
      {"slow_ranks", {1}}, {"slow_delay_us", 5},  {"pattern", "f{}"},    {"queue_depth", 8},
      {"chunk", 64},       {"layouts", {"rank"}}, {"engine", "uring"},   {"partition", "dynamic"},
      {"file_size", 4096}, {"write_size", 1000}};
  nlohmann::json old_doc = fixture_json("run_old_v3.json");
  for (const char* newer : {"time_limit_s", "wear_out", "layouts", "files_per_dir"})
    old_doc["config"].erase(newer);
  const ReportInput old_report = read_report(old_doc.dump(), "old.json");
  nlohmann::json new_doc = fixture_json("run_new_v3.json");
  for (const WorkloadKey& key : kWorkloadKeys)
    new_doc["config"][key.name] = nlohmann::json::parse(key.fallback);
  new_doc["config"]["files"] = old_doc["config"]["files"];
  new_doc["config"]["lines"] = old_doc["config"]["lines"];
  new_doc["config"]["text"] = old_doc["config"]["text"];
  EXPECT_TRUE(compare_reports(old_report, read_report(new_doc.dump(), "new.json"))
                  .workload_differences.empty());
  for (const auto& [key, value] : changed) {
    nlohmann::json edited = new_doc;
    edited["config"][key] = value;
    const ReportComparison c = compare_reports(old_report, read_report(edited.dump(), "new.json"));
    ASSERT_EQ(c.workload_differences.size(), 1u) << key;
    EXPECT_EQ(c.workload_differences[0].key, key);
    EXPECT_EQ(c.workload_differences[0].new_value.value, value);
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
