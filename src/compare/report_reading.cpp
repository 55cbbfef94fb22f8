#include "mpiwrite/compare/report_reading.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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
    if (at + 3 < s.size() && byte(0) == 0xF4 && byte(1) == 0x8F &&
        (byte(2) == 0xBE || byte(2) == 0xBF) && byte(3) >= 0x80 && byte(3) <= 0xBF) {
      const unsigned cp = 0x10F000u | ((byte(2) & 0x3Fu) << 6) | (byte(3) & 0x3Fu);
      out += static_cast<char>(cp - kByteBase);
      at += 3;
    } else {
      out += s[at];
    }
  }
  return out;
}

// Every string value of a parsed document (not keys) with its bytes restored. The parse
// refused nesting beyond kMaxNesting, so this recursion is at most that deep.
void restore_strings(Json& value) {
  if (value.is_string()) {
    value = restore_bytes(value.get<std::string>());
  } else if (value.is_structured()) {
    for (Json& child : value) restore_strings(child);
  }
}

// What a refused value was, short: its JSON for a number, a boolean or null, the start of a
// string, the kind of an array or object (whose text may be megabytes).
std::string got(const Json& value) {
  if (value.is_array()) return value.empty() ? "[]" : "an array";
  if (value.is_object()) return value.empty() ? "{}" : "an object";
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    constexpr std::size_t kShown = 40;
    const auto quoted = [](const std::string& t) {
      return Json(t).dump(-1, ' ', false, Json::error_handler_t::replace);
    };
    return s.size() <= kShown ? quoted(s) : quoted(s.substr(0, kShown)) + "...";
  }
  return value.dump();
}

// Where a value is: "points[2].repetitions[0].makespan_s". `path` ends with '.' or is empty.
std::string at(const std::string& path, const char* key) { return path + key; }

// Every check of a field, and the one form of a refusal: "FILE: FIELD: expected X, got Y".
class Reader {
 public:
  explicit Reader(const std::string& file) : file_(printable(file)) {}

  [[noreturn]] void refuse(const std::string& what) const { throw UsageError(file_ + ": " + what); }
  [[noreturn]] void expected(const std::string& field, const char* what, const Json& value) const {
    refuse(fmt::format("{}: expected {}, got {}", field, what, printable(got(value))));
  }

  const Json& member(const Json& object, const char* key, const std::string& path) const {
    const auto it = object.find(key);
    if (it == object.end()) refuse(fmt::format("{} is missing", at(path, key)));
    return *it;
  }
  // The member, or nullptr when it is absent or null (an optional field).
  static const Json* optional(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
  }

  const Json& object(const Json& value, const std::string& field) const {
    if (!value.is_object()) expected(field, "an object", value);
    return value;
  }
  const Json& array(const Json& value, const std::string& field) const {
    if (!value.is_array()) expected(field, "an array", value);
    return value;
  }
  std::string text(const Json& value, const std::string& field) const {
    if (!value.is_string()) expected(field, "a string", value);
    return value.get<std::string>();
  }
  bool flag(const Json& value, const std::string& field) const {
    if (!value.is_boolean()) expected(field, "true or false", value);
    return value.get<bool>();
  }
  // A whole number 0 .. 2^53 (1.0 or 1e2 are not: mpiwrite writes counts as integers).
  std::uint64_t count(const Json& value, const std::string& field) const {
    const bool whole =
        value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
    if (!whole || value.get<std::uint64_t>() > kLargestCount) {
      expected(field, "a whole number of 0 or more, at most 2^53", value);
    }
    return value.get<std::uint64_t>();
  }
  // A measured time, within what a clock measures (kShortestSeconds .. kLongestSeconds).
  double seconds(const Json& value, const std::string& field) const {
    const double s = value.is_number() ? value.get<double>() : 0;
    if (!value.is_number() || !std::isfinite(s) || s < kShortestSeconds || s > kLongestSeconds) {
      expected(field, "seconds between 1e-09 and 1e+09", value);
    }
    return s;
  }
  // A sum of nanoseconds (total_ns): a whole number of 0 or more that fits 64 bits.
  double nanoseconds(const Json& value, const std::string& field) const {
    const bool whole =
        value.is_number_unsigned() || (value.is_number_integer() && value.get<std::int64_t>() >= 0);
    if (!whole) expected(field, "a whole number of nanoseconds, 0 or more", value);
    return static_cast<double>(value.get<std::uint64_t>());
  }
  // A configured duration: 0 (none) or a time as above.
  double duration(const Json& value, const std::string& field) const {
    if (value.is_number() && value.get<double>() == 0) return 0;
    const double s = value.is_number() ? value.get<double>() : -1;
    if (!value.is_number() || !std::isfinite(s) || s < 0 || s > kLongestSeconds) {
      expected(field, "0 or seconds up to 1e+09", value);
    }
    return s;
  }

