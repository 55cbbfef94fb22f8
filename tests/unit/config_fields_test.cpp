// The one list of RunConfig's fields (core/config_fields.hpp) against the places that must
// carry every field: the command line, the MPI serialization and the JSON report's config. A
// field added to RunConfig fails to compile until it is listed (a static_assert on the
// aggregate's field count); a listed field that one of these places misses fails here.
#include "mpiwrite/core/config_fields.hpp"

#include <gtest/gtest.h>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/archive/text_iarchive.hpp>
#include <boost/archive/text_oarchive.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/mpi/config_serialization.hpp"
#include "mpiwrite/report/reporters.hpp"

namespace mpiwrite {
namespace {

using Json = nlohmann::json;

const RunConfig kDefaults{};

// Every field by name, as the JSON report spells it (enums by name).
std::map<std::string, Json> fields_of(const RunConfig& c) {
  std::map<std::string, Json> fields;
  visit_config_fields(c, [&](const ConfigField& field, const auto& value) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, std::optional<std::uint64_t>>) {
      fields[std::string(field.name)] = value ? Json(*value) : Json();
    } else if constexpr (std::is_enum_v<T>) {
      fields[std::string(field.name)] = std::string(to_string(value));
    } else if constexpr (std::is_same_v<T, std::vector<Layout>> ||
                         std::is_same_v<T, std::vector<Phase>>) {
      Json names = Json::array();
      for (auto item : value) names.push_back(std::string(to_string(item)));
      fields[std::string(field.name)] = names;
    } else {
      fields[std::string(field.name)] = value;
    }
  });
  return fields;
}

// Every field away from its default, through the list itself: a place that drops a field
// shows it as its default.
RunConfig changed_everywhere() {
  RunConfig c;
  visit_config_fields(c, [](const ConfigField&, auto& value) {
    using T = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<T, std::optional<std::uint64_t>>) {
      value = 0;  // given, and 0: a seed of its own
    } else if constexpr (std::is_same_v<T, bool>) {
      value = !value;
    } else if constexpr (std::is_enum_v<T>) {
      value = static_cast<T>(static_cast<int>(value) + 1);  // every default is the first
    } else if constexpr (std::is_arithmetic_v<T>) {
      value = static_cast<T>(value + 7);
    } else if constexpr (std::is_same_v<T, std::string>) {
      value += "-changed";
    } else if constexpr (std::is_same_v<T, std::vector<Layout>>) {
      value.push_back(Layout::Thread);  // a list of enums, by name
    } else if constexpr (std::is_same_v<T, std::vector<Phase>>) {
      value.push_back(Phase::Stat);
    } else {
      value.push_back(3);  // a list
    }
  });
  return c;
}

TEST(ConfigFields, ListsEveryFieldOnceByItsName) {
  std::set<std::string> names;
  std::size_t visits = 0;
  visit_config_fields(kDefaults, [&](const ConfigField& field, const auto&) {
    ++visits;
    names.emplace(field.name);
  });
  EXPECT_EQ(visits, kConfigFieldCount);  // the count the static_assert holds RunConfig to
  EXPECT_EQ(names.size(), visits) << "a name is listed twice";
}

TEST(ConfigFields, TheChangedConfigDiffersInEveryField) {
  const auto changed = fields_of(changed_everywhere());
  const auto defaults = fields_of(kDefaults);
  for (const auto& [name, value] : defaults) EXPECT_NE(changed.at(name), value) << name;
}

template <class Out, class In>
RunConfig round_trip(const RunConfig& sent) {
  std::stringstream wire;
  {
    Out out(wire);
    out << sent;
  }
  RunConfig received;
  In in(wire);
  in >> received;
  return received;
}

TEST(ConfigFields, TheMpiSerializationCarriesEveryField) {
  const RunConfig sent = changed_everywhere();
  const auto expected = fields_of(sent);
  const auto text =
      fields_of(round_trip<boost::archive::text_oarchive, boost::archive::text_iarchive>(sent));
  const auto binary =
      fields_of(round_trip<boost::archive::binary_oarchive, boost::archive::binary_iarchive>(sent));
  for (const auto& [name, value] : expected) {
    EXPECT_EQ(text.at(name), value) << name << " (text archive)";
    EXPECT_EQ(binary.at(name), value) << name << " (binary archive)";
  }
}

TEST(ConfigFields, TheJsonReportEchoesEveryFieldButTheTwoItLeavesOut) {
  RunReport report;
  report.config = changed_everywhere();
  std::ostringstream out;
  write_json(report, out);
  const Json config = Json::parse(out.str()).at("config");
  const auto expected = fields_of(report.config);
  std::set<std::string> keys{"file_size_bytes", "write_size_bytes"};  // derived, not fields
  visit_config_fields(report.config, [&](const ConfigField& field, const auto&) {
    const std::string name(field.name);
    if (!field.in_report) {
      EXPECT_FALSE(config.contains(name)) << name << " is documented as left out";
      return;
    }
    keys.insert(name);
    ASSERT_TRUE(config.contains(name)) << name;
    EXPECT_EQ(config.at(name), expected.at(name)) << name;
  });
  for (const auto& [key, value] : config.items())
    EXPECT_TRUE(keys.count(key)) << key << " is no field";
}

