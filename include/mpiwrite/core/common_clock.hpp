#pragma once
// One time axis for the ranks of a phase. Each rank reads its own monotonic clock when its
// phase starts and ends; the phase of the job runs from the earliest start to the latest end,
// not for the longest of the ranks' own durations: a rank that the scheduler (or OS noise)
// starts late would otherwise start its clock late and hide the wait. Pure.
//
// Processes of one kernel share CLOCK_MONOTONIC exactly. Across kernels (hosts) the clocks
// differ by an offset, estimated by ping-pong with rank 0 (Cristian's method); its error is at
// most half the round trip of the best exchange. docs/metrics.md, "One time axis".

#include <cstdint>
#include <string>
#include <vector>

#include "mpiwrite/core/repetition_figures.hpp"

namespace mpiwrite {

// What one rank sends rank 0 after a phase: its own clock's readings, in nanoseconds.
struct RankClockSample {
  int rank = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
};

// The ranks' figures on rank 0's time axis: start_s relative to the earliest start (after the
// offsets), elapsed_s the rank's own duration. offset_ns[rank] is added to that rank's clock
// readings to give rank 0's; empty: every offset is 0 (one kernel). Precondition: every
// sample's rank indexes offset_ns when it is not empty.
std::vector<RankFigures> on_common_axis(const std::vector<RankClockSample>& samples,
                                        const std::vector<std::int64_t>& offset_ns);

// One ping-pong between rank 0 and a remote rank: rank 0's clock when it sent, the remote's
// clock when it answered, rank 0's clock when the answer arrived.
struct ClockExchange {
  std::int64_t sent_ns = 0;
  std::int64_t remote_ns = 0;
  std::int64_t received_ns = 0;
};

struct ClockOffset {
  std::int64_t offset_ns = 0;  // add to the remote clock to get rank 0's
  std::int64_t error_ns = 0;   // |true offset - offset_ns| <= error_ns (half the round trip)
};

// From the exchange with the shortest round trip (the least queueing), the remote reading
// taken to be at the middle of it. Precondition: exchanges is not empty.
ClockOffset estimate_offset(const std::vector<ClockExchange>& exchanges);

// For every rank, the lowest rank with the same kernel (boot id): ranks of one domain share
// the monotonic clock. domain[r] == r marks a domain's leader.
std::vector<int> clock_domains(const std::vector<std::string>& boot_id_of_rank);

}  // namespace mpiwrite
