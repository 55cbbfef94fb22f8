// GoogleTest under mpiexec: every rank runs every test; only rank 0 prints the usual output,
// other ranks print their failures prefixed "[rank N]"; the exit code is agreed by all ranks.
#include <gtest/gtest.h>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <functional>
#include <iostream>

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.failed()) {
      std::cerr << "[rank " << rank_ << "] " << (result.file_name() ? result.file_name() : "?")
                << ":" << result.line_number() << ": " << result.summary() << std::endl;
    }
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  boost::mpi::environment env(argc, argv, boost::mpi::threading::serialized);
  boost::mpi::communicator world;
  ::testing::InitGoogleTest(&argc, argv);
  if (world.rank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());  // gtest's owned listener
    listeners.Append(new RankFailurePrinter(world.rank()));        // gtest takes ownership
  }
  const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  const int any_failed = boost::mpi::all_reduce(world, failed, boost::mpi::maximum<int>());
  if (world.rank() == 0 && any_failed && !failed) std::cerr << "a test failed on another rank\n";
  return any_failed;
}
