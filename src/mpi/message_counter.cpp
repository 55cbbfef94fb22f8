// The counter across nodes: two-sided messages to rank 0, which need no osc component (see
// shared_counter.hpp for why the window cannot be used over TCP).
//
// Only main threads call MPI here. Writer threads have private descriptor tables (writer.hpp),
// and over TCP an MPI call runs Open MPI's progress engine, which reads and writes its sockets
// by descriptor number: in a writer's table those numbers are missing (readv: Bad file
// descriptor, then a hung job, was seen) or name the writer's own files. So a writer asks its
// rank's main thread, which polls while the writers run (progress(), every ~50 µs):
//
// - Rank 0's writers take chunks from an atomic. Its main thread answers the other ranks'
//   requests, while its writers run and after they finish, until every rank said it is done.
// - On another rank, writer thread t flags its slot; the main thread sends the chunk size to
//   rank 0 with tag kFirstThreadTag + t, receives the start of the chunk with the same tag,
//   and hands it to the writer through the slot.
//
// A hand-out thus costs a network round trip plus polling intervals, so a writer asks for its
// next chunk as soon as it has this one (prefetch) and writes while the request travels.
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>

#include "counters.hpp"
#include "mpiwrite/core/config.hpp"

namespace mpiwrite::counters {

namespace {

constexpr int kOwner = 0;
constexpr int kDoneTag = 1;         // from a rank whose writers are done with this phase
constexpr int kFirstThreadTag = 2;  // a request and its reply, of writer thread t: 2 + t
static_assert(kFirstThreadTag + kMaxThreads <= 32767, "MPI guarantees tags up to 32767 only");

// Sleeps between polls, as the writer pool does: a busy loop would take a core from the ranks
// still writing.
void wait_a_poll_interval() { std::this_thread::sleep_for(std::chrono::microseconds(50)); }

class MessageCounter final : public SharedCounter {
 public:
  explicit MessageCounter(MPI_Comm comm) {
    // A communicator of its own: no other message can match a request or a reply.
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MessageCounter() override { MPI_Comm_free(&comm_); }

  // No request is in flight here: every rank's end() waited for its replies, and rank 0's
  // end() for every rank's done message, before the barrier this precedes.
  void reset() override { value_.store(0, std::memory_order_relaxed); }

  void begin(unsigned threads, std::uint64_t chunk, std::uint64_t total) override {
    chunk_ = chunk;
    total_ = total;
    done_ = 0;
    failed_.store(false);
    if (rank_ == kOwner) return;
    if (threads > slot_count_) {  // outside the timed phase; grows only
      slots_ = std::make_unique<Slot[]>(threads);
      slot_count_ = threads;
    }
    threads_ = threads;
    for (unsigned t = 0; t < threads_; ++t) slots_[t].state.store(kIdle, std::memory_order_relaxed);
  }

  std::uint64_t next_start(unsigned thread) override {
    if (rank_ == kOwner) return value_.fetch_add(chunk_, std::memory_order_relaxed);
    // Sequentially consistent with release_writers(): either it sees this writer's state, or
    // this writer sees failed_ (one load and one store of each per chunk).
    if (failed_.load()) return total_;
    Slot& slot = slots_[thread];
    std::uint32_t state = slot.state.load();
    // A compare-exchange: a kReady that release_writers() stored meanwhile is not overwritten.
    if (state == kIdle && slot.state.compare_exchange_strong(state, kWanted)) state = kWanted;
    while (state != kReady) {  // the main thread stores kReady and wakes this thread
      slot.state.wait(state);
      state = slot.state.load();
    }
    const std::uint64_t start = slot.start;
    // Past the end nothing is left for anyone: stop asking.
    const bool more = kPrefetch && start + chunk_ < total_;
    slot.state.store(more ? kWanted : kIdle);
    return start;
  }

  void end() override {
    if (rank_ == kOwner) {
      while (serve(), done_ < size_ - 1) wait_a_poll_interval();
      return;
    }
    // The writers are done. A request may still be in flight (a prefetch, or a writer that
    // stopped early on a failure or an interrupt): its reply must not arrive in a later phase.
    for (unsigned t = 0; t < threads_; ++t) {
      Slot& slot = slots_[t];
      if (slot.in_flight) check(MPI_Wait(&slot.reply, MPI_STATUS_IGNORE), "MPI_Wait");
      slot.in_flight = false;
    }
    check(MPI_Send(nullptr, 0, MPI_UINT64_T, kOwner, kDoneTag, comm_), "MPI_Send");
  }

  bool needs_progress() const override { return true; }
  void progress() override {
    if (rank_ == kOwner) {
      serve();
      return;
    }
    try {
      relay();
    } catch (...) {  // an MPI error: nobody will relay again, so no writer may wait for one
      release_writers();
      throw;
    }
  }

 private:
  static constexpr std::uint32_t kIdle = 0;    // the writer wants nothing
  static constexpr std::uint32_t kWanted = 1;  // the writer wants its next chunk
  static constexpr std::uint32_t kReady = 2;   // `start` holds it
  // Prefetch is on unless MPIWRITE_NO_PREFETCH is set (for measuring it).
  inline static const bool kPrefetch = std::getenv("MPIWRITE_NO_PREFETCH") == nullptr;

  // One writer thread's hand-out, on its own cache line. `state` is shared by the writer and
  // the main thread; the rest belongs to the main thread, except `start`, which it publishes
  // with kReady.
  struct alignas(64) Slot {
    std::atomic<std::uint32_t> state{kIdle};
    std::uint64_t start = 0;
    std::uint64_t reply_start = 0;  // MPI receives into this
    MPI_Request reply = MPI_REQUEST_NULL;
    bool in_flight = false;
  };

  // After a failed relay: every writer waiting, or about to wait, gets a chunk past the end
  // (it stops), and any later call returns one at once, so that the pool's round ends and the
  // failure is reported instead of a hang (ThreadPool waits for its workers). A slot in kReady
  // keeps its chunk: its writer stores kWanted or kIdle after reading it, then sees failed_.
  void release_writers() {
    failed_.store(true);
    for (unsigned t = 0; t < threads_; ++t) {
      Slot& slot = slots_[t];
      std::uint32_t state = slot.state.load();
      while (state != kReady) {
        slot.start = total_;  // not read by its writer before it sees kReady
        if (slot.state.compare_exchange_weak(state, kReady)) {
          slot.state.notify_one();
          break;
        }
      }
    }
  }

  // Another rank's main thread: hands arrived replies to their writers, then sends the
  // requests writers have flagged.
  void relay() {
    for (unsigned t = 0; t < threads_; ++t) {
      Slot& slot = slots_[t];
      if (!slot.in_flight) continue;
      int arrived = 0;
      check(MPI_Test(&slot.reply, &arrived, MPI_STATUS_IGNORE), "MPI_Test");
      if (!arrived) continue;
      slot.in_flight = false;
      slot.start = slot.reply_start;
      slot.state.store(kReady, std::memory_order_release);
      slot.state.notify_one();
    }
    for (unsigned t = 0; t < threads_; ++t) {
      Slot& slot = slots_[t];
      if (slot.in_flight || slot.state.load(std::memory_order_acquire) != kWanted) continue;
      const int tag = kFirstThreadTag + static_cast<int>(t);
      check(MPI_Irecv(&slot.reply_start, 1, MPI_UINT64_T, kOwner, tag, comm_, &slot.reply),
            "MPI_Irecv");
      // A small blocking send leaves at once (eager).
      check(MPI_Send(&chunk_, 1, MPI_UINT64_T, kOwner, tag, comm_), "MPI_Send");
      slot.in_flight = true;
    }
  }

  // Rank 0's main thread: answers every request that has arrived, and counts done messages.
  void serve() {
    for (;;) {
      int arrived = 0;
      MPI_Status status;
      check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &arrived, &status), "MPI_Iprobe");
      if (!arrived) return;
      std::uint64_t amount = 0;
      check(MPI_Recv(&amount, 1, MPI_UINT64_T, status.MPI_SOURCE, status.MPI_TAG, comm_,
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
      if (status.MPI_TAG == kDoneTag) {
        ++done_;
        continue;
      }
      const std::uint64_t before = value_.fetch_add(amount, std::memory_order_relaxed);
      check(MPI_Send(&before, 1, MPI_UINT64_T, status.MPI_SOURCE, status.MPI_TAG, comm_),
            "MPI_Send");
    }
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::uint64_t chunk_ = 1;
  std::uint64_t total_ = 0;
  std::atomic<bool> failed_{false};  // a relay failed in this phase (release_writers)
  std::atomic<std::uint64_t> value_{0};  // rank 0: the counter
  int done_ = 0;                         // rank 0: ranks done with this phase
  std::unique_ptr<Slot[]> slots_;        // other ranks: one per writer thread
  unsigned slot_count_ = 0;
  unsigned threads_ = 0;  // this phase's writer threads
};

}  // namespace

std::unique_ptr<SharedCounter> make_message_counter(MPI_Comm comm) {
  return std::make_unique<MessageCounter>(comm);
}

}  // namespace mpiwrite::counters
