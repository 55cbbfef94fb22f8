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
  } else if (v.test.p_value < alpha && std::abs(v.ratio - 1) > noise && median_a != median_b) {
    // (Equal medians with a significant test, the spreads differing, make neither faster.)
    v.outcome = median_a < median_b ? Outcome::AFaster : Outcome::BFaster;
  } else if (within_equivalence(v.ratio_ci, noise)) {
    // Asked of the interval, not of the test: "not significant" is absence of evidence, and
    // only a narrow interval around 1 is evidence of equality (two one-sided tests, TOST).
    v.outcome = Outcome::Equivalent;
  } else if (v.test.p_value >= alpha) {
    v.outcome = Outcome::NoDifference;
  } else {
    v.outcome = Outcome::BelowNoise;
  }
  return v;
}

bool within_equivalence(const std::optional<Interval>& ratio_ci, double d) {
  return ratio_ci && ratio_ci->low >= 1 - d && ratio_ci->high <= 1 + d;
}

VerdictClass verdict_class(Outcome outcome) {
  switch (outcome) {
    case Outcome::AFaster:
    case Outcome::BFaster:
      return VerdictClass::Faster;
    case Outcome::Equivalent:
      return VerdictClass::Equivalent;
    case Outcome::NoDifference:
    case Outcome::BelowNoise:
    case Outcome::TooFewRepetitions:
      break;
  }
  return VerdictClass::Undecided;
}

const char* verdict_class_name(VerdictClass c) {
  switch (c) {
    case VerdictClass::Faster:
      return "faster";
    case VerdictClass::Equivalent:
      return "equivalent";
    case VerdictClass::Undecided:
      break;
  }
  return "undecided";
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
    case Outcome::Equivalent:
      return "equivalent";
  }
  return "unknown outcome";  // only for a value outside the enum
}

}  // namespace mpiwrite
