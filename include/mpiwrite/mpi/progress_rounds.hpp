#pragma once
// --progress across ranks: rounds of MPI_Iallreduce (sum) of {files done, ranks done, files in
// total} over a phase's communicator, at most one outstanding, as mpifileutils does. Every
// rank must start the same number of rounds: a rank whose work is done keeps starting rounds
// (done = true) until one says every rank is done (finish()). Main thread only, and MPI is
// MPI_THREAD_SERIALIZED: when writer threads call MPI too (the one-node dynamic counter),
// `mpi_lock` is the mutex they hold around their calls.

#include <mpi.h>

#include <boost/mpi/communicator.hpp>
#include <cstdint>
#include <mutex>

namespace mpiwrite::comm {

struct ProgressSum {
  std::uint64_t files = 0;       // done, over the ranks
  std::uint64_t done_ranks = 0;  // ranks whose work is over
  std::uint64_t total = 0;       // files the phase has, over the ranks
};

class ProgressRounds {
 public:
  explicit ProgressRounds(const boost::mpi::communicator& comm, std::mutex* mpi_lock = nullptr);
  // finish() must have run (an outstanding collective cannot be abandoned).
  ~ProgressRounds() = default;
  ProgressRounds(const ProgressRounds&) = delete;
  ProgressRounds& operator=(const ProgressRounds&) = delete;

  bool outstanding() const { return outstanding_; }
  // Starts a round with this rank's figures. Precondition: none outstanding.
  void start(std::uint64_t files, bool done, std::uint64_t total);
  // Whether the outstanding round has completed (MPI_Test, no wait); its sum goes to `sum`.
  bool test(ProgressSum& sum);
  // After this rank's work: rounds (with done = true) until one says every rank is done,
  // waiting quietly (sleeps between tests, as comm::quiet_barrier). `on_round` sees the sum of
  // every round that completes here, the last one included. Collective.
  // `on_start()` runs before each round finish() starts itself (not for one outstanding).
  template <typename OnRound, typename OnStart>
  void finish(std::uint64_t files, std::uint64_t total, OnRound&& on_round, OnStart&& on_start) {
    ProgressSum sum;
    for (;;) {
      if (!outstanding_) {
        on_start();
        start(files, true, total);
      }
      wait(sum);
      on_round(sum);
      if (all_done(sum)) return;
    }
  }
  template <typename OnRound>
  void finish(std::uint64_t files, std::uint64_t total, OnRound&& on_round) {
    finish(files, total, std::forward<OnRound>(on_round), [] {});
  }
  bool all_done(const ProgressSum& sum) const { return sum.done_ranks == size_; }

 private:
  void wait(ProgressSum& sum);

  MPI_Comm comm_;
  std::uint64_t size_;
  std::mutex* mpi_lock_;
  MPI_Request request_ = MPI_REQUEST_NULL;
  bool outstanding_ = false;
  std::uint64_t send_[3] = {0, 0, 0};
  std::uint64_t receive_[3] = {0, 0, 0};
};

}  // namespace mpiwrite::comm
