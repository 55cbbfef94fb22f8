#pragma once
// The thin MPI layer: every collective mpiwrite performs, over Boost.MPI. Only src/mpi/ talks
// to MPI (this file, and shared_counter.hpp for --partition dynamic), plus src/app/, which
// calls these and builds the per-point communicators, and main.cpp, which starts MPI.
// tests/architecture/check_layers.py keeps MPI headers out of every other layer.

#include <boost/mpi/communicator.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mpiwrite/core/common_clock.hpp"
#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/created_files.hpp"
#include "mpiwrite/core/histogram.hpp"
#include "mpiwrite/core/repetition_figures.hpp"

namespace mpiwrite::comm {

namespace mpi = boost::mpi;

// The phase boundaries (quiet_barrier, agree, max_int, max_u64) are observable waits: each
// rank sends its value to rank 0 and rank 0 sends back the result (point to point, a tag of
// their own), every rank testing its requests with sleeps in between (Pace, below), never
// spinning: ranks that wait (idle ranks of a comparison point, ranks that finished writing
// early) must not take CPU from the ranks still writing, as a blocking MPI collective's busy
// poll would. While it waits, a rank tells the observer whom it
// waits for, as world ranks: rank 0 the ranks that have not arrived, the others rank 0 (empty
// once the wait is over). Linear in the ranks at rank 0, which is fine for untimed boundaries.
// The other collectives here (gathers, reductions, broadcasts) block in MPI: around them the
// observer hears every other rank with exact = false (one of them is late, which cannot be
// told), except a broadcast's non-root ranks, which wait for rank 0 exactly.
// The observer (the --timeout watchdog) is one per process; it must not call MPI.
using WaitObserver = std::function<void(const std::vector<int>& world_ranks, bool exact)>;
void observe_waits(WaitObserver observer);

// While it lives, the rank waits in a blocking collective over `comm` (as above: every other
// rank, not exact; from_root: a broadcast, whose non-root ranks wait for rank 0). Main thread.
class CollectiveWait {
 public:
  explicit CollectiveWait(MPI_Comm comm, bool from_root = false);
  ~CollectiveWait();
  CollectiveWait(const CollectiveWait&) = delete;
  CollectiveWait& operator=(const CollectiveWait&) = delete;

