#pragma once
// The MPI library mpiwrite was compiled against and the one it runs on, for --version and the
// mismatch warning (core/mpi_mismatch.hpp). Neither needs MPI_Init.

#include <string>

namespace mpiwrite::comm {

// From mpi.h's macros: "Open MPI 4.1.4" (OMPI_*_VERSION), "MPICH 4.0.2" (MPICH_VERSION), else
// the standard's version, "MPI 3.1 (mpi.h of an unknown library)".
std::string mpi_library_built();

// MPI_Get_library_version's first line, tabs as spaces: "Open MPI v4.1.4, package: Debian
// OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022".
std::string mpi_library_running();

}  // namespace mpiwrite::comm
