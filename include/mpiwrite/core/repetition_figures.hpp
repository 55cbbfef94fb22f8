#pragma once
// Pure statistics: per-repetition figures from per-rank results. The summary over
// repetitions (SeriesSummary, summarize_series) is in statistics.hpp, included here for the
// reporters that use both. Nothing here prints; reporters format what these compute.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mpiwrite/core/histogram.hpp"
#include "mpiwrite/core/operation_latency.hpp"
#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/statistics.hpp"

namespace mpiwrite {

// What one rank measured in one repetition (its own timed write phase).
struct RankFigures {
  int rank = 0;
  double elapsed_s = 0;     // the rank's own write phase on its steady_clock
  std::uint64_t files = 0;  // files fully written and closed without error
  std::uint64_t bytes = 0;  // bytes in those files
  // When the rank started, seconds after the repetition's common start (the earliest start of
  // any rank, on one time axis: see common_clock.hpp). 0 for the first rank to start.
  double start_s = 0;

  double done_s() const { return start_s + elapsed_s; }  // its end, after the common start
};

struct LatencyFigures {
  double p50_us = 0, p90_us = 0, p99_us = 0, max_us = 0, mean_us = 0;
  std::uint64_t count = 0;     // values recorded (files)
  std::uint64_t total_ns = 0;  // their sum, so that totals can be compared exactly
};
// Per operation of one phase: slot i is operations_of(phase)[i] (phase.hpp). For the write
// phase that is Operation as the index: create, writes, fsync, close.
inline constexpr std::size_t kMaxPhaseOperations = 4;
using OperationFigures = std::array<LatencyFigures, kMaxPhaseOperations>;

// --verify after one repetition's write phase.
struct VerifyFigures {
  double elapsed_s = 0;  // the slowest rank's verify phase
  std::uint64_t files_checked = 0;
  std::uint64_t mismatches = 0;
};

// --time-limit on one repetition's write phase (docs/metrics.md "Time-limited write phases").
struct LimitFigures {
  bool applied = false;              // the phase ran under --time-limit
  bool cut_short = false;            // and the limit stopped a writer before its share was written
  std::uint64_t files_at_limit = 0;  // files written when the writers stopped (before --wear-out)
  std::uint64_t files_asked = 0;     // the files the phase would have written without the limit
};

// One phase of one repetition other than the write phase (--phases: tree-create, stat, read,
// remove, tree-remove), timed as the write phase is: from the common start of its ranks (the
// earliest start after the barrier) to the last rank's end, on one time axis. Its items are
// files, or directories for the tree phases (counts_directories).
struct PhaseFigures {
  Phase phase = Phase::Stat;
  double makespan_s = 0;
  double first_done_s = 0;
  double start_spread_s = 0;
  double slowest_s = 0;
  double fastest_s = 0;
  double imbalance = 1;        // slowest / fastest rank's own time
  std::uint64_t items = 0;     // files (or directories) done, over ranks
  std::uint64_t bytes = 0;     // bytes read (the read phase), else 0
  double items_per_s = 0;      // items / makespan_s
  double mib_per_s = 0;        // bytes / 2^20 / makespan_s
  LatencyFigures latency;      // per item, from the merged histogram
  OperationFigures operations{};  // slot i: operations_of(phase)[i]
  bool verified = false;       // the read phase checked content (--verify)
  std::uint64_t mismatches = 0;
  // Every rank's own: its start after the common start, its time, its items (in `files`) and
  // bytes, in rank order (JSON phases.<name>.per_rank). Empty in write_phase(): the write
  // phase's are the repetition's own `ranks`, reported once.
  std::vector<RankFigures> ranks;
};

// The phase's figures from every rank's clock sample on one axis and the merged histograms.
// Precondition: ranks is not empty.
PhaseFigures summarize_phase(Phase phase, const std::vector<RankFigures>& ranks,
                             const LatencyHistogram& latency,
                             const OperationHistograms& operations);

class AllPhases;

struct RepetitionFigures {
  unsigned index = 0;  // 1-based, warm-ups not counted
  // The job's write phase: from the common start (the earliest rank start) to the last rank's
  // end. The headline time: a rank started late cannot shorten it.
  double makespan_s = 0;
  double first_done_s = 0;    // the earliest rank end, after the common start
  double start_spread_s = 0;  // the latest rank start, after the common start
  double slowest_s = 0;       // the ranks' own durations: the longest,
  double fastest_s = 0;       // the shortest,
  double mean_s = 0;          // and their mean
  double imbalance = 0;       // slowest / fastest (1 = perfectly balanced)
  std::uint64_t files = 0;    // total over ranks
  std::uint64_t bytes = 0;
  double files_per_s = 0;         // files / makespan_s
  double mib_per_s = 0;           // bytes / 2^20 / makespan_s
  LatencyFigures latency;         // per file, open to close, from the merged histogram
  OperationFigures operations{};  // per operation of a file, from the merged histograms
  std::vector<RankFigures> ranks;
  bool verified = false;  // --verify ran; then `verify` holds its figures
  VerifyFigures verify;
  LimitFigures limit;  // `files`, the rates and every rank's files count what was written
  // The other phases of the repetition (--phases), in the order they ran; empty by default.
  std::vector<PhaseFigures> phases;
  // The write phase's figures as a phase's, for reporters that walk every phase alike.
  PhaseFigures write_phase() const;
  // Every phase of the repetition in the order they ran, the write phase among them: a view,
  // cheap to take once per row (AllPhases). Not of a temporary (RepetitionLog's elements are
  // made on access): the view would outlive it.
  AllPhases all_phases() const&;
  AllPhases all_phases() const&& = delete;
};

// Every phase of one repetition in the order they ran: tree-create (first in `phases` when it
// ran), the write phase, then the rest of `phases`. A view of the repetition, which must
// outlive it: taking it copies and allocates nothing, and phase k is a copy of one element of
// `phases` (its per-rank list too) or the write phase's figures assembled on access
// (write_phase()).
class AllPhases {
 public:
  explicit AllPhases(const RepetitionFigures& rep)
      : rep_(&rep),
        write_at_(!rep.phases.empty() && rep.phases.front().phase == Phase::TreeCreate ? 1 : 0) {}

