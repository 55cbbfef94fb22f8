#pragma once
// Whether the MPI library a run is on differs from the one mpiwrite (and so Boost.MPI) was
// compiled against: the first thing that breaks on a cluster whose modules were swapped
// (docs/site-build.md). Pure: fed the two names (mpi/mpi_library.hpp gives them).

#include <string>
#include <string_view>

namespace mpiwrite {

// One line for rank 0's standard error ("mpiwrite: warning: ..."), or empty when the two are
// the same library and version, or when either name is not one this can read (Open MPI's
// "Open MPI v4.1.4, ..." and "Open MPI 4.1.4", MPICH's "MPICH Version: 4.0.2" and "MPICH
// 4.0.2"): a derivative (Intel MPI, MVAPICH) names itself otherwise, and a warning that
// cannot be sure would teach users to ignore it.
std::string mpi_mismatch_warning(std::string_view built, std::string_view running);

}  // namespace mpiwrite
