// The --version texts (version_text.hpp).
#include "mpiwrite/core/version_text.hpp"

#include <fmt/format.h>

namespace mpiwrite {

namespace {

// One "name: value" line after a newline, the values in one column.
std::string fact(std::string_view name, std::string_view value) {
  return fmt::format("\n{:<13}{}", fmt::format("{}:", name), value);
}

std::string common_facts(const BuildFacts& facts) {
  return fact("commit", facts.commit + (facts.commit == "unknown" ? "" : " (at configure time)")) +
         fact("compiler", facts.compiler);
}

}  // namespace

std::string version_text(const BuildFacts& facts, const MpiLibraries& mpi) {
  std::string engines;
  for (const Engine engine : engines_built(facts.uring)) {
    if (!engines.empty()) engines += ", ";
    engines += to_string(engine);
  }
  return "mpiwrite " + facts.version + common_facts(facts) +
         fact("MPI built", mpi.built) + fact("MPI running", mpi.running) +
         fact("Boost", facts.boost) + fact("fmt", facts.fmt) +
         fact("liburing", facts.uring ? facts.liburing : "not built") + fact("engines", engines);
}

std::string compare_version_text(const BuildFacts& facts) {
  return "mpiwrite-compare " + facts.version + common_facts(facts) +
         fact("fmt", facts.fmt) + fact("json", "nlohmann-json " + facts.nlohmann_json);
}

}  // namespace mpiwrite
