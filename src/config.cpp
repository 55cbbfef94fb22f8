#include "mpiwrite/config.hpp"

#include <fmt/format.h>

#include "mpiwrite/errors.hpp"
#include "mpiwrite/file_namer.hpp"

namespace mpiwrite {

namespace {

void require(bool condition, const std::string& message) {
  if (!condition) throw UsageError(message);
}

}  // namespace

void validate(const RunConfig& c) {
  require(c.files >= 1 && c.files <= kMaxFiles,
          fmt::format("--files must be between 1 and {}", kMaxFiles));
  require(c.lines >= 1 && c.lines <= kMaxLines,
          fmt::format("--lines must be between 1 and {}", kMaxLines));
  require(!c.text.empty(), "--text must not be empty");
  require(c.text.find('\n') == std::string::npos && c.text.find('\0') == std::string::npos,
          "--text must not contain a newline or NUL (mpiwrite adds the newline)");
  require(c.text.size() < kMaxFileSizeBytes && c.file_size_bytes() <= kMaxFileSizeBytes,
          fmt::format("--lines x (length of --text + 1) must be at most {} bytes per file",
                      kMaxFileSizeBytes));
  require(!c.dir.empty(), "--dir must not be empty");
  const FilePattern pattern = parse_pattern(c.pattern);  // throws UsageError with its own message
  const std::size_t longest_name =
      pattern.prefix.size() + std::to_string(c.files).size() + pattern.suffix.size();
  require(longest_name <= kMaxNameBytes,
          fmt::format("--pattern gives names of up to {} bytes; file names are limited to {}",
                      longest_name, kMaxNameBytes));
  require(c.threads >= 1 && c.threads <= kMaxThreads,
          fmt::format("--threads must be between 1 and {}", kMaxThreads));
  require(c.repetitions >= 1 && c.repetitions <= kMaxRepetitions,
          fmt::format("--repetitions must be between 1 and {}", kMaxRepetitions));
  require(c.warmup <= kMaxRepetitions,
          fmt::format("--warmup must be between 0 and {}", kMaxRepetitions));
  require(!(c.dry_run && !c.output.empty()), "--dry-run and --output cannot be combined");
}

std::string_view to_string(Partition value) {
  return value == Partition::Block ? "block" : "cyclic";
}

std::string_view to_string(WriteMode value) {
  return value == WriteMode::Line ? "line" : "whole";
}

std::string_view to_string(Format value) {
  switch (value) {
    case Format::Table: return "table";
    case Format::Markdown: return "markdown";
    case Format::Csv: return "csv";
    case Format::Json: return "json";
  }
  return "?";
}

std::string_view to_string(Engine value) { return value == Engine::Posix ? "posix" : "null"; }

}  // namespace mpiwrite
