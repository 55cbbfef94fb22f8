#include "mpiwrite/shared_counter.hpp"

#include <boost/mpi/environment.hpp>
#include <stdexcept>

namespace mpiwrite {

namespace {
constexpr int kOwner = 0;  // the rank whose window holds the counter
}

SharedCounter::SharedCounter(const boost::mpi::communicator& comm) : comm_(comm) {
  if (boost::mpi::environment::thread_level() < boost::mpi::threading::serialized) {
    throw std::runtime_error("--partition dynamic needs MPI_THREAD_SERIALIZED, which this MPI "
                             "library did not provide");
  }
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  const MPI_Aint size = rank == kOwner ? static_cast<MPI_Aint>(sizeof(std::uint64_t)) : 0;
  MPI_Win_allocate(size, sizeof(std::uint64_t), MPI_INFO_NULL, comm_, &base_, &window_);

  // Do all ranks share one node? Then the window is shared memory and needs no progress.
  MPI_Comm node;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0, size_all = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_size(comm_, &size_all);
  MPI_Comm_free(&node);
  int one_node = node_size == size_all ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &one_node, 1, MPI_INT, MPI_LAND, comm_);
  needs_progress_ = rank == kOwner && !one_node;
}

SharedCounter::~SharedCounter() {
  if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
}

void SharedCounter::reset() {
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  if (rank != kOwner) return;
  const std::uint64_t zero = 0;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, kOwner, 0, window_);
  MPI_Put(&zero, 1, MPI_UINT64_T, kOwner, 0, 1, MPI_UINT64_T, window_);
  MPI_Win_unlock(kOwner, window_);
}

void SharedCounter::begin() { MPI_Win_lock_all(0, window_); }

void SharedCounter::end() { MPI_Win_unlock_all(window_); }

std::uint64_t SharedCounter::fetch_add(std::uint64_t amount) {
  std::lock_guard lock(mutex_);
  std::uint64_t before = 0;
  MPI_Fetch_and_op(&amount, &before, MPI_UINT64_T, kOwner, 0, MPI_SUM, window_);
  MPI_Win_flush(kOwner, window_);
  return before;
}

void SharedCounter::progress() {
  std::lock_guard lock(mutex_);
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
}

}  // namespace mpiwrite
