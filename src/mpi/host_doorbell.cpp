// The per-host doorbell (host_doorbell.hpp).
#include "mpiwrite/mpi/host_doorbell.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <ctime>
#include <exception>
#include <numeric>

namespace mpiwrite::comm {

namespace {

// The words are plain uint32_t in the shared window, each used through std::atomic_ref: it
// must be lock-free (no lock a process could hold) and 4-byte aligned, as the futex needs.
static_assert(std::atomic_ref<std::uint32_t>::is_always_lock_free);
static_assert(std::atomic_ref<std::uint32_t>::required_alignment <= alignof(std::uint32_t));

HostDoorbell*& current_doorbell() {
  static HostDoorbell* doorbell = nullptr;
  return doorbell;
}

std::atomic_ref<std::uint32_t> word(std::uint32_t& w) { return std::atomic_ref<std::uint32_t>(w); }

// FUTEX_WAIT, not FUTEX_WAIT_PRIVATE: the word is shared between processes. The timeout is
// relative. Returns 0 when woken (or the word already differed: EAGAIN), else errno.
int futex_wait(std::uint32_t* address, std::uint32_t seen, std::chrono::milliseconds limit) {
  const auto s = std::chrono::duration_cast<std::chrono::seconds>(limit);
  const timespec timeout{static_cast<time_t>(s.count()),
                         static_cast<long>(std::chrono::nanoseconds(limit - s).count())};
  if (syscall(SYS_futex, address, FUTEX_WAIT, seen, &timeout, nullptr, 0) == 0) return 0;
  return errno == EAGAIN ? 0 : errno;
}

void futex_wake(std::uint32_t* address) {
  syscall(SYS_futex, address, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

}  // namespace

HostDoorbell* HostDoorbell::current() { return current_doorbell(); }

HostDoorbell::HostDoorbell() : previous_(current_doorbell()) {
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank_, MPI_INFO_NULL, &host_);
  int host_size = 1, host_rank = 0, world_size = 1;
  MPI_Comm_size(host_, &host_size);
  MPI_Comm_rank(host_, &host_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  host_size_ = host_size;

  // Which world ranks share this host, and their slots: a local translation, no message.
  std::vector<int> world_ranks(static_cast<std::size_t>(world_size));
  std::iota(world_ranks.begin(), world_ranks.end(), 0);
  host_rank_of_.assign(world_ranks.size(), MPI_UNDEFINED);
  MPI_Group world_group, host_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(host_, &host_group);
  MPI_Group_translate_ranks(world_group, world_size, world_ranks.data(), host_group,
                            host_rank_of_.data());
  MPI_Group_free(&world_group);
  MPI_Group_free(&host_group);

  // The leader (host rank 0) holds every slot of the host; the others map its memory. MPI
  // reports errors here (Boost.MPI sets MPI_ERRORS_RETURN): the host decides together, so
  // that no rank sleeps where its root cannot ring.
  const auto bytes = static_cast<MPI_Aint>(
      host_rank == 0 ? static_cast<std::size_t>(host_size) * sizeof(Slot) : 0);
  Slot* mine = nullptr;
  int ok = MPI_Win_allocate_shared(bytes, sizeof(Slot), MPI_INFO_NULL, host_, &mine, &window_) ==
           MPI_SUCCESS;
  Slot* leader = nullptr;
  if (ok) {
    MPI_Aint leader_bytes = 0;
    int unit = 0;
    ok = MPI_Win_shared_query(window_, 0, &leader_bytes, &unit, &leader) == MPI_SUCCESS &&
         leader != nullptr;
  }
  if (ok && host_rank == 0) std::memset(leader, 0, static_cast<std::size_t>(bytes));
  int all_ok = 0;
  // Also the barrier after which every rank sees the zeroed slots.
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, host_);
  if (all_ok) slots_ = leader;
  current_doorbell() = this;
}

HostDoorbell::~HostDoorbell() {
  current_doorbell() = previous_;
  // Freeing is collective over the host's ranks: a rank unwinding an exception alone (main
  // then aborts the job) would wait here for ranks that never come. It leaves both to the abort.
  if (std::uncaught_exceptions() > 0) return;
  if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
  MPI_Comm_free(&host_);
}

bool HostDoorbell::on_this_host(int world_rank) const {
  return world_rank >= 0 && static_cast<std::size_t>(world_rank) < host_rank_of_.size() &&
         host_rank_of_[static_cast<std::size_t>(world_rank)] != MPI_UNDEFINED;
}

int HostDoorbell::asleep() const {
  if (!enabled()) return 0;
  int n = 0;
  for (int r = 0; r < host_size_; ++r) {
    n += word(slots_[r].sleeping).load(std::memory_order_acquire) != 0 ? 1 : 0;
  }
  return n;
}

int HostDoorbell::on_this_host_among(const std::vector<int>& world_ranks) const {
  int n = 0;
  for (const int r : world_ranks) n += on_this_host(r) ? 1 : 0;
  return n;
}

HostDoorbell::Slot& HostDoorbell::slot_of(int world_rank) const {
  return slots_[host_rank_of_[static_cast<std::size_t>(world_rank)]];
}

void HostDoorbell::wait(MPI_Request& request) {
  Slot& mine = slot_of(world_rank_);
  bool timed_out = false, rung = false;
  for (;;) {
    // The word before the test: a ring after this read makes the futex return at once.
    const std::uint32_t seen = word(mine.generation).load(std::memory_order_seq_cst);
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) {
      counts_.done_after_timeout += timed_out ? 1 : 0;
      break;
    }
    counts_.rung_not_done += rung ? 1 : 0;
    // Asleep from here to the next ring, which clears the flag: so a rank just released is not
    // counted asleep (asleep(), settle_outside_ranks), and a ring that came ahead of its
    // message finds the flag set again the next time. seq_cst, as ring()'s advance and
    // exchange: either this second read sees the ring (test again), or the ringer sees the
    // flag and wakes this rank (the futex returns at once or is woken).
    word(mine.sleeping).store(1, std::memory_order_seq_cst);
    if (word(mine.generation).load(std::memory_order_seq_cst) != seen) continue;
    ++counts_.sleeps;
    const int error = futex_wait(&mine.generation, seen, kSafety);
    timed_out = error == ETIMEDOUT;
    rung = error == 0;
    ++(timed_out ? counts_.timed_out : rung ? counts_.rung : counts_.interrupted);
  }
  word(mine.sleeping).store(0, std::memory_order_relaxed);
}

void HostDoorbell::ring(const std::vector<int>& world_ranks) {
  if (!enabled()) return;
  for (const int r : world_ranks) {
    if (r == world_rank_ || !on_this_host(r)) continue;
    Slot& slot = slot_of(r);
    word(slot.generation).fetch_add(1, std::memory_order_seq_cst);
    // Released: no longer counted asleep (asleep()), and woken if it was.
    if (word(slot.sleeping).exchange(0, std::memory_order_seq_cst) != 0) {
      futex_wake(&slot.generation);
    }
  }
}

}  // namespace mpiwrite::comm
