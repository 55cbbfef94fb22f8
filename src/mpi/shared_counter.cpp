// SharedCounter::create and the one-node implementation: an MPI-3 window on rank 0, which on
// one node Open MPI places in shared memory (osc sm).
#include "mpiwrite/mpi/shared_counter.hpp"

#include <fmt/format.h>

#include <boost/mpi/environment.hpp>
#include <mutex>
#include <stdexcept>
#include <string_view>

#include "counters.hpp"

namespace mpiwrite {

namespace counters {

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw std::runtime_error(fmt::format("--partition dynamic: {} failed: {}", what,
                                       std::string_view(text, static_cast<std::size_t>(length))));
}

namespace {

constexpr int kOwner = 0;  // the rank whose window holds the counter

// MPI_Fetch_and_op + MPI_Win_flush in an MPI_Win_lock_all epoch per write phase.
class WindowCounter final : public SharedCounter {
 public:
  explicit WindowCounter(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    const MPI_Aint size = rank_ == kOwner ? static_cast<MPI_Aint>(sizeof(std::uint64_t)) : 0;
    check(MPI_Win_allocate(size, sizeof(std::uint64_t), MPI_INFO_NULL, comm_, &base_, &window_),
          "MPI_Win_allocate");
  }
  ~WindowCounter() override { MPI_Win_free(&window_); }

  void reset() override {
    if (rank_ != kOwner) return;
    const std::uint64_t zero = 0;
    check(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, kOwner, 0, window_), "MPI_Win_lock");
    check(MPI_Put(&zero, 1, MPI_UINT64_T, kOwner, 0, 1, MPI_UINT64_T, window_), "MPI_Put");
    check(MPI_Win_unlock(kOwner, window_), "MPI_Win_unlock");
  }
  void begin(unsigned /*threads*/, std::uint64_t chunk, std::uint64_t /*total*/) override {
    chunk_ = chunk;
    check(MPI_Win_lock_all(0, window_), "MPI_Win_lock_all");
  }
  std::uint64_t next_start(unsigned /*thread*/) override {
    std::lock_guard lock(mutex_);
    std::uint64_t before = 0;
    check(MPI_Fetch_and_op(&chunk_, &before, MPI_UINT64_T, kOwner, 0, MPI_SUM, window_),
          "MPI_Fetch_and_op");
    check(MPI_Win_flush(kOwner, window_), "MPI_Win_flush");
    return before;
  }
  void end() override { check(MPI_Win_unlock_all(window_), "MPI_Win_unlock_all"); }
  bool needs_progress() const override { return false; }  // shared memory needs no target
  void progress() override {}
  std::mutex* mpi_lock() override { return &mutex_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  MPI_Win window_ = MPI_WIN_NULL;
  std::uint64_t* base_ = nullptr;
  std::uint64_t chunk_ = 1;
  std::mutex mutex_;  // MPI_THREAD_SERIALIZED: one writer thread in MPI at a time
};

}  // namespace

std::unique_ptr<SharedCounter> make_window_counter(MPI_Comm comm) {
  return std::make_unique<WindowCounter>(comm);
}

}  // namespace counters

std::unique_ptr<SharedCounter> SharedCounter::create(const boost::mpi::communicator& comm) {
  if (boost::mpi::environment::thread_level() < boost::mpi::threading::serialized) {
    throw std::runtime_error(
        "--partition dynamic needs MPI_THREAD_SERIALIZED, which this MPI "
        "library did not provide");
  }
  // Do all ranks share one node? Every rank must make the same choice.
  MPI_Comm node;
  counters::check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
                  "MPI_Comm_split_type");
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  int one_node = node_size == comm.size() ? 1 : 0;
  counters::check(MPI_Allreduce(MPI_IN_PLACE, &one_node, 1, MPI_INT, MPI_LAND, comm),
                  "MPI_Allreduce");
  return one_node ? counters::make_window_counter(comm) : counters::make_message_counter(comm);
}

}  // namespace mpiwrite
