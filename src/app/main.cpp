// mpiwrite: starts MPI, runs the coordinator, and is the last resort for the unexpected.
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <exception>
#include <iostream>

#include "mpiwrite/app/app.hpp"

int main(int argc, char** argv) {
  // Writer threads call MPI only for --partition dynamic on one node, one at a time; across
  // nodes only main threads do (shared_counter.hpp).
  boost::mpi::environment env(argc, argv, boost::mpi::threading::serialized);
  boost::mpi::communicator world;
  try {
    return mpiwrite::run(argc, argv, world, std::cout, std::cerr);
  } catch (const std::exception& e) {
    // Reaching here means a rank left the collective path: abort the job rather than hang it.
    std::cerr << "mpiwrite: internal error on rank " << world.rank() << ": " << e.what() << '\n';
    env.abort(1);
  }
  return 1;
}
