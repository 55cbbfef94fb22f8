#include "mpiwrite/core/histogram.hpp"

#include <algorithm>
#include <cmath>

namespace mpiwrite {

std::uint64_t LatencyHistogram::bucket_upper_ns(std::size_t bucket) {
  if (bucket < kSubBuckets) return bucket;
  const unsigned msb = static_cast<unsigned>(bucket / kSubBuckets) + kSubBucketBits - 1;
  const unsigned shift = msb - kSubBucketBits;
  const std::uint64_t sub = bucket % kSubBuckets;
  const std::uint64_t lower = (kSubBuckets + sub) << shift;
  return lower + ((std::uint64_t{1} << shift) - 1);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t i = 0; i < kBuckets; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  total_ns_ += other.total_ns_;
  max_ns_ = std::max(max_ns_, other.max_ns_);
}

std::uint64_t LatencyHistogram::percentile_ns(double q) const {
  if (count_ == 0) return 0;
  const auto wanted =
      static_cast<std::uint64_t>(std::max(1.0, std::ceil(q * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i];
    if (seen >= wanted) return std::min(bucket_upper_ns(i), max_ns_);
  }
  return max_ns_;
}

}  // namespace mpiwrite
