#pragma once
// What the ranks of each point need during its steps: its communicator, this rank's plan, a
// writer, and with --partition dynamic the shared counter. The MPI objects are made once
// before any step and freed after the last. Writers (a pool of threads each) are made when a
// step of their point needs one, before its timed phase, and live while the threads of the
// live writers stay within kMaxLiveWriterThreads: a sweep over 1..100 threads had all 5050 of
// its writer threads alive from the start. One owner, so the order in which MPI objects are
// freed is the type's business, not a comment's.

#include <boost/mpi/communicator.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/core/rank_plan.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/mpi/shared_counter.hpp"

namespace mpiwrite {

// One point, on one rank.
struct PointHandles {
  boost::mpi::communicator comm;  // ranks 0..p-1 of the world; null on the others
  RankPlan plan;                  // on the point's ranks
  // On the point's ranks, unless flat (all in the dir): the point's plan's, which outlives it.
  const DirectoryLayout* layout = nullptr;
  Writer* writer = nullptr;          // on the point's ranks while its writer is alive
  SharedCounter* counter = nullptr;  // with --partition dynamic
};

// Writer threads alive at once on a rank, over all live writers: one point's at the cap.
inline constexpr unsigned kMaxLiveWriterThreads = kMaxThreads;

class PointResources {
 public:
  // Collective over `world`, in point order: points with the same rank count share one
  // communicator (and counter), points whose writers would be the same (WriterKey) one
  // writer. The first point's writer is made here too. What fails on this rank is put in
  // `failure` (the first thing); the caller agrees on it before any step.
  // `plans` (the run's, one per point) outlives the resources. `phases`: the run's
  // (RunState::phases).
  PointResources(const boost::mpi::communicator& world, const RunConfig& config,
                 PhaseSet phases, const std::vector<PointPlan>& plans, std::string& failure);
  // Collective: the counters' MPI windows first (MPI_Win_free, collective over their
  // communicators, in creation order on every rank), then the communicators they were made
  // on, then the writers.
  ~PointResources();
  PointResources(const PointResources&) = delete;
  PointResources& operator=(const PointResources&) = delete;

  PointHandles& operator[](std::size_t point) { return points_[point]; }
  // Makes `point`'s writer on this rank (one of the point's) unless it is alive, first freeing
  // the least recently used others until the threads of those left and the new one are within
  // kMaxLiveWriterThreads. Not collective; throws what making the writer throws (the caller
  // agrees on it). Untimed: call it before the step's timed phase.
  void ready_writer(std::size_t point);
  // Whether writer threads have file descriptor tables of their own (the first writer's
  // answer; none when this rank made no writer).
  std::optional<bool> private_fd_tables() const;

 private:
  // What makes writers differ: threads, engine, ring depth and whether the rank writes
  // nothing (the last two from the point's plan on this rank: see make_writer_for).
  using WriterKey = std::tuple<unsigned, Engine, unsigned, bool>;
  struct LiveWriter {
    std::unique_ptr<Writer> writer;
    std::uint64_t last_used = 0;  // the use count of the resources when it was last readied
  };
  WriterKey key_of(const PointSpec& spec, const RankPlan& plan) const;
  std::unique_ptr<Writer> make_writer_for(const PointPlan& plan, const WriterKey& key) const;
  void make_counter(PointHandles& h, std::string& failure);

  const boost::mpi::communicator& world_;
  const RunConfig& config_;
  const PhaseSet phases_;
  const std::vector<PointPlan>& plans_;
  std::vector<WriterKey> keys_;              // each point's, on its ranks
  std::map<WriterKey, LiveWriter> writers_;  // the live ones
  std::uint64_t uses_ = 0;
  std::optional<bool> private_fd_tables_;  // the first writer's answer
  std::vector<PointHandles> points_;
  std::vector<std::unique_ptr<SharedCounter>> counters_;
};

}  // namespace mpiwrite
