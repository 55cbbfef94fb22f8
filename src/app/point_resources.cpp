// What the ranks of each point need during its steps (point_resources.hpp).
#include "point_resources.hpp"

#include "mpiwrite/sys/interrupt.hpp"
#include "phase_agreement.hpp"

namespace mpiwrite {

PointResources::PointResources(const boost::mpi::communicator& world, const RunConfig& config,
                               const std::vector<PointSpec>& points, std::string& failure)
    : world_(world), config_(config) {
  std::map<int, std::size_t> first_with_ranks;
  for (const PointSpec& spec : points) {
    PointHandles h;
    if (auto known = first_with_ranks.find(spec.ranks); known != first_with_ranks.end()) {
      const PointHandles& same = points_[known->second];
      h.comm = same.comm;
      h.counter = same.counter;
    } else {
      first_with_ranks.emplace(spec.ranks, points_.size());
      h.comm = world_.split(world_.rank() < spec.ranks ? 0 : MPI_UNDEFINED);
      if (h.comm && config_.partition == Partition::Dynamic) make_counter(h, failure);
    }
    if (h.comm) {
      h.plan = plan_rank(config_, spec, h.comm.rank());
      DirectoryLayout layout(layout_spec(config_, spec));
      if (!layout.flat()) h.layout.emplace(layout);
      guarded([&] { h.writer = &writer_for(spec); }, failure);
    }
    points_.push_back(std::move(h));
  }
}

PointResources::~PointResources() {
  // Every rank frees in the same order: windows, front to back, before any communicator.
  for (std::unique_ptr<SharedCounter>& counter : counters_) counter.reset();
  points_.clear();
  writers_.clear();
}

std::optional<bool> PointResources::private_fd_tables() const {
  if (writers_.empty()) return std::nullopt;
  return writers_.begin()->second->private_fd_tables();
}

void PointResources::make_counter(PointHandles& h, std::string& failure) {
  guarded([&] { counters_.push_back(SharedCounter::create(h.comm)); }, failure);
  if (failure.empty()) h.counter = counters_.back().get();
}

Writer& PointResources::writer_for(const PointSpec& spec) {
  auto& writer = writers_[{spec.threads, spec.engine, spec.queue_depth}];
  if (!writer) {
    WriteOptions options = write_options_from(config_);
    options.threads = spec.threads;
    options.engine = spec.engine;
    options.queue_depth = spec.queue_depth;
    options.interrupt = &interrupt_signal();
    for (int rank : config_.slow_ranks) {
      if (rank == world_.rank()) options.per_file_delay_us = config_.slow_delay_us;
    }
    writer = make_writer(options);
  }
  return *writer;
}

}  // namespace mpiwrite
