// Which MPI library (mpi_library.hpp): the compile-time one from mpi.h, the run-time one from
// MPI_Get_library_version, which the standard allows before MPI_Init.
#include "mpiwrite/mpi/mpi_library.hpp"

#include <mpi.h>

#include <algorithm>
#include <string>

// A macro's value as a string literal: OMPI_MAJOR_VERSION is a number.
#define MPIWRITE_TEXT(x) MPIWRITE_TEXT_(x)
#define MPIWRITE_TEXT_(x) #x

namespace mpiwrite::comm {

std::string mpi_library_built() {
#if defined(OMPI_MAJOR_VERSION)
  return "Open MPI " MPIWRITE_TEXT(OMPI_MAJOR_VERSION) "." MPIWRITE_TEXT(
      OMPI_MINOR_VERSION) "." MPIWRITE_TEXT(OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
  return std::string("MPICH ") + MPICH_VERSION;
#else
  return "MPI " MPIWRITE_TEXT(MPI_VERSION) "." MPIWRITE_TEXT(
      MPI_SUBVERSION) " (mpi.h of an unknown library)";
#endif
}

std::string mpi_library_running() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  if (MPI_Get_library_version(text, &length) != MPI_SUCCESS) return "unknown";
  const int kept = std::clamp(length, 0, MPI_MAX_LIBRARY_VERSION_STRING);
  std::string first(text, static_cast<std::size_t>(kept));
  first = first.substr(0, first.find('\n'));
  std::replace(first.begin(), first.end(), '\t', ' ');
  while (!first.empty() && (first.back() == ' ' || first.back() == '\0')) first.pop_back();
  return first;
}

}  // namespace mpiwrite::comm
