// Hostile reports (issue 21 §6): whatever a report holds, mpiwrite-compare either refuses it
// with one line naming the file and the field (UsageError, exit 2), or compares it with no NaN,
// no infinity and no verdict drawn from a figure that is not finite. Never a crash, never an
// exception of another type ("internal error", exit 1). Each class is tested by generating its
// cases from the real fixtures (every leaf, every container), beside the cases the issue named.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "compare_fixtures.hpp"
#include "mpiwrite/compare/compare_format.hpp"
#include "mpiwrite/compare/report_comparison.hpp"
#include "mpiwrite/compare/report_reading.hpp"
#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {
namespace {

using Json = nlohmann::json;
using testing::fixture_text;

// What mpiwrite-compare makes of OLD against NEW: the refusal's message, or every format.
struct Result {
  bool refused = false;
  std::string message;  // the UsageError's
  ReportComparison comparison;
  std::string outputs;  // table, Markdown and JSON, one after the other
};

std::string all_formats(const ReportComparison& c) {
  std::ostringstream out;
  for (CompareFormat f : {CompareFormat::Table, CompareFormat::Markdown, CompareFormat::Json}) {
    write_comparison(c, f, out);
  }
  return out.str();
}

// Anything but a UsageError escapes and fails the test, as it would be "internal error" in main.
Result run(const std::string& old_text, const std::string& new_text) {
  Result r;
  try {
    r.comparison =
        compare_reports(read_report(old_text, "old.json"), read_report(new_text, "new.json"));
  } catch (const UsageError& e) {
    r.refused = true;
    r.message = e.what();
    return r;
  }
  r.outputs = all_formats(r.comparison);
  return r;
}

bool finite(const std::optional<double>& x) { return !x || std::isfinite(*x); }
bool finite(const std::optional<Interval>& i) {
  return !i || (std::isfinite(i->low) && std::isfinite(i->high));
}

// The contract, for one case: a one-line refusal naming the file, or figures that are all
// finite and outputs without nan or inf.
void expect_refused_or_finite(const Result& r, const std::string& what) {
  if (r.refused) {
    EXPECT_EQ(r.message.find('\n'), std::string::npos) << what << ": not one line: " << r.message;
    EXPECT_TRUE(r.message.rfind("old.json: ", 0) == 0 || r.message.rfind("new.json: ", 0) == 0)
        << what << ": " << r.message;
    EXPECT_LT(r.message.size(), 300u) << what << ": " << r.message;
    return;
  }
  for (const PointComparison& p : r.comparison.points) {
    for (const SideFigures* s : {&p.old_side, &p.new_side}) {
      EXPECT_TRUE(finite(s->median_s) && finite(s->median_ci)) << what;
    }
    EXPECT_TRUE(finite(p.ratio) && finite(p.ratio_ci) && finite(p.p_value) &&
                finite(p.prob_new_faster))
        << what;
    // A verdict other than too few / not comparable stands on a ratio and a p-value.
    if (p.verdict != CompareVerdict::NotComparable &&
        p.verdict != CompareVerdict::TooFewRepetitions) {
      EXPECT_TRUE(p.ratio && p.p_value) << what;
    }
  }
  static const std::regex non_finite(R"((^|[^A-Za-z])-?(nan|inf|NaN|Infinity)([^A-Za-z]|$))");
  std::smatch m;
  EXPECT_FALSE(std::regex_search(r.outputs, m, non_finite)) << what << ": prints " << m.str(0);
}

Json fixture(const std::string& name) { return Json::parse(fixture_text(name)); }

// A report's text with the value at `where` replaced by the raw JSON `token` (which may be a
// number nlohmann cannot hold, such as 1e400).
std::string with_token(Json doc, const Json::json_pointer& where, const std::string& token) {
  doc[where] = "@@hostile@@";
  std::string text = doc.dump();
  const std::size_t at = text.find("\"@@hostile@@\"");
  return text.replace(at, 13, token);
}

// Every JSON pointer of `doc` whose value is a leaf (true) or a container (false); of an
// array only the first two items and the last (the others are alike, and each case costs).
void walk(const Json& value, const Json::json_pointer& at,
          const std::function<void(const Json::json_pointer&, bool)>& visit) {
  visit(at, !value.is_structured());
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) walk(child, at / key, visit);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i < 2 || i + 1 == value.size()) walk(value[i], at / i, visit);
    }
  }
}

