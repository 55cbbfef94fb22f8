// The figures of a later phase, on rank 0 (phase_figures.hpp).
#include "phase_figures.hpp"

#include <vector>

#include "mpiwrite/mpi/comm.hpp"

namespace mpiwrite {

std::optional<PhaseFigures> gather_phase_figures(const PhaseAgreement& phases,
                                                 const boost::mpi::communicator& comm,
                                                 Phase phase, const PhaseClock& clock,
                                                 SliceResult& result, bool timed) {
  const RankClockSample mine{comm.rank(), clock.start_ns, clock.end_ns, result.files,
                             result.bytes};
  const std::vector<RankClockSample> all = comm::gather_clock_samples(comm, mine);
  std::vector<LatencyHistogram*> histograms{&result.latency};
  for (Operation op : operations_of(phase)) histograms.push_back(&result.operations[op]);
  comm::reduce_histograms(comm, histograms);
  const std::uint64_t mismatches = comm::sum_to_root(comm, result.mismatches);
  if (!phases.root() || !timed) return std::nullopt;
  PhaseFigures figures =
      summarize_phase(phase, phases.on_one_axis(all), result.latency, result.operations);
  figures.mismatches = mismatches;
  return figures;
}

}  // namespace mpiwrite
