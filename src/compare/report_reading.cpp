#include "mpiwrite/compare/report_reading.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {

namespace {

using Json = nlohmann::json;

// mpiwrite writes each byte B of a string that is not UTF-8 as the lone surrogate escape
// \udcXX (U+DC00 + B, docs/metrics.md "Strings in the reports"); nlohmann-json refuses a lone
// surrogate. So before parsing, each lone \udc80..\udcff becomes the escaped pair of U+10FF00
// + B (the last 128 code points of plane 16, private use), which restore_bytes() turns back
// into the byte B. A real U+10FF80..U+10FFFF in a report would read as that byte too; no
// report of mpiwrite's holds one in a field this tool reads.
constexpr unsigned kByteBase = 0x10FF00;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of the 4 hex digits at text[at], or -1.
long hex4(std::string_view text, std::size_t at) {
  if (at + 4 > text.size()) return -1;
  long value = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const int digit = hex_digit(text[at + k]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

std::string with_lone_surrogates_as_pairs(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false, after_high = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (!in_string || c != '\\' || at + 1 >= text.size()) {
      if (c == '"') in_string = !in_string;
      out += c;
      after_high = false;
      continue;
    }
    if (text[at + 1] != 'u') {  // \" \\ \n ...: two characters, whatever they are
      out.append(text.substr(at, 2));
      ++at;
      after_high = false;
      continue;
    }
    const long unit = hex4(text, at + 2);
    if (unit >= 0xDC80 && unit <= 0xDCFF && !after_high) {
      // U+10FF00 + B is the pair D BFF, DF00 + B.
      out += fmt::format("\\udbff\\u{:04x}", 0xDF00 + (unit - 0xDC00));
      after_high = false;
    } else {
      out.append(text.substr(at, unit < 0 ? 2 : 6));
      after_high = unit >= 0xD800 && unit <= 0xDBFF;
    }
    at += unit < 0 ? 1 : 5;
  }
  return out;
}

// The inverse for one parsed string: U+10FF80..U+10FFFF (F4 8F BE|BF 80..BF) back to a byte.
std::string restore_bytes(const std::string& s) {
  std::string out;
  for (std::size_t at = 0; at < s.size(); ++at) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[at + k]); };
    if (at + 3 < s.size() && byte(0) == 0xF4 && byte(1) == 0x8F && (byte(2) == 0xBE || byte(2) == 0xBF) &&
        byte(3) >= 0x80 && byte(3) <= 0xBF) {
      const unsigned cp = 0x10F000u | ((byte(2) & 0x3Fu) << 6) | (byte(3) & 0x3Fu);
      out += static_cast<char>(cp - kByteBase);
      at += 3;
    } else {
      out += s[at];
    }
  }
  return out;
}

// Every string value of a parsed document (not keys) with its bytes restored.
void restore_strings(Json& value) {
  if (value.is_string()) {
    value = restore_bytes(value.get<std::string>());
  } else if (value.is_structured()) {
    for (Json& child : value) restore_strings(child);
  }
}

// A field check that fails with the file and the field's path in the message.
class Reader {
 public:
  explicit Reader(const std::string& file) : file_(printable(file)) {}

  [[noreturn]] void refuse(const std::string& what) const { throw UsageError(file_ + ": " + what); }

  const Json& member(const Json& object, const char* key, const std::string& path) const {
    const auto it = object.find(key);
    if (it == object.end()) refuse(fmt::format("{}{} is missing", path, key));
    return *it;
  }
  std::string text(const Json& object, const char* key, const std::string& path) const {
    const Json& value = member(object, key, path);
    if (!value.is_string()) refuse(fmt::format("{}{} is not a string", path, key));
    return value.get<std::string>();
  }
  double seconds(const Json& object, const char* key, const std::string& path) const {
    const Json& value = member(object, key, path);
    if (!value.is_number()) refuse(fmt::format("{}{} is not a number", path, key));
    const double s = value.get<double>();
    if (s < 0) refuse(fmt::format("{}{} is negative", path, key));
    return s;
  }

 private:
  std::string file_;
};

// An optional string of an optional object: empty when either is absent or of another type.
std::string optional_text(const Json& doc, const char* object, const char* key) {
  const auto o = doc.find(object);
  if (o == doc.end() || !o->is_object()) return {};
  const auto v = o->find(key);
  return v != o->end() && v->is_string() ? v->get<std::string>() : std::string();
}

