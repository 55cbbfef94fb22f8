#include "mpiwrite/core/text_escape.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mpiwrite {

namespace {

unsigned byte_at(std::string_view s, std::size_t at) { return static_cast<unsigned char>(s[at]); }

bool continuation(std::string_view s, std::size_t at, unsigned low = 0x80, unsigned high = 0xBF) {
  if (at >= s.size()) return false;
  const unsigned b = byte_at(s, at);
  return b >= low && b <= high;
}

// The code point of the well-formed sequence of `length` bytes at s[at].
unsigned code_point(std::string_view s, std::size_t at, std::size_t length) {
  static constexpr unsigned kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  unsigned value = byte_at(s, at) & kLeadMask[length];
  for (std::size_t k = 1; k < length; ++k) value = (value << 6) | (byte_at(s, at + k) & 0x3F);
  return value;
}

// C0 controls, DEL and the C1 controls: they move the cursor or start terminal escapes.
bool is_control(unsigned cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

}  // namespace

std::size_t utf8_sequence_length(std::string_view s, std::size_t at) {
  const unsigned b = byte_at(s, at);
  if (b < 0x80) return 1;
  // The ranges of the second byte exclude overlong forms (E0, F0), surrogates (ED) and code
  // points above U+10FFFF (F4), as RFC 3629's table does.
  if (b >= 0xC2 && b <= 0xDF) return continuation(s, at + 1) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    const unsigned low = b == 0xE0 ? 0xA0 : 0x80, high = b == 0xED ? 0x9F : 0xBF;
    return continuation(s, at + 1, low, high) && continuation(s, at + 2) ? 3 : 0;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    const unsigned low = b == 0xF0 ? 0x90 : 0x80, high = b == 0xF4 ? 0x8F : 0xBF;
    return continuation(s, at + 1, low, high) && continuation(s, at + 2) && continuation(s, at + 3)
               ? 4
               : 0;
  }
  return 0;
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (std::size_t at = 0; at < s.size();) {
    const std::size_t length = utf8_sequence_length(s, at);
    if (length == 0) {
      out += fmt::format("\\udc{:02x}", byte_at(s, at));
      ++at;
      continue;
    }
    const char c = s[at];
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte_at(s, at) < 0x20) {
          out += fmt::format("\\u{:04x}", byte_at(s, at));
        } else {
          out.append(s.substr(at, length));
        }
    }
    at += length;
  }
  return out + '"';
}

std::string printable(std::string_view s) {
  std::string out;
  for (std::size_t at = 0; at < s.size();) {
    const std::size_t length = utf8_sequence_length(s, at);
    const char c = s[at];
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (length == 0 || is_control(code_point(s, at, length))) {
      for (std::size_t k = 0; k < std::max<std::size_t>(length, 1); ++k) {
        out += fmt::format("\\x{:02x}", byte_at(s, at + k));
      }
    } else {
      out.append(s.substr(at, length));
    }
    at += std::max<std::size_t>(length, 1);
  }
  return out;
}

std::string markdown_code(std::string_view s) {
  const std::string text = printable(s);
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  // CommonMark strips one space on each side, so a backtick at either end stays in the span.
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

std::string markdown_cell(std::string_view s) {
  std::string out;
  for (char c : printable(s)) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

}  // namespace mpiwrite
