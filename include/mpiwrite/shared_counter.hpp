#pragma once
// --partition dynamic across ranks: one 64-bit counter in an MPI-3 window on rank 0 of a
// communicator, advanced with MPI_Fetch_and_op. Every writer thread of every rank takes its
// next chunk from it, so a fast rank or thread takes more and a slow one less; rank 0 writes
// too. Writer threads call MPI, so MPI must provide MPI_THREAD_SERIALIZED: a mutex per rank
// keeps the calls one at a time. When the ranks span nodes, rank 0's main thread drives MPI
// progress under the same mutex while its writers run, since a one-sided implementation over
// the network may need the target to progress. On one node the window is shared memory and
// nobody polls: polling every 50 µs on every rank cost 20-25% of the write phase on 2 cores.

#include <mpi.h>

#include <boost/mpi/communicator.hpp>
#include <cstdint>
#include <mutex>

#include "mpiwrite/writer.hpp"

namespace mpiwrite {

class SharedCounter {
 public:
  // Collective over `comm`. Throws std::runtime_error without MPI_THREAD_SERIALIZED.
  explicit SharedCounter(const boost::mpi::communicator& comm);
  ~SharedCounter();  // collective: every rank of comm destroys it in the same order
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;

  // Rank 0 sets the counter to zero; the caller's barrier afterwards publishes it.
  void reset();
  // The passive-target epoch around one write phase (MPI_Win_lock_all / unlock_all).
  void begin();
  void end();
  // Adds `amount` and returns the value before. Thread-safe within a rank.
  std::uint64_t fetch_add(std::uint64_t amount);
  // Whether this rank must call progress() while its writers run (rank 0 across nodes).
  bool needs_progress() const { return needs_progress_; }
  // Lets MPI progress (MPI_Iprobe). Thread-safe within a rank.
  void progress();

 private:
  MPI_Comm comm_;
  MPI_Win window_ = MPI_WIN_NULL;
  std::uint64_t* base_ = nullptr;
  bool needs_progress_ = false;
  std::mutex mutex_;
};

// The files of `whole` in chunks from a SharedCounter, for the writers.
class SharedCounterSource final : public WorkSource {
 public:
  SharedCounterSource(SharedCounter& counter, const Progression& whole, std::uint64_t chunk)
      : counter_(counter), whole_(whole), chunk_(chunk) {}
  bool next(unsigned /*thread*/, Progression& out) override {
    return chunk_at(whole_, counter_.fetch_add(chunk_), chunk_, out);
  }

 private:
  SharedCounter& counter_;
  Progression whole_;
  std::uint64_t chunk_;
};

}  // namespace mpiwrite
