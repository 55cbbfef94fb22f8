#pragma once
// The timed repetitions of one point as rank 0 keeps them until the report. Pure.
//
// Only what cannot be derived is stored: per repetition its latency figures (56 bytes) and its
// operations' (4 x 56: create, writes, fsync, close; with --verify also its verify figures, 24
// bytes; with --time-limit its limit figures, 24 bytes; with --phases each other phase's figures
// whole, with its own per-rank list of ~40 bytes a rank) and per rank of the point its start, time,
// files and bytes (32 bytes). The rest of a RepetitionFigures (slowest, fastest, mean, imbalance,
// totals, rates, rank numbers, index) is rebuilt by summarize_repetition when a reporter reads it,
// so it is exactly what was pushed. A RepetitionFigures kept as is cost ~200 bytes plus a heap
// block per repetition; docs/performance.md has the measured figures.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "mpiwrite/core/repetition_figures.hpp"

namespace mpiwrite {

class RepetitionLog {
 public:
  struct RankSample {
    double start_s = 0;
    double elapsed_s = 0;
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
  };
  static constexpr std::size_t kBytesPerRepetition =
      sizeof(LatencyFigures) + sizeof(OperationFigures);
  static constexpr std::size_t kBytesPerVerifiedRepetition = sizeof(VerifyFigures);
  static constexpr std::size_t kBytesPerLimitedRepetition = sizeof(LimitFigures);
  static constexpr std::size_t kBytesPerRank = sizeof(RankSample);

  // Throws std::invalid_argument unless `rep` is what summarize_repetition made of its ranks
  // and latency, its index is size() + 1, its ranks are 0..n-1 in order, and n and `verified`
  // are those of the first repetition: then nothing is lost in keeping it compactly.
  void push_back(const RepetitionFigures& rep);
  // Room for `repetitions` of `ranks` ranks, so the log does not grow by doubling.
  void reserve(std::size_t repetitions, std::size_t ranks);

  std::size_t size() const { return latency_.size(); }
  bool empty() const { return latency_.empty(); }
  RepetitionFigures operator[](std::size_t i) const;  // rebuilt; precondition: i < size()
  RepetitionFigures front() const { return (*this)[0]; }
  RepetitionFigures back() const { return (*this)[size() - 1]; }
  double makespan_s(std::size_t i) const;    // without rebuilding the repetition
  std::uint64_t files(std::size_t i) const;  // the same for its files (over its ranks)
  LimitFigures limit(std::size_t i) const {  // and its --time-limit figures ({} without)
    return limited_ ? limit_[i] : LimitFigures{};
  }

  // Iterates rebuilt repetitions by value: `for (const RepetitionFigures& rep : log)`.
  class iterator {
   public:
    using value_type = RepetitionFigures;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const RepetitionLog* log, std::size_t i) : log_(log), i_(i) {}
    RepetitionFigures operator*() const { return (*log_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++i_;
      return before;
    }
    bool operator==(const iterator& other) const { return i_ == other.i_; }

   private:
    const RepetitionLog* log_ = nullptr;
    std::size_t i_ = 0;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, size()}; }

 private:
  std::size_t ranks_ = 0;                     // per repetition, from the first
  bool verified_ = false;                     // from the first
  bool limited_ = false;                      // --time-limit, from the first
  std::vector<RankSample> samples_;           // ranks_ per repetition, in rank order
  std::vector<LatencyFigures> latency_;       // one per repetition
  std::vector<OperationFigures> operations_;  // one per repetition
  std::vector<VerifyFigures> verify_;         // one per repetition with --verify, else empty
  std::vector<LimitFigures> limit_;           // one per repetition with --time-limit, else empty
  // --phases: the other phases' figures, phases_per_repetition_ per repetition (from the
  // first), kept whole: about 330 bytes each.
  std::size_t phases_per_repetition_ = 0;
  std::vector<PhaseFigures> phases_;
};

}  // namespace mpiwrite