CliOutcome parse(std::vector<std::string> words) {
  words.insert(words.begin(), "mpiwrite");
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

// For every field, options that set it and the value it then has. A field added to the list
// without an entry here (and an option in core/cli.cpp) fails the test below.
struct OptionCase {
  std::vector<std::string> words;
  Json value;
};
const std::map<std::string, OptionCase>& option_cases() {
  static const std::map<std::string, OptionCase> cases{
      {"files", {{"--files", "7"}, 7}},
      {"lines", {{"-l", "3"}, 3}},
      {"files_per_rank", {{"--files-per-rank", "5"}, 5}},
      {"file_size", {{"--file-size", "4k"}, 4096}},
      {"write_size", {{"--file-size", "4k", "--write-size", "1000"}, 1000}},
      {"text", {{"--text", "hi"}, "hi"}},
      {"dir", {{"-d", "elsewhere"}, "elsewhere"}},
      {"pattern", {{"--pattern", "f{}.dat"}, "f{}.dat"}},
      {"threads", {{"-t", "3"}, 3}},
      {"partition", {{"--partition", "cyclic"}, "cyclic"}},
      {"write_mode", {{"--write-mode", "whole"}, "whole"}},
      {"engine", {{"--engine", "null"}, "null"}},
      {"queue_depth", {{"--engine", "uring", "-q", "5"}, 5}},
      {"fsync", {{"--fsync"}, true}},
      {"repetitions", {{"-r", "4"}, 4}},
      {"warmup", {{"--warmup", "2"}, 2}},
      {"auto_repetitions", {{"-r", "auto"}, true}},
      {"precision", {{"-r", "auto", "--precision", "5%"}, 0.05}},
      {"min_repetitions", {{"-r", "auto", "--min-repetitions", "8"}, 8}},
      {"max_repetitions", {{"-r", "auto", "--max-repetitions", "50"}, 50}},
      {"max_time_s", {{"-r", "auto", "--max-time", "2.5"}, 2.5}},
      {"equivalence", {{"--compare", "--equivalence", "0.05"}, 0.05}},
      {"overwrite", {{"--overwrite"}, true}},
      {"cleanup", {{"--cleanup"}, true}},
      {"format", {{"--format", "json"}, "json"}},
      {"output", {{"-o", "out.txt"}, "out.txt"}},
      {"json_output", {{"--json", "out.json"}, "out.json"}},
      {"csv_output", {{"--csv", "out.csv"}, "out.csv"}},
      {"markdown_output", {{"--markdown", "out.md"}, "out.md"}},
      {"per_rank", {{"--per-rank"}, true}},
      {"wide", {{"--wide"}, true}},
      {"dry_run", {{"--dry-run"}, true}},
      {"sweep_threads", {{"--sweep-threads", "1,2"}, {1, 2}}},
      {"compare", {{"--compare"}, true}},
      {"max_concurrency", {{"--compare", "--max-concurrency", "6"}, 6}},
      {"seed", {{"--compare", "--seed", "0"}, 0}},
      {"chunk", {{"--partition", "dynamic", "--chunk", "5"}, 5}},
      {"slow_ranks", {{"--slow-rank", "0,2"}, {0, 2}}},
      {"slow_delay_us", {{"--slow-rank", "0", "--slow-delay-us", "12"}, 12}},
      {"verify", {{"--verify"}, true}},
      {"timeout_s", {{"--timeout", "30"}, 30}},
      {"time_limit_s", {{"--time-limit", "2.5"}, 2.5}},
      {"wear_out", {{"--time-limit", "1", "--wear-out"}, true}},
      {"layouts", {{"--layout", "rank,thread", "--compare", "--dry-run"}, Json{"rank", "thread"}}},
      {"files_per_dir", {{"--files-per-dir", "9", "--dry-run"}, 9}},
      {"tree_depth", {{"--tree-depth", "2", "--dry-run"}, 2}},
      {"branch", {{"--tree-depth", "1", "--branch", "3", "--dry-run"}, 3}},
      {"phases", {{"--phases", "stat,write"}, Json{"write", "stat"}}},
      {"shift", {{"--phases", "write,read", "--shift", "0"}, 0}},
      {"random_order", {{"--phases", "write,remove", "--random-order"}, true}},
      {"progress_s", {{"--progress=0.5"}, 0.5}},
      {"progress_style", {{"--progress-style", "lines"}, "lines"}},
  };
  return cases;
}

TEST(ConfigFields, AnOptionSetsEveryField) {
  visit_config_fields(kDefaults, [&](const ConfigField& field, const auto&) {
    const std::string name(field.name);
    const auto found = option_cases().find(name);
    ASSERT_NE(found, option_cases().end()) << name << " has no command-line case here";
    const CliOutcome parsed = parse(found->second.words);
    ASSERT_TRUE(parsed.run) << name << ": " << parsed.message;
    EXPECT_EQ(fields_of(parsed.config).at(name), found->second.value) << name;
    EXPECT_NE(fields_of(kDefaults).at(name), found->second.value)
        << name << ": pick a non-default value";
  });
  EXPECT_EQ(option_cases().size(), kConfigFieldCount) << "a case for a field that is not listed";
}

}  // namespace
}  // namespace mpiwrite
