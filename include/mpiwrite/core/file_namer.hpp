#pragma once
// File names from a --pattern such as "write{}.txt" and a 1-based global index. The name is
// formatted into a buffer the namer owns, so the per-file hot path allocates nothing.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace mpiwrite {

struct FilePattern {
  std::string prefix;  // text before "{}"
  std::string suffix;  // text after "{}"
};

// Throws UsageError unless the pattern holds exactly one "{}", no other brace, no '/', and
// is not a name the directory itself uses ("." or "..").
FilePattern parse_pattern(std::string_view pattern);

// Whether `name` is the name of file i for some i in [1, files]: the pattern's prefix, the
// index in decimal without leading zeros, its suffix.
bool generates(const FilePattern& pattern, std::string_view name, std::uint64_t files);

class FileNamer {
 public:
  explicit FileNamer(FilePattern pattern);
  // A NUL-terminated name, valid until the next call on this namer.
  const char* name(std::uint64_t index);
  std::string_view name_view(std::uint64_t index);

 private:
  FilePattern pattern_;
  std::string buffer_;  // prefix, room for 20 digits, suffix; sized once in the constructor
  std::size_t length_ = 0;
};

}  // namespace mpiwrite
