#include "mpiwrite/core/histogram.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace mpiwrite {
namespace {

TEST(LatencyHistogram, SmallValuesAreExact) {
  for (std::uint64_t v = 0; v < 16; ++v) {
    EXPECT_EQ(LatencyHistogram::bucket_of(v), v);
    EXPECT_EQ(LatencyHistogram::bucket_upper_ns(v), v);
  }
}

TEST(LatencyHistogram, EveryValueLiesInItsBucketWithinOneSixteenth) {
  std::uint64_t previous_bucket = 0;
  for (std::uint64_t v = 1; v < (std::uint64_t{1} << 62); v += v / 7 + 1) {
    const std::size_t b = LatencyHistogram::bucket_of(v);
    ASSERT_LT(b, LatencyHistogram::kBuckets);
    ASSERT_GE(b, previous_bucket);  // monotonic
    previous_bucket = b;
    const std::uint64_t upper = LatencyHistogram::bucket_upper_ns(b);
    ASSERT_GE(upper, v);
    ASSERT_LE(static_cast<double>(upper - v), static_cast<double>(v) / 16.0) << v;
    if (b > 0) {
      ASSERT_LT(LatencyHistogram::bucket_upper_ns(b - 1), v);
    }
  }
  EXPECT_EQ(LatencyHistogram::bucket_of(UINT64_MAX), LatencyHistogram::kBuckets - 1);
}

TEST(LatencyHistogram, PercentilesOfAKnownSet) {
  LatencyHistogram h;
  for (std::uint64_t v = 1; v <= 100; ++v) h.record(v * 1000);  // 1..100 µs
  EXPECT_EQ(h.count(), 100u);
  EXPECT_EQ(h.max_ns(), 100'000u);
  EXPECT_EQ(h.total_ns(), 5'050'000u);
  // The true p50 is 50 µs, p90 90 µs, p99 99 µs; each is reported at most 6.25% high.
  for (auto [q, truth] : {std::pair{0.5, 50'000.0}, {0.9, 90'000.0}, {0.99, 99'000.0}}) {
    const auto p = static_cast<double>(h.percentile_ns(q));
    EXPECT_GE(p, truth);
    EXPECT_LE(p, truth * 1.0625);
  }
  EXPECT_EQ(h.percentile_ns(1.0), 100'000u);  // capped at the exact maximum
}

TEST(LatencyHistogram, MergeEqualsRecordingEverythingInOne) {
  LatencyHistogram a, b, all;
  for (std::uint64_t v = 1; v < 5000; v += 3) {
    (v % 2 ? a : b).record(v * 37);
    all.record(v * 37);
  }
  a.merge(b);
  EXPECT_EQ(a.counts(), all.counts());
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.total_ns(), all.total_ns());
  EXPECT_EQ(a.max_ns(), all.max_ns());
  EXPECT_EQ(a.percentile_ns(0.99), all.percentile_ns(0.99));
}

TEST(LatencyHistogram, EmptyReportsZero) { EXPECT_EQ(LatencyHistogram{}.percentile_ns(0.5), 0u); }

}  // namespace
}  // namespace mpiwrite
