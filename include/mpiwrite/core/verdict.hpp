#pragma once
// Which of two series of times is faster, or whether they are equivalent, decided by a test, a
// bootstrap interval and a threshold D (--equivalence), never by the lower mean alone. Used by
// --compare's winner and by mpiwrite-compare. Pure.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/statistics.hpp"

namespace mpiwrite {

// A significant difference smaller than this (ratio of medians within 1 +- it) is still
// called no clear difference: a real but negligible effect (criterion.rs's noise threshold).
// The default of --equivalence D, which is the same threshold: a ratio of medians whose 95 %
// interval lies inside [1 - D, 1 + D] makes the two series equivalent within +-D.
inline constexpr double kNoiseThreshold = 0.02;

enum class Outcome {
  AFaster,            // a is significantly faster than b, by more than the noise threshold
  BFaster,            // the other way round
  NoDifference,       // p >= alpha: the series cannot be told apart
  BelowNoise,         // p < alpha but the ratio of medians is within the noise threshold
  TooFewRepetitions,  // no outcome could reach alpha with these counts (smallest_p >= alpha)
  Equivalent,         // the ratio's interval lies inside [1 - D, 1 + D]: equal within +-D
};

// The three answers a user reads: one is faster, the two are equivalent within +-D, or the data
// cannot tell (NoDifference, BelowNoise and TooFewRepetitions are kinds of undecided: not
// enough data, or a difference too small to call faster but too uncertain to call equivalent).
enum class VerdictClass { Faster, Equivalent, Undecided };
VerdictClass verdict_class(Outcome outcome);
const char* verdict_class_name(VerdictClass c);  // "faster", "equivalent", "undecided"

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

// a, b: times (seconds) of repetitions, in the order measured; both not empty. `noise` is D
// (--equivalence). In this order: TooFewRepetitions when smallest_p_value(na, nb) >= alpha
// (with repetitions_needed), else AFaster or BFaster (whichever median is the smaller) when the
// test's p < alpha, |ratio - 1| > noise and the medians differ, else Equivalent when the ratio's
// interval lies inside [1 - noise, 1 + noise], else NoDifference when p >= alpha, else
// BelowNoise. The test, the ratio and its interval are filled in for every outcome.
Verdict decide(const std::vector<double>& a, const std::vector<double>& b, std::uint64_t seed,
               double alpha = kSignificanceLevel, double noise = kNoiseThreshold);

// Whether an interval of a ratio lies inside [1 - d, 1 + d] (both ends included).
bool within_equivalence(const std::optional<Interval>& ratio_ci, double d);

// "a faster", "b faster", "no significant difference", "below noise threshold",
// "too few repetitions", "equivalent".
const char* outcome_name(Outcome outcome);

}  // namespace mpiwrite