// Whether two reports read the same (then their comparison is the fixture's, already checked).
bool same(const ReportInput& a, const ReportInput& b) {
  const auto about = [](const ReportAbout& x) {
    std::vector<Json> w;
    for (const WorkloadValue& v : x.workload) w.push_back({v.key, v.value, v.absent});
    return std::tuple(x.schema_version, x.kind, x.mpiwrite_version, x.filesystem, x.hosts,
                      x.interrupted, w);
  };
  if (about(a.about) != about(b.about) || a.points.size() != b.points.size()) return false;
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    const ReportPoint &p = a.points[i], &q = b.points[i];
    if (p.mode != q.mode || p.label != q.label || p.times != q.times ||
        p.without_time != q.without_time)
      return false;
  }
  return true;
}

std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}
std::string nested_objects(std::size_t depth) {
  std::string text;
  for (std::size_t i = 0; i < depth; ++i) text += "{\"a\":";
  return text + "1" + std::string(depth, '}');
}

const char* const kFixtures[] = {"run_old_v3.json", "sweep_new_v4.json"};
// Per fixture, the other report it is compared with.
std::string partner(const std::string& name) {
  return name == "run_old_v3.json" ? "run_new_v3.json" : "sweep_old_v4.json";
}

// --- the cases the issue named, each of which failed before (a crash, "internal error", or a
// figure or verdict from inf/NaN) ---

