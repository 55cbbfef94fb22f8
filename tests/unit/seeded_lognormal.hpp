#pragma once
// Seeded lognormal series for the statistical tests: the test's own Box–Muller normals on
// SplitMix64, so a trial is the same on every platform (std::normal_distribution is not).

#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "mpiwrite/core/split_mix64.hpp"

namespace mpiwrite::testing {

class SeededLognormal {
 public:
  explicit SeededLognormal(std::uint64_t seed) : random_(seed) {}

  // n values median * exp(N(0, spread^2)): times whose spread is `spread` relative.
  std::vector<double> series(std::size_t n, double median, double spread) {
    std::vector<double> values(n);
    for (double& v : values) v = median * std::exp(spread * normal());
    return values;
  }

 private:
  // Uniform in (0, 1): 53 random bits, offset by half a step so the logarithm never sees 0.
  double uniform() { return (static_cast<double>(random_.next() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() {
    return std::sqrt(-2 * std::log(uniform())) * std::cos(2 * std::numbers::pi * uniform());
  }

  SplitMix64 random_;
};

}  // namespace mpiwrite::testing
