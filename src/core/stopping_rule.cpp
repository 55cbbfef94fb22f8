#include "mpiwrite/core/stopping_rule.hpp"

#include <algorithm>
#include <cstdlib>
#include <cctype>
#include <cmath>
#include <string>

#include "mpiwrite/core/statistics.hpp"

namespace mpiwrite {

const char* stopped_by_name(StoppedBy why) {
  switch (why) {
    case StoppedBy::Fixed:
      return "fixed";
    case StoppedBy::Precision:
      return "precision";
    case StoppedBy::Budget:
      return "budget";
    case StoppedBy::Maximum:
      return "maximum";
    case StoppedBy::Interrupted:
      return "interrupted";
  }
  return "unknown";  // only for a value outside the enum
}

std::optional<double> median_precision(const std::vector<double>& times) {
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.empty()) return std::nullopt;
  const std::optional<Interval> ci = median_interval(sorted);
  const double median = quantile_sorted(sorted, 0.5);
  if (!ci || median <= 0) return std::nullopt;
  return (ci->high - ci->low) / 2 / median;
}

std::optional<StoppedBy> should_stop(const StoppingRule& rule,
                                     const std::vector<std::vector<double>>& times,
                                     unsigned rounds, double spent_s) {
  if (rounds >= rule.min_repetitions) {
    const bool precise = std::all_of(times.begin(), times.end(), [&](const auto& t) {
      const std::optional<double> p = median_precision(t);
      return p && *p <= rule.precision;
    });
    if (precise) return StoppedBy::Precision;
  }
  if (rounds >= rule.max_repetitions) return StoppedBy::Maximum;
  // The next round is predicted to cost what a round cost on average: stopping before it,
  // rather than after the budget is overrun, keeps the timed phases within --max-time.
  if (rounds > 0 && spent_s + spent_s / rounds > rule.max_time_s) return StoppedBy::Budget;
  return std::nullopt;
}

std::optional<double> parse_fraction(std::string_view text) {
  bool percent = false;
  if (!text.empty() && text.back() == '%') {
    percent = true;
    text.remove_suffix(1);
  }
  // Only digits and a point: strtod would also take spaces, a sign, "inf", "nan" and hex.
  if (text.empty() || text.find_first_not_of("0123456789.eE-+") != std::string_view::npos ||
      !(std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '.')) {
    return std::nullopt;
  }
  // strtod, not from_chars: GCC 10's libstdc++ has no floating-point from_chars.
  const std::string s(text);
  char* end = nullptr;
  double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(value)) return std::nullopt;
  if (percent) value /= 100;
  if (!(value > 0 && value < 1)) return std::nullopt;
  return value;
}

}  // namespace mpiwrite
