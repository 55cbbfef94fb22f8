#pragma once
// Where writer threads get their files: up front (block, cyclic, or lists of parts such as a
// shuffled order) or on demand (dynamic). Pure:
// the MPI-wide dynamic source (a counter on rank 0) lives in mpi/shared_counter.hpp.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/partition.hpp"

namespace mpiwrite {

// Where a writer thread gets its files. next() is called by every writer thread concurrently
// until it returns false; it must not allocate on the hot path.
class WorkSource {
 public:
  virtual ~WorkSource() = default;
  virtual bool next(unsigned thread, Progression& chunk) = 0;
};

// Block or cyclic: thread t gets parts[t], once (a RankPlan's thread_writes).
class StaticSource final : public WorkSource {
 public:
  explicit StaticSource(std::vector<Progression> parts);
  // The parts thread_parts(slice, threads, partition) gives (rank_plan.hpp).
  StaticSource(const Progression& slice, unsigned threads, Partition partition);
  bool next(unsigned thread, Progression& chunk) override;

 private:
  std::vector<Progression> parts_;
  std::vector<char> handed_out_;  // one flag per thread, touched only by that thread
};

// Thread t gets the progressions of parts[t] one by one, in order (empty ones skipped): a
// share that is not one progression per thread, as --random-order's shuffled files (one
// progression of count 1 each, shuffled_parts) or a share shifted from another rank after
// --time-limit (a prefix of each of its threads' parts). next() reads and advances only that
// thread's cursor, which sits on its own cache line: it is called once per file when every part
// is one file.
class PartsSource final : public WorkSource {
 public:
  explicit PartsSource(std::vector<std::vector<Progression>> parts);
  bool next(unsigned thread, Progression& chunk) override;

 private:
  struct alignas(64) Cursor {
    std::size_t next = 0;
  };
  std::vector<std::vector<Progression>> parts_;
  std::vector<Cursor> cursors_;
};

// --random-order: the indices of `share` (a rank's files, one or more progressions) in an
// order shuffled by `seed` (Fisher-Yates over SplitMix64: the same order for the same seed on
// every platform), dealt to `threads` threads in contiguous blocks of that order whose sizes
// differ by at most one, each index a progression of count 1: a PartsSource's parts. Every
// index of `share` once. Memory: one Progression (24 bytes) per index, made before the phase.
// Precondition: threads > 0.
std::vector<std::vector<Progression>> shuffled_parts(const std::vector<Progression>& share,
                                                     unsigned threads, std::uint64_t seed);

// The files [first, first + count) of `whole` in order, cut into chunks: the chunk that starts
// at position `start`, or false when start is past the end. Shared by the dynamic sources.
bool chunk_at(const Progression& whole, std::uint64_t start, std::uint64_t chunk, Progression& out);

// Dynamic within one process: an atomic counter over `whole`, `chunk` files per hand-out.
class AtomicCounterSource final : public WorkSource {
 public:
  AtomicCounterSource(const Progression& whole, std::uint64_t chunk);
  bool next(unsigned thread, Progression& out) override;

 private:
  Progression whole_;
  std::uint64_t chunk_;
  std::atomic<std::uint64_t> next_{0};
};

}  // namespace mpiwrite