std::vector<std::string> host_names(const Json& doc) {
  std::vector<std::string> names;
  const auto context = doc.find("context");
  if (context == doc.end() || !context->is_object()) return names;
  const auto hosts = context->find("hosts");
  if (hosts == context->end() || !hosts->is_array()) return names;
  for (const Json& h : *hosts) {
    if (h.is_object() && h.contains("host") && h["host"].is_string()) names.push_back(h["host"]);
  }
  return names;
}

Json parse(std::string_view text, const Reader& reader) {
  try {
    return Json::parse(with_lone_surrogates_as_pairs(text));
  } catch (const Json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ...": without the tag.
    std::string what = e.what();
    const std::size_t tag = what.find("] ");
    if (tag != std::string::npos) what.erase(0, tag + 2);
    reader.refuse("not JSON (" + printable(what) + ")");
  }
}

}  // namespace

ReportInput read_report(std::string_view text, const std::string& file) {
  const Reader reader(file);
  Json doc = parse(text, reader);
  if (!doc.is_object()) reader.refuse("not an mpiwrite report (the top level is not an object)");
  restore_strings(doc);
  const auto version = doc.find("schema_version");
  if (version == doc.end()) reader.refuse("not an mpiwrite report (no schema_version)");
  if (!version->is_number_integer() || version->get<long>() < kOldestComparableSchema ||
      version->get<long>() > kNewestComparableSchema) {
    reader.refuse(fmt::format("schema_version {} is not supported (mpiwrite-compare reads {} and {})",
                              printable(version->dump()), kOldestComparableSchema,
                              kNewestComparableSchema));
  }
  ReportInput input;
  ReportAbout& about = input.about;
  about.file = file;
  about.schema_version = version->get<int>();
  if (doc.contains("kind") && doc["kind"].is_string()) about.kind = doc["kind"];
  about.mpiwrite_version = optional_text(doc, "context", "mpiwrite_version");
  about.filesystem = optional_text(doc, "context", "filesystem");
  about.hosts = host_names(doc);
  if (doc.contains("interrupted") && doc["interrupted"].is_string()) about.interrupted = doc["interrupted"];
  const auto config = doc.find("config");
  for (const char* key : kWorkloadKeys) {
    std::optional<Json> value;
    if (config != doc.end() && config->is_object() && config->contains(key)) value = (*config)[key];
    about.workload.emplace_back(key, std::move(value));
  }

  const char* time_key = about.schema_version >= 4 ? "makespan_s" : "slowest_s";
  const Json& points = reader.member(doc, "points", "");
  if (!points.is_array()) reader.refuse("points is not an array");
  if (points.empty()) reader.refuse("the report has no points");
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string at = fmt::format("points[{}].", i);
    const Json& p = points[i];
    if (!p.is_object()) reader.refuse(fmt::format("points[{}] is not an object", i));
    ReportPoint point{reader.text(p, "mode", at), reader.text(p, "label", at), {}};
    if (!seen.emplace(point.mode, point.label).second) {
      reader.refuse(fmt::format("two points are {} {}", printable(point.mode), printable(point.label)));
    }
    const Json& reps = reader.member(p, "repetitions", at);
    if (!reps.is_array()) reader.refuse(at + "repetitions is not an array");
    for (std::size_t k = 0; k < reps.size(); ++k) {
      const std::string rep_at = fmt::format("{}repetitions[{}].", at, k);
      if (!reps[k].is_object()) reader.refuse(fmt::format("{}repetitions[{}] is not an object", at, k));
      double seconds = reader.seconds(reps[k], time_key, rep_at);
      // Cut short by --time-limit: the makespan scaled to the asked files at the repetition's
      // rate, as mpiwrite compares its own points (docs/metrics.md "Time-limited write phases").
      const auto limit = reps[k].find("time_limit");
      if (limit != reps[k].end() && limit->is_object() && limit->value("cut_short", false)) {
        const double asked = limit->value("files_asked", 0.0);
        const double written = reps[k].value("files", 0.0);
        if (asked > 0 && written > 0) seconds *= asked / written;
      }
      point.times.push_back(seconds);
    }
    input.points.push_back(std::move(point));
  }
  return input;
}

}  // namespace mpiwrite
