#pragma once
// A fixed log-scale latency histogram: mergeable across threads and ranks by plain addition of
// its counts (an MPI_SUM reduction), so percentiles come from every file of the run.
//
// Values are nanoseconds. Values below 16 have a bucket each; above, every power of two is cut
// into 16 equal sub-buckets, so a bucket's width is at most 1/16 of its lower bound and a
// reported percentile (the bucket's upper bound, capped at the exact maximum) is at most 6.25%
// above the true value.

#include <array>
#include <bit>
#include <cstdint>

namespace mpiwrite {

class LatencyHistogram {
 public:
  static constexpr unsigned kSubBucketBits = 4;
  static constexpr std::size_t kBuckets = 976;  // index of UINT64_MAX is 975
  static constexpr std::uint64_t kSubBuckets = std::uint64_t{1} << kSubBucketBits;

  // Inline: the engines record a value per file, and a call per value was measurable against
  // a 2 us stat on tmpfs (bench section floor).
  static std::size_t bucket_of(std::uint64_t value_ns) {
    if (value_ns < kSubBuckets) return static_cast<std::size_t>(value_ns);
    const unsigned msb = 63u - static_cast<unsigned>(std::countl_zero(value_ns));  // >= 4
    const unsigned shift = msb - kSubBucketBits;
    const std::uint64_t sub = (value_ns >> shift) & (kSubBuckets - 1);
    return static_cast<std::size_t>((msb - kSubBucketBits + 1) * kSubBuckets + sub);
  }
  static std::uint64_t bucket_upper_ns(std::size_t bucket);

  void record(std::uint64_t value_ns) {
    ++counts_[bucket_of(value_ns)];
    ++count_;
    total_ns_ += value_ns;
    if (value_ns > max_ns_) max_ns_ = value_ns;
  }
  void merge(const LatencyHistogram& other);

  std::uint64_t count() const { return count_; }
  std::uint64_t max_ns() const { return max_ns_; }
  std::uint64_t total_ns() const { return total_ns_; }
  // Smallest bucket upper bound below which at least fraction q of the values fall, capped at
  // max_ns(). 0 for an empty histogram. Precondition: 0 < q <= 1.
  std::uint64_t percentile_ns(double q) const;

  // Raw access for the MPI reduction (counts and total are summed, max is maxed).
  std::array<std::uint64_t, kBuckets>& counts() { return counts_; }
  const std::array<std::uint64_t, kBuckets>& counts() const { return counts_; }
  void set_totals(std::uint64_t count, std::uint64_t total_ns, std::uint64_t max_ns) {
    count_ = count;
    total_ns_ = total_ns;
    max_ns_ = max_ns;
  }

 private:
  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t count_ = 0;
  std::uint64_t total_ns_ = 0;
  std::uint64_t max_ns_ = 0;
};

}  // namespace mpiwrite
