#include "mpiwrite/core/file_namer.hpp"

#include <charconv>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {

namespace {
constexpr std::size_t kMaxDigits = 20;  // UINT64_MAX has 20 decimal digits
}

FilePattern parse_pattern(std::string_view pattern) {
  const std::size_t at = pattern.find("{}");
  if (at == std::string_view::npos) {
    throw UsageError("--pattern must contain {} where the file index goes, e.g. write{}.txt");
  }
  FilePattern result{std::string(pattern.substr(0, at)), std::string(pattern.substr(at + 2))};
  if (result.prefix.find_first_of("{}") != std::string::npos ||
      result.suffix.find_first_of("{}") != std::string::npos) {
    throw UsageError("--pattern must contain exactly one {} and no other brace");
  }
  if (pattern.find('/') != std::string_view::npos || pattern.find('\0') != std::string_view::npos) {
    throw UsageError("--pattern must be a plain file name (no '/'); put directories in --dir");
  }
  if (pattern.find("..") != std::string_view::npos) {
    throw UsageError("--pattern must not contain '..'");
  }
  if (result.prefix.starts_with(".mpiwrite-")) {  // the names of mpiwrite's scratch directories
    throw UsageError(
        "--pattern must not start with '.mpiwrite-', which mpiwrite keeps for its "
        "scratch directories");
  }
  return result;
}

bool generates(const FilePattern& p, std::string_view name, std::uint64_t files) {
  if (name.size() <= p.prefix.size() + p.suffix.size()) return false;
  if (!name.starts_with(p.prefix) || !name.ends_with(p.suffix)) return false;
  const std::string_view digits =
      name.substr(p.prefix.size(), name.size() - p.prefix.size() - p.suffix.size());
  if (digits.front() == '0') return false;
  std::uint64_t index = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  return error == std::errc{} && end == digits.data() + digits.size() && index >= 1 &&
         index <= files;
}

FileNamer::FileNamer(FilePattern pattern) : pattern_(std::move(pattern)) {
  buffer_.resize(pattern_.prefix.size() + kMaxDigits + pattern_.suffix.size() + 1);
  pattern_.prefix.copy(buffer_.data(), pattern_.prefix.size());
}

const char* FileNamer::format(std::uint64_t index) {
  char* digits = buffer_.data() + pattern_.prefix.size();
  char* end = std::to_chars(digits, digits + kMaxDigits, index).ptr;
  digits_ = static_cast<std::size_t>(end - digits);
  last_ = index;
  end = std::copy(pattern_.suffix.begin(), pattern_.suffix.end(), end);
  *end = '\0';
  length_ = static_cast<std::size_t>(end - buffer_.data());
  return buffer_.data();
}

std::string_view FileNamer::name_view(std::uint64_t index) {
  name(index);
  return {buffer_.data(), length_};
}

}  // namespace mpiwrite
