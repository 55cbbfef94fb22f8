#pragma once
// --partition dynamic across ranks: one 64-bit counter on rank 0 of a communicator. Every
// writer thread of every rank takes its next chunk from it, so a fast rank or thread takes
// more and a slow one less; rank 0 writes too. Two implementations, chosen collectively:
//
// - All ranks on one node: an MPI-3 window (osc sm, shared memory) advanced with
//   MPI_Fetch_and_op; nobody polls (polling every 50 µs on every rank cost 20-25% of the
//   write phase on 2 cores).
// - Ranks on several nodes: messages. Rank 0's writers take chunks from an atomic; every other
//   rank sends a request and rank 0's main thread, which polls while its writers run, answers
//   it. Why not the window here: Open MPI 4.1's osc rdma needs a network with RDMA atomics
//   (btl tcp has neither get nor atomics), and Debian disables osc pt2pt in
//   /etc/openmpi/openmpi-mca-params.conf ("osc = ^ucx,pt2pt"), so over TCP MPI_Win_allocate
//   fails with MPI_ERR_WIN. Boost.MPI sets MPI_ERRORS_RETURN, and that error, unchecked, left
//   a null window whose every MPI_Fetch_and_op failed and handed out chunk 0 again and again
//   (issue 10). Two-sided messages work over any network and any osc configuration.
//
// Writer threads call MPI, so MPI must provide MPI_THREAD_SERIALIZED: a mutex per rank keeps
// the calls one at a time. Every MPI call is checked; a failure throws.

#include <mpi.h>

#include <boost/mpi/communicator.hpp>
#include <cstdint>
#include <memory>
#include <mutex>

#include "mpiwrite/core/work_source.hpp"

namespace mpiwrite {

class SharedCounter {
 public:
  // Collective over `comm`. Throws std::runtime_error without MPI_THREAD_SERIALIZED or when
  // MPI cannot make the counter.
  static std::unique_ptr<SharedCounter> create(const boost::mpi::communicator& comm);
  virtual ~SharedCounter() = default;  // collective: every rank destroys it in the same order

  // Before the barrier that starts a write phase: rank 0 sets the counter to zero; the
  // barrier publishes it.
  virtual void reset() = 0;
  // After that barrier, on every rank: one write phase of `threads` writer threads, each
  // taking `chunk` files at a time from `total`.
  virtual void begin(unsigned threads, std::uint64_t chunk, std::uint64_t total) = 0;
  // The start of writer thread `thread`'s next chunk (>= total: none left). Called
  // concurrently by the writer threads, each with its own `thread`; no allocation.
  virtual std::uint64_t next_start(unsigned thread) = 0;
  // After this rank's writers have finished, on every rank: ends the phase. Rank 0 returns
  // once every rank is done with the counter.
  virtual void end() = 0;
  // Whether this rank must call progress() while its writers run.
  virtual bool needs_progress() const = 0;
  // Lets MPI progress, or serves other ranks' requests. Main thread only.
  virtual void progress() = 0;
  // The mutex this rank's writer threads hold around their MPI calls (MPI_THREAD_SERIALIZED),
  // which the main thread takes for its own MPI calls while they write (--progress); null
  // when the writers call no MPI.
  virtual std::mutex* mpi_lock() { return nullptr; }
};

// The files of `whole` in chunks from a SharedCounter, for the writers.
class SharedCounterSource final : public WorkSource {
 public:
  SharedCounterSource(SharedCounter& counter, const Progression& whole, std::uint64_t chunk)
      : counter_(counter), whole_(whole), chunk_(chunk) {}
  bool next(unsigned thread, Progression& out) override {
    return chunk_at(whole_, counter_.next_start(thread), chunk_, out);
  }

 private:
  SharedCounter& counter_;
  Progression whole_;
  std::uint64_t chunk_;
};

}  // namespace mpiwrite
