#pragma once
// Where a file's time goes: one latency histogram per operation of a file (docs/metrics.md,
// "Per-operation latency"), beside the per-file latency (open to close). Pure: the engines
// record into it, src/mpi reduces it like the per-file histogram, reporters name the
// operations by operation_name.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mpiwrite/core/histogram.hpp"

namespace mpiwrite {

// The write phase's, in the order a file goes through them. Create: the openat (with
// --overwrite the open that rewrites); writes: the first write's start to the last write's
// end; fsync (only with --fsync); close. Then the other phases' (phase.hpp, operations_of):
// stat (the statx), open (read-only), reads (the first read's start to the end of file),
// unlink, mkdir, rmdir. A phase's items go through its own operations only.
enum class Operation : std::size_t {
  Create,
  Writes,
  Fsync,
  Close,
  Stat,
  Open,
  Reads,
  Unlink,
  Mkdir,
  Rmdir
};
inline constexpr std::size_t kOperations = 10;
// The write phase's operations, the only ones a write-only run reports.
inline constexpr std::array<Operation, 4> kWriteOperations{Operation::Create, Operation::Writes,
                                                         Operation::Fsync, Operation::Close};

// "create", "writes", "fsync", "close", "stat", "open", "reads", "unlink", "mkdir", "rmdir":
// the names in every report format.
std::string_view operation_name(Operation op);

// One histogram per operation. 10 x 7.8 KiB, kept in the writer thread's result, never
// allocated per file: record() is an index and LatencyHistogram::record.
class OperationHistograms {
 public:
  void record(Operation op, std::uint64_t value_ns) {
    histograms_[static_cast<std::size_t>(op)].record(value_ns);
  }
  void merge(const OperationHistograms& other) {
    for (std::size_t i = 0; i < kOperations; ++i) histograms_[i].merge(other.histograms_[i]);
  }
  LatencyHistogram& operator[](Operation op) { return histograms_[static_cast<std::size_t>(op)]; }
  const LatencyHistogram& operator[](Operation op) const {
    return histograms_[static_cast<std::size_t>(op)];
  }
  // The sum of every operation's total: at most the per-file histogram's total over the same
  // files (the gaps between the operations are the engine's own work and --slow-rank's sleep).
  std::uint64_t total_ns() const {
    std::uint64_t sum = 0;
    for (const LatencyHistogram& h : histograms_) sum += h.total_ns();
    return sum;
  }

 private:
  std::array<LatencyHistogram, kOperations> histograms_{};
};

}  // namespace mpiwrite
