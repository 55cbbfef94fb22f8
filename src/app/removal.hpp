#pragma once
// The removal phase after the steps: the files of the run's scratch directories, and with
// --cleanup those it wrote into --dir; then the directories it made.

#include "mpiwrite/core/run_report.hpp"
#include "phase_agreement.hpp"
#include "run_state.hpp"

namespace mpiwrite {

// Collective over the world. Timed on its own, never inside a write time (report.cleanup on
// rank 0). Returns false when something could not be removed (said on standard error). A
// signal stops it at once (the interrupt path hands the rest to a background removal).
bool remove_files_and_directories(RunState& run, PhaseAgreement& phases, RunReport& report);

// This rank's share of the run's files in `dir`, written by point `point` (its layout says
// where each file is): its plan's block of every name when the run created them all (`all`),
// else what this rank's writers recorded. Throws IoError.
// `tick` (if given): told of every name visited (--progress).
std::uint64_t remove_written(const RunState& run, std::size_t point, const std::string& dir,
                             bool all, const std::atomic<int>* stop,
                             ProgressTick* tick = nullptr);

// This rank's layout directories in `dir` (a scratch step's of point `point`, or with
// --cleanup those it made in --dir), once every rank's files are gone. Throws IoError (one
// that still holds something is never emptied). Stops early once `stop` (if given) is set.
void remove_layout_directories_of(const RunState& run, std::size_t point, const std::string& dir,
                                  bool scratch, const std::atomic<int>* stop = nullptr);

}  // namespace mpiwrite
