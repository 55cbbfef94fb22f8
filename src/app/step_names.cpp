// How a step is named (step_names.hpp).
#include "step_names.hpp"

#include <fmt/format.h>

namespace mpiwrite {

std::string label_of(const RunState& run, const Step& step) {
  return fmt::format("{} {} {}", run.points[step.point].label(), step.timed ? "rep" : "warm-up",
                     step.number);
}

ProgressSubject subject_of(const RunState& run, const Step& step, ProgressPhase phase) {
  return {phase,
          run.points[step.point].label(),
          !step.timed,
          step.number,
          step.timed ? run.config.repetitions : run.config.warmup,
          phase == ProgressPhase::Write ? run.config.time_limit_s : 0};
}

}  // namespace mpiwrite
