#pragma once
// What `mpiwrite --version` and `mpiwrite-compare --version` print: enough to tell a
// mismatched site build at a glance (docs/site-build.md). Pure: the MPI libraries' names come
// from the MPI layer (mpi/mpi_library.hpp).

#include <string>
#include <string_view>

#include "mpiwrite/core/build_facts.hpp"

namespace mpiwrite {

// The MPI library mpiwrite was compiled against (from mpi.h's macros) and the one it runs on
// (MPI_Get_library_version, its first line).
struct MpiLibraries {
  std::string built;
  std::string running;
};

// "mpiwrite 0.4.0" then one "name: value" line each: commit, compiler, MPI built against,
// MPI running, Boost, fmt, liburing ("not built"), engines. No newline at the end (CLI11's
// version flag adds it, cli_errors.cpp).
std::string version_text(const BuildFacts& facts, const MpiLibraries& mpi);

// mpiwrite-compare's: no MPI, no engines; its JSON library instead.
std::string compare_version_text(const BuildFacts& facts);

}  // namespace mpiwrite
