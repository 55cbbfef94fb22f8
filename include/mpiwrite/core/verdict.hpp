#pragma once
// Which of two series of times is faster, decided by a test and a noise threshold, never by
// the lower mean alone. Used by --compare's winner and by mpiwrite-compare. Pure.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/statistics.hpp"

namespace mpiwrite {

// A significant difference smaller than this (ratio of medians within 1 +- it) is still
// called no clear difference: a real but negligible effect (criterion.rs's noise threshold).
inline constexpr double kNoiseThreshold = 0.02;

enum class Outcome {
  AFaster,            // a is significantly faster than b, by more than the noise threshold
  BFaster,            // the other way round
  NoDifference,       // p >= alpha: the series cannot be told apart
  BelowNoise,         // p < alpha but the ratio of medians is within the noise threshold
  TooFewRepetitions,  // no outcome could reach alpha with these counts (smallest_p >= alpha)
};

struct Verdict {
  Outcome outcome = Outcome::NoDifference;
  MannWhitney test;  // x = a, y = b
  // median(b) / median(a): how many times faster a is than b (> 1: a faster), with its
  // bootstrap interval ratio_of_medians_interval(b, a, seed) (empty when a median is 0).
  // With median(a) = 0 the ratio is 1 if median(b) is 0 too, else infinite (never NaN).
  double ratio = 1;
  std::optional<Interval> ratio_ci;
  std::size_t repetitions_needed = 0;  // with TooFewRepetitions: per series, for alpha
};

// a, b: times (seconds) of repetitions, in the order measured; both not empty. In this order:
// TooFewRepetitions when smallest_p_value(na, nb) >= alpha (with repetitions_needed), else
// NoDifference when the test's p >= alpha, else BelowNoise when |ratio - 1| <= noise (or the
// medians are equal), else AFaster or BFaster, whichever median is the smaller. The test,
// the ratio and its interval are filled in for every outcome.
Verdict decide(const std::vector<double>& a, const std::vector<double>& b, std::uint64_t seed,
               double alpha = kSignificanceLevel, double noise = kNoiseThreshold);

// "a faster", "b faster", "no significant difference", "below noise threshold",
// "too few repetitions".
const char* outcome_name(Outcome outcome);

}  // namespace mpiwrite
