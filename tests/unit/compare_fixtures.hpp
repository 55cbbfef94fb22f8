#pragma once
// The hand-made reports of tests/fixtures/compare, read as text and as JSON, so a test can
// work out what the comparison must say from the fixture itself instead of from a constant.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace mpiwrite::testing {

inline std::string fixture_path(const std::string& name) {
  return std::string(MPIWRITE_COMPARE_FIXTURES) + "/" + name;
}

inline std::string fixture_text(const std::string& name) {
  std::ifstream in(fixture_path(name), std::ios::binary);
  EXPECT_TRUE(in) << "cannot read fixture " << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fixture without bytes that are not UTF-8 (nlohmann refuses their \udcXX escapes).
inline nlohmann::json fixture_json(const std::string& name) {
  return nlohmann::json::parse(fixture_text(name));
}

// The times of the point `label`, from the field `key` of each repetition.
inline std::vector<double> fixture_times(const nlohmann::json& doc, const std::string& label,
                                         const std::string& key) {
  std::vector<double> times;
  for (const auto& p : doc["points"]) {
    if (p["label"] != label) continue;
    for (const auto& r : p["repetitions"]) times.push_back(r[key].get<double>());
  }
  return times;
}

// The median, worked out here the textbook way: the middle value, or the mean of the two.
inline double textbook_median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace mpiwrite::testing
