// Where writer threads get their files: up front (block, cyclic) or on demand (dynamic).
#include <algorithm>
#include <utility>

#include "mpiwrite/core/work_source.hpp"

#include "mpiwrite/core/rank_plan.hpp"

namespace mpiwrite {

StaticSource::StaticSource(std::vector<Progression> parts)
    : parts_(std::move(parts)), handed_out_(parts_.size(), 0) {}

StaticSource::StaticSource(const Progression& slice, unsigned threads, Partition partition)
    : StaticSource(thread_parts(slice, threads, partition)) {}

bool StaticSource::next(unsigned thread, Progression& chunk) {
  if (handed_out_[thread]) return false;
  handed_out_[thread] = 1;
  chunk = parts_[thread];
  return chunk.count > 0;
}

bool chunk_at(const Progression& whole, std::uint64_t start, std::uint64_t chunk,
              Progression& out) {
  if (start >= whole.count) return false;
  out = {whole.at(start), std::min(chunk, whole.count - start), whole.stride};
  return true;
}

AtomicCounterSource::AtomicCounterSource(const Progression& whole, std::uint64_t chunk)
    : whole_(whole), chunk_(chunk) {}

bool AtomicCounterSource::next(unsigned /*thread*/, Progression& out) {
  return chunk_at(whole_, next_.fetch_add(chunk_, std::memory_order_relaxed), chunk_, out);
}

PartsSource::PartsSource(std::vector<std::vector<Progression>> parts)
    : parts_(std::move(parts)), next_(parts_.size(), 0) {}

bool PartsSource::next(unsigned thread, Progression& chunk) {
  if (thread >= parts_.size() || next_[thread] == parts_[thread].size()) return false;
  chunk = parts_[thread][next_[thread]++];
  return true;
}

}  // namespace mpiwrite
