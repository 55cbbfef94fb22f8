#pragma once
// How a step is named to the people watching it: the watchdog's label and --progress's
// subject. Shared by the step's phases (write_phase, verify_phase) and the steps.

#include <string>

#include "mpiwrite/core/progress_line.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "run_state.hpp"

namespace mpiwrite {

// "4x1 rep 2", "4x1 warm-up 1": a step as the watchdog names it.
std::string label_of(const RunState& run, const Step& step);

// What a step's progress lines are about.
ProgressSubject subject_of(const RunState& run, const Step& step, ProgressPhase phase);

}  // namespace mpiwrite
