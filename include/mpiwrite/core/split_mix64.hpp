#pragma once
// The bootstrap's random numbers: SplitMix64 (Steele, Lea and Flood 2014; Vigna's reference
// splitmix64.c), with bounded integers drawn by Lemire's multiply-shift with rejection. Both
// are fixed here rather than taken from <random>: std::uniform_int_distribution's output is
// left to the library, and a bootstrap interval must be the same for the same seed on every
// platform and compiler.

#include <cstdint>

namespace mpiwrite {

class SplitMix64 {
 public:
  explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}

  constexpr std::uint64_t next() {
    state_ += 0x9e3779b97f4a7c15u;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound), bound > 0, without the bias of next() % bound: the high word of
  // next() * bound, redrawn while the low word falls in the 2^64 mod bound values that would
  // make some results one draw more likely (Lemire 2019, "Fast random integer generation in
  // an interval"). The rejection test is needed only when the low word is below bound, so the
  // division runs rarely.
  constexpr std::uint64_t below(std::uint64_t bound) {
    Product m = multiply(next(), bound);
    if (m.low < bound) {
      const std::uint64_t rejected = (~bound + 1) % bound;  // 2^64 mod bound
      while (m.low < rejected) m = multiply(next(), bound);
    }
    return m.high;
  }

 private:
  struct Product {
    std::uint64_t high = 0, low = 0;
  };
  // The full 128-bit product in 32-bit halves: portable, where unsigned __int128 is not ISO
  // C++ (-Wpedantic).
  static constexpr Product multiply(std::uint64_t a, std::uint64_t b) {
    constexpr std::uint64_t kLow32 = 0xffffffffu;
    const std::uint64_t a_low = a & kLow32, a_high = a >> 32;
    const std::uint64_t b_low = b & kLow32, b_high = b >> 32;
    const std::uint64_t low_low = a_low * b_low;
    const std::uint64_t high_low = a_high * b_low;
    const std::uint64_t low_high = a_low * b_high;
    const std::uint64_t high_high = a_high * b_high;
    const std::uint64_t middle = (low_low >> 32) + (high_low & kLow32) + low_high;
    return {high_high + (high_low >> 32) + (middle >> 32), (middle << 32) | (low_low & kLow32)};
  }

  std::uint64_t state_;
};

}  // namespace mpiwrite
