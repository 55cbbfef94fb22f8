#pragma once
// The removal phase after the steps: the files of the run's scratch directories, and with
// --cleanup those it wrote into --dir; then the directories it made. What to remove, and how,
// is read from the creation ledger (RunState::ledger), never decided here.

#include "mpiwrite/core/run_report.hpp"
#include "phase_agreement.hpp"
#include "run_state.hpp"

namespace mpiwrite {

// Collective over the world. Timed on its own, never inside a write time (report.cleanup on
// rank 0). Returns false when something could not be removed (said on standard error). A
// signal stops it at once (the interrupt path hands the rest to a background removal).
bool remove_files_and_directories(RunState& run, PhaseAgreement& phases, RunReport& report);

// This rank's share of the run's files in one directory the ledger lists (`item`): by its
// plan's block of every name, or by its writers' records (the point's layout says where each
// file is). Throws IoError. `tick` (if given): told of every name visited (--progress).
std::uint64_t remove_written(const RunState& run, const RemovalItem& item,
                             const std::atomic<int>* stop, ProgressTick* tick = nullptr);

// This rank's layout directories in `item`'s directory (a scratch step's: all of this rank's
// in the point's layout; in --dir: those it made), once every rank's files are gone. Throws
// IoError (one that still holds something is never emptied). Stops early once `stop` (if
// given) is set.
void remove_layout_directories_of(const RunState& run, const RemovalItem& item,
                                  const std::atomic<int>* stop = nullptr);

}  // namespace mpiwrite