  // An optional string field: "" when absent or null.
  std::string optional_text(const Json& object, const char* key, const std::string& path) const {
    const Json* value = optional(object, key);
    return value ? text(*value, at(path, key)) : std::string();
  }

 private:
  std::string file_;
};

// A workload key's value checked against its kind.
void check_config_value(const Reader& reader, const WorkloadKey& key, const Json& value) {
  const std::string field = at("config.", key.name);
  switch (key.kind) {
    case ConfigKind::Count:
      reader.count(value, field);
      break;
    case ConfigKind::CountOrNull:  // an option without a default (--file-size): null not given
      if (!value.is_null()) reader.count(value, field);
      break;
    case ConfigKind::Seconds:
      reader.duration(value, field);
      break;
    case ConfigKind::Text:
    case ConfigKind::Name:
      reader.text(value, field);
      break;
    case ConfigKind::Flag:
      reader.flag(value, field);
      break;
    case ConfigKind::Names:
      reader.array(value, field);
      for (std::size_t i = 0; i < value.size(); ++i)
        reader.text(value[i], fmt::format("{}[{}]", field, i));
      break;
    case ConfigKind::Ranks:
      reader.array(value, field);
      for (std::size_t i = 0; i < value.size(); ++i)
        reader.count(value[i], fmt::format("{}[{}]", field, i));
      break;
  }
}

std::vector<WorkloadValue> workload_values(const Json& doc, const Reader& reader) {
  const Json* config = Reader::optional(doc, "config");
  if (config) reader.object(*config, "config");
  std::vector<WorkloadValue> values;
  for (const WorkloadKey& key : kWorkloadKeys) {
    const Json* value = config ? Reader::optional(*config, key.name) : nullptr;
    if (value) check_config_value(reader, key, *value);
    // Absent (or null): the run had the default, as every mpiwrite before the option had.
    values.push_back({key.name, value ? *value : Json::parse(key.fallback), value == nullptr});
  }
  return values;
}

std::vector<std::string> host_names(const Json& doc, const Reader& reader) {
  std::vector<std::string> names;
  const Json* context = Reader::optional(doc, "context");
  if (!context) return names;
  const Json* hosts = Reader::optional(reader.object(*context, "context"), "hosts");
  if (!hosts) return names;
  reader.array(*hosts, "context.hosts");
  for (std::size_t i = 0; i < hosts->size(); ++i) {
    const std::string path = fmt::format("context.hosts[{}]", i);
    names.push_back(reader.text(reader.member(reader.object((*hosts)[i], path), "host", path + "."),
                                path + ".host"));
  }
  return names;
}

// The repetition's time for all the asked files, or empty when it was cut short by
// --time-limit before its first file. A cut-short repetition's makespan is scaled to the asked
// files at its own rate, as mpiwrite compares its own points (docs/metrics.md "Time-limited
// write phases").
std::optional<double> repetition_time(const Json& rep, const char* time_key,
                                      const std::string& path, const Reader& reader) {
  const double seconds = reader.seconds(reader.member(rep, time_key, path), at(path, time_key));
  const Json* limit = Reader::optional(rep, "time_limit");
  if (!limit) return seconds;
  const std::string limit_at = at(path, "time_limit");
  reader.object(*limit, limit_at);
  if (!reader.flag(reader.member(*limit, "cut_short", limit_at + "."), limit_at + ".cut_short")) {
    return seconds;
  }
  const std::uint64_t asked =
      reader.count(reader.member(*limit, "files_asked", limit_at + "."), limit_at + ".files_asked");
  const Json& files = reader.member(rep, "files", path);
  const std::uint64_t written = reader.count(files, at(path, "files"));
  if (written > asked) {
    const std::string most = fmt::format("at most time_limit.files_asked ({})", asked);
    reader.expected(at(path, "files"), most.c_str(), files);
  }
  if (written == 0) return std::nullopt;
  return seconds * (static_cast<double>(asked) / static_cast<double>(written));
}

