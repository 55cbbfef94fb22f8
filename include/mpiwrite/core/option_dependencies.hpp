#pragma once
// Which option needs which (issue 21 §5): one table of the options that the rest of a run can
// leave without effect, checked by one function, so an option given where it would do nothing
// is refused before the run (exit 2, naming what it needs) instead of being accepted in
// silence. An option absent from the table does something in every run that passes
// validate(). --dry-run is no exemption: it previews the run the other options describe, and
// an option that would do nothing in that run does nothing in its preview either.

#include <functional>
#include <span>
#include <string_view>

#include "mpiwrite/core/config.hpp"

namespace mpiwrite {

struct OptionDependency {
  std::string_view option;               // as on the command line: "--chunk"
  bool (*given)(const RunConfig&);       // its value is not the default
  bool (*has_effect)(const RunConfig&);  // the rest of the run gives it something to do
  std::string_view message;              // the refusal: what it needs, and why
};

// Every row, in the order they are checked.
std::span<const OptionDependency> option_dependencies();

// Throws UsageError with the message of the first row whose option was given (its value is
// not the default, or `named` says the command line named it: `--chunk 8` is the default
// value, but still given) where it has no effect.
void check_option_dependencies(const RunConfig& config,
                               const std::function<bool(std::string_view option)>& named = nullptr);

}  // namespace mpiwrite