 private:
  MPI_Comm comm_;
};

// How a rank waits at a boundary. Prompt: it tests every 50 µs, growing after 10 ms (the
// ranks of a boundary between two steps arrive within microseconds of each other). Patient,
// for a wait that overlaps other ranks' timed work -- the ranks outside a comparison point
// through its phase, the early finishers of a phase: a test wakes the rank and enters Open
// MPI's progress engine, which yields the CPU when mpirun set mpi_yield_when_idle
// (oversubscribed), so with 63 idle ranks on 2 cores even sleeps of 0.5-2 ms between tests
// took the CPU from the ranks being measured (the 1x1 point beside 63 idle ranks: 24 ms with
// prompt waits, 18 ms with such sleeps, 14 ms alone; docs/metrics.md). So a patient rank whose
// boundary's root shares its host sleeps in the kernel on the host's doorbell
// (host_doorbell.hpp: a futex on a word in shared memory) until the root, its result sent,
// rings it -- one wake-up per boundary, and one per 50 ms of safety limit; a rank on
// another host (or with no doorbell made) still tests with sleeps of 500 µs doubling to 2 ms.
// Its figures never include the wait; the cost is a release up to 2 ms late, on the root's
// host a futex wake-up late, in the step's untimed part.
enum class Pace { prompt, patient };

// A barrier that sleeps instead of spinning (see above).
void quiet_barrier(const mpi::communicator& comm, Pace pace = Pace::prompt);
// MPI's own barrier, observed as a blocking collective (every other rank, not exact). After a
// quiet barrier it releases the ranks within microseconds of each other; a rank stopped
// between the two (its quiet barrier done, MPI's not entered) still leaves the others a wait
// that names whom they may be waiting for (--timeout).
void barrier(const mpi::communicator& comm);

// Before a timed phase, on its ranks: waits until the ranks of this host outside `phase_comm`
// sleep on the host's doorbell (their patient wait through the phase), at most `limit`. They
// get there from the step's earlier boundaries, all released at once: with 62 of them on 2
// cores, their few milliseconds of waking, testing and sending overlapped the start of the
// phase, and a 2x1 point's makespan was bimodal (2.8 ms with a core each, 5.5 ms when both
// writers shared one). Nothing to wait for without a doorbell, or when world rank 0, whose
// boundary they wait at, is on another host (they sleep between tests there).
void settle_outside_ranks(const mpi::communicator& phase_comm,
                          std::chrono::milliseconds limit = std::chrono::milliseconds(20));

// Rank 0's value of `value` on every rank.
int broadcast_int(const mpi::communicator& world, int value);
std::uint64_t broadcast_u64(const mpi::communicator& world, std::uint64_t value);
void broadcast_config(const mpi::communicator& world, RunConfig& config);
void broadcast_string(const mpi::communicator& world, std::string& value);

// Every rank says whether it failed (a non-empty message). All ranks learn whether everybody
// succeeded; rank 0 also gets "rank N: message" for every failing rank, in rank order.
// This is the phase boundary: no rank leaves a phase alone, so no rank waits forever. It waits
// quietly (see quiet_barrier). It also carries each rank's `local_signal` (the signal it got, or
// 0), so that the boundary after a phase is also its signal check: every rank learns the largest.
struct Agreement {
  bool all_ok = true;
  int signal = 0;
  std::vector<std::string> failures;  // rank 0 only
};
Agreement agree(const mpi::communicator& world, const std::string& local_failure,
                int local_signal = 0, Pace pace = Pace::prompt);

// The largest of every rank's value on every rank, waiting quietly (for the signal check at
// each step).
int max_int(const mpi::communicator& world, int value);
// The largest `value` of any rank of `comm`, on every rank (a quiet all-reduce).
std::uint64_t max_u64(const mpi::communicator& comm, std::uint64_t value);
// A ring shift: on each rank, what rank (rank + shift) % size of `comm` created (its
// records); `mine` when that is this rank. --verify of a time-limited step reads back what its
// neighbour wrote (shift 1); the stat and read phases take --shift's.
CreatedFiles created_of_rank_after(const mpi::communicator& comm, const CreatedFiles& mine,
                                   unsigned shift);
inline CreatedFiles created_of_next_rank(const mpi::communicator& comm, const CreatedFiles& mine) {
  return created_of_rank_after(comm, mine, 1);
}

std::vector<RankFigures> gather_figures(const mpi::communicator& world, const RankFigures& mine);
// Every rank's clock readings of a phase, on rank 0 (rank order).
std::vector<RankClockSample> gather_clock_samples(const mpi::communicator& comm,
                                                  const RankClockSample& mine);
std::vector<int> broadcast_ints(const mpi::communicator& world, std::vector<int> values);

// The offset of every rank's monotonic clock to rank 0's (common_clock.hpp), on rank 0:
// rank 0 exchanges ping-pongs with the leader of every other clock domain (domain[r], as
// clock_domains gives it, known on every rank), one leader after the other; ranks of rank 0's
// domain get 0. error_ns bounds every offset. Collective over world, but only the leaders
// take part in messages: with one domain it sends nothing.
struct ClockOffsets {
  std::vector<std::int64_t> offset_ns;  // per world rank; rank 0 only
  std::int64_t error_ns = 0;
  std::int64_t largest_ns = 0;  // the largest |offset|
};
ClockOffsets measure_clock_offsets(const mpi::communicator& world, const std::vector<int>& domain,
                                   const std::function<std::int64_t()>& now_ns);
// Sums counts and totals, maxes the maximum; the merged histogram is valid on rank 0.
void reduce_histogram(const mpi::communicator& world, LatencyHistogram& histogram);
// The same for several histograms at once (in three collectives for all of them).
void reduce_histograms(const mpi::communicator& world,
                       const std::vector<LatencyHistogram*>& histograms);
std::uint64_t sum_to_root(const mpi::communicator& world, std::uint64_t value);
double max_to_root(const mpi::communicator& world, double value);

std::vector<std::string> gather_host_names(const mpi::communicator& world);
std::vector<std::string> gather_strings(const mpi::communicator& world,
                                        const std::string& mine);        // rank 0 only
std::vector<int> gather_ints(const mpi::communicator& world, int mine);  // rank 0 only
std::string mpi_library_version();

}  // namespace mpiwrite::comm
