#pragma once
// What this mpiwrite was built with (cmake/build_facts.cmake), for --version, for the check
// that --engine names an engine that was built, and for the MPI mismatch warning. Pure.

#include <string>
#include <vector>

#include "mpiwrite/core/option_enums.hpp"

namespace mpiwrite {

struct BuildFacts {
  std::string version;   // mpiwrite's, "0.4.0"
  std::string commit;    // git rev-parse --short=12 HEAD at configure time, or "unknown"
  std::string compiler;  // CMake's compiler id and version, "GNU 12.2.0"
  std::string boost;     // "1.74.0"
  std::string fmt;       // "9.1.0"
  std::string liburing;  // "2.3", or empty when the uring engine was not built
  std::string nlohmann_json;
  bool uring = false;    // the uring engine is built in (-DMPIWRITE_WITH_URING)
};

// This build's facts.
BuildFacts build_facts();

// The engines a build has, in --engine's order: posix, null, and uring when `uring_built`.
std::vector<Engine> engines_built(bool uring_built);

// Empty if `engine` is built in; otherwise the usage error for --engine (without
// "mpiwrite: error: "): "this mpiwrite was built without io_uring (...)". Pure, so that both
// builds' answers are unit-tested in either.
std::string engine_not_built(Engine engine, bool uring_built);

// Throws UsageError with engine_not_built() when `engine` is not built in this build. Rank 0
// calls it after the command line is parsed (app.cpp, configure), before anything is created;
// not part of validate(), so that the parser's tests read the same in every build.
void require_engine_built(Engine engine);

}  // namespace mpiwrite
