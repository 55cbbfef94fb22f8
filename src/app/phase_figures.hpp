#pragma once
// The figures of a timed phase other than write (--phases), gathered to rank 0 as the write
// phase's are: every rank's clock sample on one time axis, the merged per-item histogram and
// the phase's per-operation histograms.

#include <boost/mpi/communicator.hpp>
#include <optional>

#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "phase_agreement.hpp"

namespace mpiwrite {

// Collective over `comm` (the point's ranks). Rank 0 of a timed step gets the figures; the
// other ranks, and an untimed step (a warm-up), nothing. `result` is this rank's: its
// histograms are reduced in place.
std::optional<PhaseFigures> gather_phase_figures(const PhaseAgreement& phases,
                                                 const boost::mpi::communicator& comm,
                                                 Phase phase, const PhaseClock& clock,
                                                 SliceResult& result, bool timed);

}  // namespace mpiwrite
