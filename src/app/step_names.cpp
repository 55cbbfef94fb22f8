// How a step is named (step_names.hpp).
#include "step_names.hpp"

#include <fmt/format.h>

namespace mpiwrite {

std::string label_of(const RunState& run, const Step& step) {
  return fmt::format("{} {} {}", run.points[step.point].label(), step.timed ? "rep" : "warm-up",
                     step.number);
}

ProgressSubject subject_of(const RunState& run, const Step& step, ProgressPhase phase) {
  const bool auto_timed = step.timed && run.config.auto_repetitions;
  return {phase,
          run.points[step.point].label(),
          !step.timed,
          step.number,
          auto_timed ? 0 : step.timed ? run.config.repetitions : run.config.warmup,
          phase == ProgressPhase::Write ? run.config.time_limit_s : 0,
          auto_timed ? run.auto_note : std::string()};
}

}  // namespace mpiwrite
