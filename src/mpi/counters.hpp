#pragma once
// The two SharedCounter implementations (include/mpiwrite/mpi/shared_counter.hpp says which is
// used when), and the check every one of their MPI calls goes through.
#include <mpi.h>

#include <memory>

#include "mpiwrite/mpi/shared_counter.hpp"

namespace mpiwrite::counters {

// Throws std::runtime_error naming `what` and MPI's message unless rc is MPI_SUCCESS. Every
// call is checked: Boost.MPI sets MPI_ERRORS_RETURN, so an unchecked failure goes unnoticed.
void check(int rc, const char* what);

// Collective over `comm`; the ranks of `comm` all share one node.
std::unique_ptr<SharedCounter> make_window_counter(MPI_Comm comm);
// Collective over `comm`; any placement of its ranks.
std::unique_ptr<SharedCounter> make_message_counter(MPI_Comm comm);

}  // namespace mpiwrite::counters
