// What the ranks of each point need during its steps (point_resources.hpp).
#include "point_resources.hpp"

#include <algorithm>

#include "mpiwrite/sys/interrupt.hpp"
#include "phase_agreement.hpp"

namespace mpiwrite {

PointResources::PointResources(const boost::mpi::communicator& world, const RunConfig& config,
                               PhaseSet phases, const std::vector<PointPlan>& plans,
                               std::string& failure)
    : world_(world), config_(config), phases_(phases), plans_(plans) {
  std::map<int, std::size_t> first_with_ranks;
  for (const PointPlan& point : plans) {
    const PointSpec& spec = point.spec;
    PointHandles h;
    if (auto known = first_with_ranks.find(spec.ranks); known != first_with_ranks.end()) {
      const PointHandles& same = points_[known->second];
      h.comm = same.comm;
      h.counter = same.counter;
    } else {
      first_with_ranks.emplace(spec.ranks, points_.size());
      h.comm = world_.split(world_.rank() < spec.ranks ? 0 : MPI_UNDEFINED);
      if (h.comm && point.split.partition == Partition::Dynamic) make_counter(h, failure);
    }
    if (h.comm) {
      h.plan = point.rank(h.comm.rank());
      if (!point.layout.flat()) h.layout = &point.layout;
    }
    keys_.push_back(h.comm ? key_of(spec, h.plan) : WriterKey{});
    points_.push_back(std::move(h));
  }
  // The first point's writer now: a plain run (one point) fails here, before any step, as
  // it always did, and the report learns whether writers have descriptor tables of their own.
  if (!points_.empty() && points_.front().comm && failure.empty()) {
    guarded([&] { ready_writer(0); }, failure);
  }
}

PointResources::~PointResources() {
  // Every rank frees in the same order: windows, front to back, before any communicator.
  for (std::unique_ptr<SharedCounter>& counter : counters_) counter.reset();
  points_.clear();
  writers_.clear();
}

std::optional<bool> PointResources::private_fd_tables() const { return private_fd_tables_; }

void PointResources::ready_writer(std::size_t point) {
  const PointSpec& spec = plans_[point].spec;
  const WriterKey key = keys_[point];
  ++uses_;
  if (auto live = writers_.find(key); live != writers_.end()) {
    live->second.last_used = uses_;
    return;
  }
  // Free the least recently used until the new one fits (every one, at the cap).
  auto live_threads = [&] {
    unsigned sum = 0;
    for (const auto& [k, w] : writers_) sum += std::get<0>(k);
    return sum;
  };
  while (!writers_.empty() && live_threads() + spec.threads > kMaxLiveWriterThreads) {
    auto oldest = writers_.begin();
    for (auto it = writers_.begin(); it != writers_.end(); ++it) {
      if (it->second.last_used < oldest->second.last_used) oldest = it;
    }
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (keys_[p] == oldest->first) points_[p].writer = nullptr;
    }
    writers_.erase(oldest);  // joins its threads (and tears down their rings) here
  }
  LiveWriter made{make_writer_for(plans_[point], key), uses_};
  if (!private_fd_tables_) private_fd_tables_ = made.writer->private_fd_tables();
  for (std::size_t p = 0; p < points_.size(); ++p) {
    if (keys_[p] == key && points_[p].comm) points_[p].writer = made.writer.get();
  }
  writers_.emplace(key, std::move(made));
}

void PointResources::make_counter(PointHandles& h, std::string& failure) {
  guarded([&] { counters_.push_back(SharedCounter::create(h.comm)); }, failure);
  if (failure.empty()) h.counter = counters_.back().get();
}

PointResources::WriterKey PointResources::key_of(const PointSpec& spec,
                                                 const RankPlan& plan) const {
  const bool writes_nothing =
      !plan.dynamic && std::all_of(plan.thread_writes.begin(), plan.thread_writes.end(),
                                   [](const Progression& part) { return part.count == 0; });
  // The ring by the work, not the option (docs/uring.md, "Ring sizing").
  const unsigned depth = spec.engine == Engine::Uring ? ring_depth(spec.queue_depth, plan) : 1;
  return {spec.threads, spec.engine, depth, writes_nothing};
}

std::unique_ptr<Writer> PointResources::make_writer_for(const PointPlan& plan,
                                                        const WriterKey& key) const {
  WriteOptions options;
  static_cast<EngineOptions&>(options) = plan.engine;
  options.queue_depth = std::get<2>(key);  // this rank's ring, by its work
  options.writes_nothing = std::get<3>(key);
  options.verify_reads = config_.verify && phases_.has(Phase::Read);
  options.interrupt = &interrupt_signal();
  for (int rank : config_.slow_ranks) {
    if (rank == world_.rank()) options.per_file_delay_us = config_.slow_delay_us;
  }
  return make_writer(options);
}

}  // namespace mpiwrite
