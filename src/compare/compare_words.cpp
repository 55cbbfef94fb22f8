#include "compare_words.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace mpiwrite {

namespace {

// "+38 %", "-1 %", "+-0 %" (within half a percent), "from 0" (old's mean was 0).
std::string relative_text(const OperationChange& c) {
  const std::optional<double> r = c.relative();
  if (!r) return "from 0";
  if (std::fabs(*r * 100) < 0.5) return "+-0 %";
  return fmt::format("{:+.0f} %", *r * 100);
}

// A signed time in the unit that keeps it short: "+5.21 us", "-1.2 ms", "+3.1 s".
std::string change_time(double us) {
  const double magnitude = std::fabs(us);
  if (!std::isfinite(us)) return "-";
  if (magnitude >= 1e6) return fmt::format("{:+.3g} s", us / 1e6);
  if (magnitude >= 1e3) return fmt::format("{:+.3g} ms", us / 1e3);
  return fmt::format("{:+.3g} us", us);
}

}  // namespace

std::string wrapped(std::string_view first, std::string_view text, std::size_t indent,
                    std::size_t width) {
  std::string out(first), line_start_pad(indent, ' ');
  std::size_t column = first.size();
  bool line_empty = true;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string_view word = text.substr(at, end - at);
    if (!line_empty && column + 1 + word.size() > width) {
      out += "\n" + line_start_pad;
      column = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    line_empty = false;
    at = end + 1;
  }
  return out + "\n";
}

std::string change_text(const ChangeAttribution& a,
                        const std::function<std::string(std::string_view)>& quote) {
  std::string text;
  for (const OperationChange& op : a.operations) {
    if (text.empty()) {
      text = fmt::format("{} {} per file ({})", quote(op.name), relative_text(op),
                         change_time(op.change_us()));
    } else {
      text += fmt::format(", {} {}", quote(op.name), relative_text(op));
    }
  }
  return text + fmt::format("{}latency {} ({})", text.empty() ? "" : "; ", relative_text(a.latency),
                            change_time(a.latency.change_us()));
}

}  // namespace mpiwrite
