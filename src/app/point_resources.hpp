#pragma once
// What the ranks of each point need during its steps, made once before any step and freed
// after the last: its communicator, this rank's plan, a writer, and with --partition dynamic
// the shared counter. One owner, so the order in which MPI objects are freed is the type's
// business, not a comment's.

#include <boost/mpi/communicator.hpp>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/core/rank_plan.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/mpi/shared_counter.hpp"

namespace mpiwrite {

// One point, on one rank.
struct PointHandles {
  boost::mpi::communicator comm;     // ranks 0..p-1 of the world; null on the others
  RankPlan plan;                     // on the point's ranks
  std::optional<DirectoryLayout> layout;  // on the point's ranks, unless flat (all in the dir)
  Writer* writer = nullptr;          // on the point's ranks, unless making it failed
  SharedCounter* counter = nullptr;  // with --partition dynamic
};

class PointResources {
 public:
  // Collective over `world`, in point order: points with the same rank count share one
  // communicator (and counter), points with the same threads, engine and queue depth one
  // writer. What fails on this rank is put in `failure` (the first thing); the caller agrees
  // on it before any step.
  PointResources(const boost::mpi::communicator& world, const RunConfig& config,
                 const std::vector<PointSpec>& points, std::string& failure);
  // Collective: the counters' MPI windows first (MPI_Win_free, collective over their
  // communicators, in creation order on every rank), then the communicators they were made
  // on, then the writers.
  ~PointResources();
  PointResources(const PointResources&) = delete;
  PointResources& operator=(const PointResources&) = delete;

  PointHandles& operator[](std::size_t point) { return points_[point]; }
  // Whether writer threads have file descriptor tables of their own (the first writer's
  // answer; none when this rank made no writer).
  std::optional<bool> private_fd_tables() const;

 private:
  Writer& writer_for(const PointSpec& spec);
  void make_counter(PointHandles& h, std::string& failure);

  const boost::mpi::communicator& world_;
  const RunConfig& config_;
  std::map<std::tuple<unsigned, Engine, unsigned>, std::unique_ptr<Writer>>
      writers_;  // by thread count, engine and queue depth
  std::vector<PointHandles> points_;
  std::vector<std::unique_ptr<SharedCounter>> counters_;
};

}  // namespace mpiwrite
