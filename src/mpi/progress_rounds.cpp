// --progress across ranks (progress_rounds.hpp).
#include "mpiwrite/mpi/progress_rounds.hpp"

#include <mpi.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>

#include "mpiwrite/mpi/comm.hpp"

namespace mpiwrite::comm {

namespace {

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("--progress: ") + what + " failed");
}

}  // namespace

ProgressRounds::ProgressRounds(const boost::mpi::communicator& comm, std::mutex* mpi_lock)
    : comm_(MPI_Comm(comm)), size_(static_cast<std::uint64_t>(comm.size())), mpi_lock_(mpi_lock) {}

void ProgressRounds::start(std::uint64_t files, bool done, std::uint64_t total) {
  send_[0] = files;
  send_[1] = done ? 1 : 0;
  send_[2] = total;
  std::optional<std::lock_guard<std::mutex>> lock;
  if (mpi_lock_ != nullptr) lock.emplace(*mpi_lock_);
  check(MPI_Iallreduce(send_, receive_, 3, MPI_UINT64_T, MPI_SUM, comm_, &request_),
        "MPI_Iallreduce");
  outstanding_ = true;
}

bool ProgressRounds::test(ProgressSum& sum) {
  if (!outstanding_) return false;
  int completed = 0;
  {
    std::optional<std::lock_guard<std::mutex>> lock;
    if (mpi_lock_ != nullptr) lock.emplace(*mpi_lock_);
    check(MPI_Test(&request_, &completed, MPI_STATUS_IGNORE), "MPI_Test");
  }
  if (!completed) return false;
  outstanding_ = false;
  sum = {receive_[0], receive_[1], receive_[2]};
  return true;
}

// A rank waits here while others still work: it sleeps between tests, so it takes no CPU
// from them (a blocking MPI wait busy-polls).
// --timeout: the sums do not say who is late, so the watchdog hears every other rank.
void ProgressRounds::wait(ProgressSum& sum) {
  if (test(sum)) return;
  std::optional<CollectiveWait> waiting;
  {
    std::optional<std::lock_guard<std::mutex>> lock;
    if (mpi_lock_ != nullptr) lock.emplace(*mpi_lock_);
    waiting.emplace(comm_);
  }
  while (!test(sum)) std::this_thread::sleep_for(std::chrono::microseconds(200));
  std::optional<std::lock_guard<std::mutex>> lock;
  if (mpi_lock_ != nullptr) lock.emplace(*mpi_lock_);
  waiting.reset();
}

}  // namespace mpiwrite::comm
