// Where writer threads get their files: up front (block, cyclic) or on demand (dynamic).
#include <algorithm>

#include "mpiwrite/core/work_source.hpp"

namespace mpiwrite {

StaticSource::StaticSource(const Progression& slice, unsigned threads, Partition partition)
    : slice_(slice), threads_(threads), partition_(partition), handed_out_(threads, 0) {}

bool StaticSource::next(unsigned thread, Progression& chunk) {
  if (handed_out_[thread]) return false;
  handed_out_[thread] = 1;
  chunk = threads_ == 1 ? slice_ : split(slice_, threads_, thread, partition_);
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

}  // namespace mpiwrite