// The time of a later phase (stat, read, remove, the tree phases) in the repetition: its
// phases.<phase>.makespan_s. When --time-limit cut the write phase short, the file phases
// handled only the files written, so their makespan is scaled to the asked files at their own
// rate, as the write phase's is; the tree phases always make or remove the whole layout.
std::optional<double> phase_time(const Json& rep, const std::string& phase,
                                 const std::string& path, const Reader& reader) {
  const std::string phases_at = at(path, "phases");
  const Json& phases = reader.object(reader.member(rep, "phases", path), phases_at);
  const std::string phase_at = phases_at + "." + phase;
  const Json& figures = reader.object(reader.member(phases, phase.c_str(), phases_at + "."),
                                      phase_at);
  const std::string makespan_at = phase_at + ".makespan_s";
  const double seconds =
      reader.seconds(reader.member(figures, "makespan_s", phase_at + "."), makespan_at);
  const Json* limit = Reader::optional(rep, "time_limit");
  const Json* files = Reader::optional(figures, "files");
  if (!limit || !files) return seconds;
  const std::string limit_at = at(path, "time_limit");
  reader.object(*limit, limit_at);
  if (!reader.flag(reader.member(*limit, "cut_short", limit_at + "."), limit_at + ".cut_short")) {
    return seconds;
  }
  const std::uint64_t asked =
      reader.count(reader.member(*limit, "files_asked", limit_at + "."), limit_at + ".files_asked");
  const std::uint64_t done = reader.count(*files, phase_at + ".files");
  if (done > asked) {
    const std::string most = fmt::format("at most time_limit.files_asked ({})", asked);
    reader.expected(phase_at + ".files", most.c_str(), *files);
  }
  if (done == 0) return std::nullopt;
  return seconds * (static_cast<double>(asked) / static_cast<double>(done));
}

// A latency_us object's count and total_ns as a total named `name`; empty when it has neither
// (a report written before they existed).
std::optional<OperationTotal> total_of(const Json& value, const std::string& name,
                                       const std::string& field, const Reader& reader) {
  reader.object(value, field);
  const Json* count = Reader::optional(value, "count");
  const Json* total = Reader::optional(value, "total_ns");
  if (!count || !total) return std::nullopt;
  return OperationTotal{name, reader.nanoseconds(*total, field + ".total_ns"),
                        static_cast<double>(reader.count(*count, field + ".count"))};
}

// Adds a timed repetition's per-file figures (`figures`: the repetition itself for the write
// phase, else its phases.<phase>) to `totals`; a repetition without them leaves the point
// incomplete, so no operation is named from a part of its repetitions.
void add_per_file(const Json& figures, const std::string& path, const Reader& reader,
                  PerFileTotals& totals) {
  const Json* latency = Reader::optional(figures, "latency_us");
  const Json* operations = Reader::optional(figures, "operations_us");
  const std::optional<OperationTotal> file =
      latency ? total_of(*latency, "latency", path + "latency_us", reader) : std::nullopt;
  if (!file || !operations) {
    totals.complete = false;
    return;
  }
  reader.object(*operations, path + "operations_us");
  totals.latency.total_ns += file->total_ns;
  totals.latency.count += file->count;
  for (auto it = operations->begin(); it != operations->end(); ++it) {
    if (it->is_null()) continue;  // fsync without --fsync
    const std::optional<OperationTotal> op =
        total_of(*it, it.key(), path + "operations_us." + it.key(), reader);
    if (!op) {
      totals.complete = false;
      return;
    }
    const auto known = std::find_if(totals.operations.begin(), totals.operations.end(),
                                    [&](const OperationTotal& t) { return t.name == op->name; });
    if (known == totals.operations.end()) {
      totals.operations.push_back(*op);
    } else {
      known->total_ns += op->total_ns;
      known->count += op->count;
    }
  }
}

// Refuses a report that did not time `phase`: one line naming the phases it did time
// (config.phases; a report without it, or of schema_version 3, timed only the write phase).
void require_phase(const Json& doc, const std::string& phase, const Reader& reader) {
  if (phase == "write") return;
  std::vector<std::string> timed{"write"};
  const Json* config = Reader::optional(doc, "config");
  const Json* phases =
      config && config->is_object() ? Reader::optional(*config, "phases") : nullptr;
  if (phases) {
    timed.clear();
    const Json& list = reader.array(*phases, "config.phases");
    for (std::size_t i = 0; i < list.size(); ++i) {
      timed.push_back(reader.text(list[i], fmt::format("config.phases[{}]", i)));
    }
  }
  if (std::find(timed.begin(), timed.end(), phase) == timed.end()) {
    std::string names;
    for (const std::string& name : timed) names += (names.empty() ? "" : ", ") + printable(name);
    reader.refuse(fmt::format("the report has no {} phase (it timed: {}; mpiwrite --phases)",
                              phase, names));
  }
}

