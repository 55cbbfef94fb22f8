// The uring engine's entry points in a build without io_uring (-DMPIWRITE_WITH_URING=OFF, or
// no liburing): in place of uring_engine.cpp, uring_files.cpp, uring_tree.cpp and
// uring_support.cpp. --engine uring is refused by validate() (core/build_facts.hpp) before any
// of these is reached; they answer the same way for the callers that ask anyway (the tests).
#include <stdexcept>

#include "engine.hpp"
#include "mpiwrite/core/build_facts.hpp"
#include "mpiwrite/engines/uring_support.hpp"

namespace mpiwrite {

std::unique_ptr<FileEngine> make_uring_engine(const FileRecipe&, unsigned, bool) {
  throw std::logic_error(engine_not_built(Engine::Uring, false));
}

std::span<const UringOperation> uring_operations_of(Phase) { return {}; }

std::string uring_lacks(Phase, const UringOperation&) {
  return engine_not_built(Engine::Uring, false);
}

std::string uring_unavailable_reason() { return engine_not_built(Engine::Uring, false); }

std::string uring_unavailable_reason(const PhaseSet&) {
  return engine_not_built(Engine::Uring, false);
}

std::string fixed_file_limit_problem(unsigned) { return {}; }

}  // namespace mpiwrite
