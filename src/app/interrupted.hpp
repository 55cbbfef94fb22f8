#pragma once
// The interrupt path. After SIGINT or SIGTERM the launcher kills the ranks a few seconds later
// (mpirun: ~2 s), so first the scratch root becomes trash (one rename), then the report of
// what completed goes out, then rm removes the trash in a process of its own
// (scratch_remover.hpp). With --cleanup the ranks then remove what they wrote into --dir, as
// far as they get. Also: the trash earlier interrupted runs left behind.

#include <ostream>
#include <string>

#include "mpiwrite/core/run_report.hpp"
#include "phase_agreement.hpp"
#include "run_state.hpp"

namespace mpiwrite {

// Collective over the world, once every rank agreed on run.interrupted. `written`: every
// step before the signal succeeded, so the report of what completed goes out. Returns the
// exit code: 128 + the signal, or kExitIo when the run failed or the report could not go out.
int finish_interrupted(RunState& run, PhaseAgreement& phases, RunReport& report, bool written,
                       std::ostream& out, std::ostream& err);

// Rank 0: scratch directories that interrupted runs in `dir` gave up (renamed to a trash
// name) and whose background removal was killed too, removed in the background now; a note
// on `err` says so.
void remove_earlier_trash(const std::string& dir, std::ostream& err);

}  // namespace mpiwrite