TEST(HostileReports, FiftyThousandNestedArraysUnderAnUnknownKeyAreRefused) {
  Json doc = fixture("sweep_new_v4.json");
  const std::string text = with_token(doc, Json::json_pointer("/unknown"), nested_arrays(50'000));
  const Result r = run(fixture_text("sweep_old_v4.json"), text);  // was SIGSEGV in restore_strings
  ASSERT_TRUE(r.refused);
  EXPECT_EQ(r.message, "new.json: arrays and objects nested deeper than 64 levels");
}

TEST(HostileReports, FieldsOfTheWrongTypeAreRefusedNamingTheField) {
  Json doc = fixture("sweep_new_v4.json");
  Json& rep = doc["points"][0]["repetitions"][0];
  rep["time_limit"] = {{"cut_short", "yes"}, {"files_at_limit", 10}, {"files_asked", 100}};
  Result r =
      run(fixture_text("sweep_old_v4.json"), doc.dump());  // was "internal error" (type_error)
  ASSERT_TRUE(r.refused);
  EXPECT_EQ(
      r.message,
      R"(new.json: points[0].repetitions[0].time_limit.cut_short: expected true or false, got "yes")");
  rep["time_limit"]["cut_short"] = true;
  rep["files"] = "x";
  r = run(fixture_text("sweep_old_v4.json"), doc.dump());
  ASSERT_TRUE(r.refused);
  EXPECT_EQ(
      r.message,
      R"(new.json: points[0].repetitions[0].files: expected a whole number of 0 or more, at most 2^53, got "x")");
  Json config = fixture("sweep_new_v4.json");
  config["config"]["files"] = "x";  // was only printed as a workload difference
  r = run(fixture_text("sweep_old_v4.json"), config.dump());
  ASSERT_TRUE(r.refused);
  EXPECT_EQ(
      r.message,
      R"(new.json: config.files: expected a whole number of 0 or more, at most 2^53, got "x")");
}

TEST(HostileReports, NumbersBeyondADoubleAreRefused) {
  const Json doc = fixture("sweep_new_v4.json");
  for (const char* token : {"1e400", "-1e400"}) {
    // was "internal error: [json.exception.out_of_range.406] number overflow"
    const Result r =
        run(fixture_text("sweep_old_v4.json"),
            with_token(doc, Json::json_pointer("/points/0/repetitions/0/makespan_s"), token));
    ASSERT_TRUE(r.refused) << token;
    EXPECT_EQ(r.message, fmt::format("new.json: not JSON (number overflow parsing '{}')", token));
  }
  // 1e-400 reads as 0: no time a clock measures.
  const Result tiny =
      run(fixture_text("sweep_old_v4.json"),
          with_token(doc, Json::json_pointer("/points/0/repetitions/0/makespan_s"), "1e-400"));
  ASSERT_TRUE(tiny.refused);
  EXPECT_NE(tiny.message.find("makespan_s: expected seconds between 1e-09 and 1e+09, got 0.0"),
            std::string::npos)
      << tiny.message;
}

// Edits every repetition of the new report's first point.
std::string every_repetition(const std::function<void(Json&)>& edit) {
  Json doc = fixture("sweep_new_v4.json");
  for (Json& rep : doc["points"][0]["repetitions"]) edit(rep);
  return doc.dump();
}

TEST(HostileReports, TimesThatScaleToInfinityAreRefused) {
  // Was "-nan [inf, inf]" and "slower": 1e308 asked files at 1 written scale to infinity.
  const Result r = run(
      fixture_text("sweep_old_v4.json"), every_repetition([](Json& rep) {
        rep["files"] = 1;
        rep["time_limit"] = {{"cut_short", true}, {"files_at_limit", 1}, {"files_asked", 1e308}};
      }));
  ASSERT_TRUE(r.refused);
  EXPECT_NE(r.message.find("time_limit.files_asked: expected a whole number"), std::string::npos)
      << r.message;
  // The largest accepted: 2^53 asked, 1 written, the longest time: finite, and compared.
  const Result largest =
      run(fixture_text("sweep_old_v4.json"), every_repetition([](Json& rep) {
            rep["makespan_s"] = kLongestSeconds;
            rep["files"] = 1;
            rep["time_limit"] = {
                {"cut_short", true}, {"files_at_limit", 1}, {"files_asked", kLargestCount}};
          }));
  ASSERT_FALSE(largest.refused) << largest.message;
  expect_refused_or_finite(largest, "2^53 asked files");
  EXPECT_EQ(largest.comparison.points.front().verdict, CompareVerdict::Slower);
}

TEST(HostileReports, HugeAndZeroMakespansAreRefused) {
  for (double value : {1e308, 0.0, 5e-324, 1e-10, 1e9 * 1.0001}) {
    // 1e308 was "inf [-nan, -nan]"; all zeros were "faster".
    const Result r = run(fixture_text("sweep_old_v4.json"),
                         every_repetition([&](Json& rep) { rep["makespan_s"] = value; }));
    ASSERT_TRUE(r.refused) << value;
    EXPECT_NE(r.message.find(
                  "points[0].repetitions[0].makespan_s: expected seconds between 1e-09 and 1e+09"),
              std::string::npos)
        << r.message;
  }
}

TEST(HostileReports, FractionalAndNegativeFileCountsAreRefused) {
  for (const Json& files : {Json(2.5), Json(-3), Json(1e300), Json(true), Json::array()}) {
    // 2.5 written of 100 asked was "slower".
    const Result r = run(
        fixture_text("sweep_old_v4.json"), every_repetition([&](Json& rep) {
          rep["files"] = files;
          rep["time_limit"] = {{"cut_short", true}, {"files_at_limit", 2}, {"files_asked", 100}};
        }));
    ASSERT_TRUE(r.refused) << files;
    EXPECT_NE(r.message.find("points[0].repetitions[0].files: expected a whole number"),
              std::string::npos)
        << r.message;
  }
}

TEST(HostileReports, ARepetitionCutShortBeforeItsFirstFileGivesNoVerdict) {
  Json doc = fixture("sweep_new_v4.json");
  Json& rep = doc["points"][0]["repetitions"][0];
  rep["files"] = 0;
  rep["time_limit"] = {{"cut_short", true}, {"files_at_limit", 0}, {"files_asked", 100}};
  const Result r = run(fixture_text("sweep_old_v4.json"), doc.dump());
  ASSERT_FALSE(r.refused) << r.message;
  expect_refused_or_finite(r, "cut short at 0 files");
  const PointComparison& p = r.comparison.points.front();
  EXPECT_EQ(p.verdict, CompareVerdict::NotComparable);
  EXPECT_EQ(p.not_comparable,
            "new has 1 repetition cut short by --time-limit before the first file, whose time for "
            "all files is unknown");
  EXPECT_NE(r.outputs.find("not compared: new has 1 repetition"), std::string::npos) << r.outputs;
}

// --- the classes, generated ---

// Every leaf of each fixture replaced by a value of another type or beyond its range, in the
// JSON nlohmann writes and as raw tokens it cannot hold.
TEST(HostileReports, EveryLeafReplacedByAHostileValue) {
  const std::vector<std::string> tokens = {R"("x")",
                                           "[]",
                                           "{}",
                                           "null",
                                           "true",
                                           "-1",
                                           "0",
                                           "2.5",
                                           "1e308",
                                           "-1e308",
                                           "1e-400",
                                           "1e400",
                                           "-1e400",
                                           "18446744073709551616",
                                           std::string(5000, '7'),
                                           "[[[[1]]]]",
                                           R"("\udcff")"};
  std::size_t cases = 0, refused = 0, compared = 0;
  for (const std::string name : kFixtures) {
    const Json doc = fixture(name);
    const std::string other = fixture_text(partner(name));
    const ReportInput baseline = read_report(fixture_text(name), "new.json");
    walk(doc, Json::json_pointer(), [&](const Json::json_pointer& where, bool leaf) {
      if (!leaf) return;
      for (const std::string& token : tokens) {
        const std::string what = name + " " + where.to_string() + " = " + token.substr(0, 30);
        const std::string text = with_token(doc, where, token);
        ++cases;
        // Read first: only a document read differently from the fixture is compared (the
        // bootstrap of every case would take minutes).
        Result r;
        try {
          if (same(read_report(text, "new.json"), baseline)) continue;
          r = run(other, text);
          ++compared;
        } catch (const UsageError& e) {
          r.refused = true;
          r.message = e.what();
        }
        refused += r.refused;
        expect_refused_or_finite(r, what);
        if (::testing::Test::HasFailure()) return;
      }
    });
  }
  std::cout << cases << " cases: " << refused << " refused, " << compared << " compared again\n";
  EXPECT_GT(refused, 100u);
}

// At every level of each fixture, deep nesting: an unknown key of each object, an item
// appended to each array, or the value itself replaced, by arrays or objects 50,000 deep.
TEST(HostileReports, DeepNestingAnywhereIsRefused) {
  std::size_t cases = 0;
  for (const std::string name : kFixtures) {
    const Json doc = fixture(name);
    walk(doc, Json::json_pointer(), [&](const Json::json_pointer& where, bool) {
      // 5,000 levels: 50,000 are the named case above; the refusal comes at level 65 either way.
      for (const std::string& deep : {nested_arrays(5'000), nested_objects(5'000)}) {
        std::vector<std::string> texts = {with_token(doc, where, deep)};
        const Json& value = doc[where];
        if (value.is_object()) texts.push_back(with_token(doc, where / "zz_unknown", deep));
        if (value.is_array()) texts.push_back(with_token(doc, where / value.size(), deep));
        for (const std::string& text : texts) {
          ++cases;
          try {
            read_report(text, "new.json");
            ADD_FAILURE() << name << " " << where.to_string() << ": read";
          } catch (const UsageError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "new.json: arrays and objects nested deeper than 64 levels");
          }
        }
      }
      if (::testing::Test::HasFailure()) return;
    });
  }
  // 64 levels are read: a report's own 7 never come near.
  std::string at_limit =
      with_token(fixture("run_old_v3.json"), Json::json_pointer("/zz"), nested_arrays(63));
  EXPECT_NO_THROW(read_report(at_limit, "new.json"));
  std::cout << cases << " deeply nested documents refused\n";
}

// Series that give no figure: a point with no repetition in either report, or in both.
TEST(HostileReports, EmptySeriesGiveNoFigures) {
  Json doc = fixture("sweep_new_v4.json");
  doc["points"][0]["repetitions"] = Json::array();
  Json old_doc = fixture("sweep_old_v4.json");
  old_doc["points"][1]["repetitions"] = Json::array();
  for (const auto& [old_text, new_text] :
       {std::pair{old_doc.dump(), doc.dump()}, std::pair{doc.dump(), doc.dump()}}) {
    const Result r = run(old_text, new_text);
    ASSERT_FALSE(r.refused) << r.message;
    expect_refused_or_finite(r, "empty series");
  }
}

}  // namespace
}  // namespace mpiwrite
