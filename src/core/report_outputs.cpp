// The files a run's report goes to (report_outputs.hpp).
#include "mpiwrite/core/report_outputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

// What the extension of `path` is, as written (".CSV"), or empty.
std::string_view extension_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  // A dot file (".json") has no extension, as for the shell and Python's splitext.
  if (dot == std::string_view::npos || dot == 0) return {};
  return name.substr(dot);
}

// "-" would mean standard output, which always gets the report already.
void refuse_dash(const ReportOutput& o, Format terminal) {
  if (o.path != "-") return;
  if (o.option == "--output") {
    throw UsageError("--output -: standard output always gets the report; -o names a file "
                     "for a copy of it");
  }
  throw UsageError(fmt::format("{} -: standard output always gets the report in --format's "
                               "format ({}); for {} there, give --format {}",
                               o.option, to_string(terminal), to_string(o.format),
                               to_string(o.format)));
}

// --json r.csv: the name says another format than the option; one of the two is a slip.
// .txt names the table only where nothing else decides: markdown, CSV and JSON are text too.
void refuse_contradiction(const ReportOutput& o) {
  const std::optional<Format> named = format_of_extension(o.path);
  if (!named || *named == o.format || lower(extension_of(o.path)) == ".txt") return;
  throw UsageError(fmt::format("{} {}: the extension {} names the {} format, not {}; give the "
                               "file a name ending as its format{}",
                               o.option, o.path, extension_of(o.path), to_string(*named),
                               to_string(o.format),
                               o.option == "--output" ? ", or another --format" : ""));
}

std::string normal_form(const std::string& path) {
  std::string normal = std::filesystem::path(path).lexically_normal().string();
  while (normal.size() > 1 && normal.ends_with('/')) normal.pop_back();
  return normal;
}

}  // namespace

std::optional<Format> format_of_extension(std::string_view path) {
  const std::string extension = lower(extension_of(path));
  if (extension == ".json") return Format::Json;
  if (extension == ".csv") return Format::Csv;
  if (extension == ".md" || extension == ".markdown") return Format::Markdown;
  if (extension == ".txt") return Format::Table;
  return std::nullopt;
}

Format report_format(std::optional<Format> asked, const std::string& output) {
  const std::optional<Format> named = format_of_extension(output);
  if (!asked) return named.value_or(Format::Table);
  refuse_contradiction({*asked, output, "--output"});
  return *asked;
}

std::vector<ReportOutput> report_outputs(const RunConfig& c) {
  std::vector<ReportOutput> outputs;
  if (!c.output.empty()) outputs.push_back({c.format, c.output, "--output"});
  if (!c.json_output.empty()) outputs.push_back({Format::Json, c.json_output, "--json"});
  if (!c.csv_output.empty()) outputs.push_back({Format::Csv, c.csv_output, "--csv"});
  if (!c.markdown_output.empty()) {
    outputs.push_back({Format::Markdown, c.markdown_output, "--markdown"});
  }
  for (const ReportOutput& o : outputs) {
    refuse_dash(o, c.format);
    refuse_contradiction(o);
  }
  for (auto a = outputs.begin(); a != outputs.end(); ++a) {
    const auto same = std::find_if(a + 1, outputs.end(), [&](const ReportOutput& b) {
      return normal_form(a->path) == normal_form(b.path);
    });
    if (same != outputs.end()) {
      throw UsageError(fmt::format("{} {} and {} {} name the same file; give each output a file "
                                   "of its own",
                                   a->option, a->path, same->option, same->path));
    }
  }
  return outputs;
}

}  // namespace mpiwrite
