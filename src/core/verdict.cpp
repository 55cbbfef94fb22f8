#include "mpiwrite/core/verdict.hpp"

#include <cmath>

namespace mpiwrite {

namespace {

// 0 / 0 is the one ratio IEEE makes NaN: two series of zero times are equally fast.
double ratio_of(double numerator, double denominator) {
  if (numerator == 0 && denominator == 0) return 1;
  return numerator / denominator;
}

}  // namespace

Verdict decide(const std::vector<double>& a, const std::vector<double>& b, std::uint64_t seed,
               double alpha, double noise) {
  Verdict v;
  v.test = mann_whitney(a, b);
  const double median_a = median_of(a), median_b = median_of(b);
  v.ratio = ratio_of(median_b, median_a);
  v.ratio_ci = ratio_of_medians_interval(b, a, seed);
  // Asked first: with too few repetitions "no difference" would be a foregone conclusion, not
  // a finding.
  if (smallest_p_value(a.size(), b.size()) >= alpha) {
    v.outcome = Outcome::TooFewRepetitions;
    v.repetitions_needed = repetitions_for_significance(alpha);
  } else if (v.test.p_value >= alpha) {
    v.outcome = Outcome::NoDifference;
  } else if (std::abs(v.ratio - 1) <= noise || median_a == median_b) {
    // Equal medians with a significant test (the spreads differ): neither is the faster.
    v.outcome = Outcome::BelowNoise;
  } else {
    v.outcome = median_a < median_b ? Outcome::AFaster : Outcome::BFaster;
  }
  return v;
}

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::AFaster:
      return "a faster";
    case Outcome::BFaster:
      return "b faster";
    case Outcome::NoDifference:
      return "no significant difference";
    case Outcome::BelowNoise:
      return "below noise threshold";
    case Outcome::TooFewRepetitions:
      return "too few repetitions";
  }
  return "unknown outcome";  // only for a value outside the enum
}

}  // namespace mpiwrite
