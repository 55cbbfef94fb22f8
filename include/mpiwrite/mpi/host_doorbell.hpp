#pragma once
// A per-host doorbell: lets a rank that waits patiently at a phase boundary (comm::Pace) sleep
// in the kernel until the boundary's root releases it, instead of waking every 0.5-2 ms to test
// its request. With 63 idle ranks on 2 cores those wake-ups (each entering Open MPI's progress
// engine, which yields the CPU when oversubscribed) took the CPU from the ranks being timed
// (docs/metrics.md, "Idle ranks still cost something when ranks outnumber cores").
//
// The ranks of one host share an MPI-3 window (MPI_Win_allocate_shared on the host leader,
// osc sm) holding one slot per rank of the host: a generation word, which the root of a
// boundary advances to release that rank, and a flag that says the rank sleeps on it. A
// waiter sleeps on its own word with a futex -- non-private (FUTEX_WAIT, not
// FUTEX_WAIT_PRIVATE, nor std::atomic::wait, which libstdc++ makes private), since the word is
// in memory shared between processes. One slot per rank rather than one word per host: a
// boundary of a point's ranks then wakes only them, not every idle rank of the host.
// Ranks on another host than the root cannot be rung (the window is per host): they keep
// comm.cpp's sleeps between tests.
//
// Collective over MPI_COMM_WORLD to make and (within each host) to free: every rank makes one,
// once, before the boundaries that use it, and frees it before MPI_Finalize. While it lives it
// is the process's doorbell (current()), which comm.cpp's boundaries use; none (null): they
// keep their sleeps, as in the tests that make none. If MPI cannot make the shared window, the
// doorbell is made inert on the whole host (enabled() false) and nothing changes.

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace mpiwrite::comm {

class HostDoorbell {
 public:
  HostDoorbell();   // collective over MPI_COMM_WORLD; becomes current()
  ~HostDoorbell();  // collective over the host's ranks; the previous one is current again
  HostDoorbell(const HostDoorbell&) = delete;
  HostDoorbell& operator=(const HostDoorbell&) = delete;

  // The process's doorbell, or null when there is none.
  static HostDoorbell* current();

  bool enabled() const { return slots_ != nullptr; }
  // Whether `world_rank` shares this rank's host (and so can ring or be rung).
  bool on_this_host(int world_rank) const;

  // Completes `request` (the root's release of a boundary on this host), asleep on this
  // rank's word between tests: MPI_Test after reading the word, then a futex wait for a change
  // of it. A ring missed (the root's message not yet testable when it rang) costs at most
  // kSafety more; a signal (EINTR) only makes it test again. Main thread.
  void wait(MPI_Request& request);
  static constexpr std::chrono::milliseconds kSafety{50};

  // Releases the ranks `world_ranks` that share this host: advances each one's generation
  // (release) and wakes it if it sleeps.
  void ring(const std::vector<int>& world_ranks);

  // How many ranks of this host sleep on the doorbell now (their patient waits, between the
  // flag set before the test and cleared on leaving): the phase's ranks wait for the others to
  // be asleep before they start (comm::settle_outside_ranks).
  int asleep() const;
  // The ranks of this host among `world_ranks`.
  int on_this_host_among(const std::vector<int>& world_ranks) const;
  int host_size() const { return host_size_; }

  // How this rank's sleeps ended, for the tests and to check that rings are not missed:
  // a ring, the safety limit, or a signal; and the wake-ups after which the request was not
  // complete yet although rung (a ring ahead of its message, or a stale one), or complete only
  // after the limit (a release up to kSafety late). Both should be ~never.
  struct Counts {
    std::uint64_t sleeps = 0;
    std::uint64_t rung = 0;
    std::uint64_t timed_out = 0;
    std::uint64_t interrupted = 0;
    std::uint64_t rung_not_done = 0;
    std::uint64_t done_after_timeout = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  // A rank's slot: 4-byte words, each its own futex.
  struct Slot {
    std::uint32_t generation;
    std::uint32_t sleeping;
  };
  Slot& slot_of(int world_rank) const;

  MPI_Comm host_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  Slot* slots_ = nullptr;          // the host's slots, in host rank order; null: inert
  std::vector<int> host_rank_of_;  // per world rank: its host rank; MPI_UNDEFINED: elsewhere
  int world_rank_ = 0;
  int host_size_ = 1;
  Counts counts_;
  HostDoorbell* previous_ = nullptr;
};

}  // namespace mpiwrite::comm
