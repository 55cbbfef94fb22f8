#pragma once
// Where writer threads get their files: up front (block, cyclic) or on demand (dynamic). Pure:
// the MPI-wide dynamic source (a counter on rank 0) lives in mpi/shared_counter.hpp.

#include <atomic>
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

// Thread t gets the progressions parts[t] one by one (the later phases' shares:
// phase_share.hpp), in order; no allocation in next().
class PartsSource final : public WorkSource {
 public:
  explicit PartsSource(std::vector<std::vector<Progression>> parts);
  bool next(unsigned thread, Progression& chunk) override;

 private:
  std::vector<std::vector<Progression>> parts_;
  std::vector<std::size_t> next_;  // per thread, touched only by that thread
};

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
