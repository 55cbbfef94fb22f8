// What this build was made with (build_facts.hpp): the generated build_config.hpp, read here
// only.
#include "mpiwrite/core/build_facts.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include "build_config.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/version.hpp"

namespace mpiwrite {

BuildFacts build_facts() {
  BuildFacts facts;
  facts.version = kVersion;
  facts.commit = build_config::kCommit;
  facts.compiler = build_config::kCompiler;
  facts.boost = build_config::kBoost;
  // FMT_VERSION is major * 10000 + minor * 100 + patch: the headers this was compiled with.
  facts.fmt = fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100,
                          FMT_VERSION % 100);
  facts.liburing = build_config::kLiburing;
  facts.nlohmann_json = build_config::kNlohmannJson;
  facts.uring = build_config::kUring;
  return facts;
}

std::vector<Engine> engines_built(bool uring_built) {
  std::vector<Engine> engines{Engine::Posix, Engine::Null};
  if (uring_built) engines.push_back(Engine::Uring);
  return engines;
}

std::string engine_not_built(Engine engine, bool uring_built) {
  if (engine != Engine::Uring || uring_built) return {};
  return "this mpiwrite was built without io_uring (configured with -DMPIWRITE_WITH_URING=OFF, "
         "or without liburing): use --engine posix, or a build with liburing "
         "(docs/site-build.md)";
}

void require_engine_built(Engine engine) {
  const std::string not_built = engine_not_built(engine, build_config::kUring);
  if (!not_built.empty()) throw UsageError(not_built);
}

}  // namespace mpiwrite