  std::size_t size() const { return rep_->phases.size() + 1; }
  // Precondition: k < size().
  PhaseFigures operator[](std::size_t k) const { return at(*rep_, write_at_, k); }

  // Holds what the view holds, so it stays valid when the view itself is gone.
  class Iterator {
   public:
    using value_type = PhaseFigures;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    Iterator(const RepetitionFigures& rep, std::size_t write_at, std::size_t k)
        : rep_(&rep), write_at_(write_at), k_(k) {}
    PhaseFigures operator*() const { return at(*rep_, write_at_, k_); }
    Iterator& operator++() {
      ++k_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++k_;
      return before;
    }
    bool operator==(const Iterator& other) const { return k_ == other.k_; }

   private:
    const RepetitionFigures* rep_ = nullptr;
    std::size_t write_at_ = 0;
    std::size_t k_ = 0;
  };
  Iterator begin() const { return {*rep_, write_at_, 0}; }
  Iterator end() const { return {*rep_, write_at_, size()}; }

 private:
  static PhaseFigures at(const RepetitionFigures& rep, std::size_t write_at, std::size_t k) {
    if (k == write_at) return rep.write_phase();
    return rep.phases[k < write_at ? k : k - 1];
  }

  const RepetitionFigures* rep_;
  std::size_t write_at_;  // the write phase's position: after tree-create
};

inline AllPhases RepetitionFigures::all_phases() const& { return AllPhases(*this); }

// The latency figures of the merged histogram of a repetition.
LatencyFigures latency_figures(const LatencyHistogram& merged);
OperationFigures operation_figures(const OperationHistograms& merged, Phase phase = Phase::Write);

// Precondition: ranks is not empty. Everything but the ranks and the latency is derived, so a
// repetition can be kept as just those (RepetitionLog) and rebuilt exactly.
RepetitionFigures summarize_repetition(unsigned index, std::vector<RankFigures> ranks,
                                       const LatencyFigures& latency);
RepetitionFigures summarize_repetition(unsigned index, std::vector<RankFigures> ranks,
                                       const LatencyHistogram& merged);

}  // namespace mpiwrite