Json parse(std::string_view text, const Reader& reader) {
  // Refuses an array or object deeper than kMaxNesting as soon as it opens: nlohmann's
  // parser is iterative, but copying, dumping and walking a document recurse.
  const Json::parser_callback_t depth_check = [&reader](int depth, Json::parse_event_t event,
                                                        Json&) {
    const bool opens =
        event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    if (opens && depth >= kMaxNesting) {
      reader.refuse(fmt::format("arrays and objects nested deeper than {} levels", kMaxNesting));
    }
    return true;
  };
  try {
    return Json::parse(with_lone_surrogates_as_pairs(text), depth_check);
  } catch (const Json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ...": without the tag.
    // out_of_range.406 is a number beyond a double ("number overflow parsing '1e400'").
    // Cut short: the overflow message holds the whole number, which may be 5,000 digits.
    std::string what = e.what();
    const std::size_t tag = what.find("] ");
    if (tag != std::string::npos) what.erase(0, tag + 2);
    constexpr std::size_t kLongest = 120;
    if (what.size() > kLongest) what = what.substr(0, kLongest) + "...";
    reader.refuse("not JSON (" + printable(what) + ")");
  }
}

}  // namespace

ReportInput read_report(std::string_view text, const std::string& file, const std::string& phase) {
  const Reader reader(file);
  Json doc = parse(text, reader);
  if (!doc.is_object()) reader.refuse("not an mpiwrite report (the top level is not an object)");
  restore_strings(doc);
  const auto version = doc.find("schema_version");
  if (version == doc.end()) reader.refuse("not an mpiwrite report (no schema_version)");
  if (!version->is_number_integer() || version->get<long>() < kOldestComparableSchema ||
      version->get<long>() > kNewestComparableSchema) {
    reader.refuse(
        fmt::format("schema_version {} is not supported (mpiwrite-compare reads {} to {})",
                    printable(got(*version)), kOldestComparableSchema, kNewestComparableSchema));
  }
  ReportInput input;
  ReportAbout& about = input.about;
  about.file = file;
  about.schema_version = version->get<int>();
  about.kind = reader.optional_text(doc, "kind", "");
  if (const Json* context = Reader::optional(doc, "context")) {
    reader.object(*context, "context");
    about.mpiwrite_version = reader.optional_text(*context, "mpiwrite_version", "context.");
    about.filesystem = reader.optional_text(*context, "filesystem", "context.");
  }
  about.hosts = host_names(doc, reader);
  about.interrupted = reader.optional_text(doc, "interrupted", "");
  about.workload = workload_values(doc, reader);
  require_phase(doc, phase, reader);
  about.phase = phase;

  const char* time_key = about.schema_version >= 4 ? "makespan_s" : "slowest_s";
  const Json& points = reader.array(reader.member(doc, "points", ""), "points");
  if (points.empty()) reader.refuse("the report has no points");
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string path = fmt::format("points[{}]", i);
    const Json& p = reader.object(points[i], path);
    const std::string p_at = path + ".";
    ReportPoint point{reader.text(reader.member(p, "mode", p_at), p_at + "mode"),
                      reader.text(reader.member(p, "label", p_at), p_at + "label"),
                      {},
                      0,
                      {}};
    point.per_file.complete = true;
    if (!seen.emplace(point.mode, point.label).second) {
      reader.refuse(
          fmt::format("two points are {} {}", printable(point.mode), printable(point.label)));
    }
    const Json& reps = reader.array(reader.member(p, "repetitions", p_at), p_at + "repetitions");
    for (std::size_t k = 0; k < reps.size(); ++k) {
      const std::string rep_path = fmt::format("{}repetitions[{}]", p_at, k);
      const Json& rep = reader.object(reps[k], rep_path);
      const std::optional<double> seconds =
          phase == "write" ? repetition_time(rep, time_key, rep_path + ".", reader)
                           : phase_time(rep, phase, rep_path + ".", reader);
      if (seconds) {
        point.times.push_back(*seconds);
        const Json& figures = phase == "write" ? rep : rep.at("phases").at(phase);
        const std::string figures_at =
            phase == "write" ? rep_path + "." : rep_path + ".phases." + phase + ".";
        if (point.per_file.complete) add_per_file(figures, figures_at, reader, point.per_file);
      } else {
        ++point.without_time;
      }
    }
    if (point.times.empty()) point.per_file.complete = false;
    input.points.push_back(std::move(point));
  }
  return input;
}

}  // namespace mpiwrite
