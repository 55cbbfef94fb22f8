#pragma once
// The coordinator: configuration → directory → repetitions → removal → report, with every
// rank agreeing at each phase boundary. The world and the output streams are injected.

#include <boost/mpi/communicator.hpp>
#include <iosfwd>

namespace mpiwrite {

// Returns the process exit code (the same on every rank). Only rank 0 writes to out and err.
int run(int argc, const char* const* argv, const boost::mpi::communicator& world, std::ostream& out,
        std::ostream& err);

}  // namespace mpiwrite
