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
  // A NUL-terminated name, valid until the next call on this namer. Inline: the loops ask
  // for a name per item, and a part's items mostly come in steps of 1 (block) or of the
  // threads (round robin): a step of at most 9 adds to the last digits in place (a few
  // instructions), where formatting the whole name was about a third of a stat item's
  // user-space instructions (callgrind: 86 of ~200); a longer name or any other index is
  // formatted afresh.
  const char* name(std::uint64_t index) {
    if (index > last_ && index - last_ <= kMaxStep && add(index - last_)) {
      last_ = index;
      return buffer_.data();
    }
    return format(index);
  }
  std::string_view name_view(std::uint64_t index);

 private:
  static constexpr std::uint64_t kMaxStep = 9;  // added to the last digit: one carry at most
  // Adds `step` (1..kMaxStep) to the decimal digits of last_ in the buffer; false when the sum
  // needs one more digit (e.g. 999 + 1), whose name format() then writes whole.
  bool add(std::uint64_t step) {
    char* digit = buffer_.data() + pattern_.prefix.size() + digits_ - 1;
    auto carry = static_cast<unsigned>(step);
    for (std::size_t left = digits_; carry != 0; --left, --digit) {
      if (left == 0) return false;
      const unsigned sum = static_cast<unsigned>(*digit - '0') + carry;
      carry = sum >= 10 ? 1 : 0;
      *digit = static_cast<char>('0' + sum - 10 * carry);
    }
    return true;
  }
  const char* format(std::uint64_t index);

  FilePattern pattern_;
  std::string buffer_;  // prefix, room for 20 digits, suffix; sized once in the constructor
  std::size_t length_ = 0;
  std::size_t digits_ = 0;  // of the name in the buffer
  // The index named last; UINT64_MAX before the first name, so no step applies to it.
  std::uint64_t last_ = UINT64_MAX;
};

}  // namespace mpiwrite
