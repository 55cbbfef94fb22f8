// Where writer threads get their files: up front (block, cyclic) or on demand (dynamic).
#include <algorithm>
#include <utility>

#include "mpiwrite/core/work_source.hpp"

#include "mpiwrite/core/rank_plan.hpp"
#include "mpiwrite/core/split_mix64.hpp"

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

PartsSource::PartsSource(std::vector<std::vector<Progression>> parts)
    : parts_(std::move(parts)), cursors_(parts_.size()) {}

bool PartsSource::next(unsigned thread, Progression& chunk) {
  if (thread >= parts_.size()) return false;
  const std::vector<Progression>& mine = parts_[thread];
  std::size_t& at = cursors_[thread].next;
  while (at < mine.size()) {
    chunk = mine[at++];
    if (chunk.count > 0) return true;
  }
  return false;
}

std::vector<std::vector<Progression>> shuffled_parts(const std::vector<Progression>& share,
                                                     unsigned threads, std::uint64_t seed) {
  std::vector<std::uint64_t> order;
  std::uint64_t total = 0;
  for (const Progression& p : share) total += p.count;
  order.reserve(total);
  for (const Progression& p : share) {
    for (std::uint64_t i = 0; i < p.count; ++i) order.push_back(p.at(i));
  }
  SplitMix64 random(seed);
  for (std::uint64_t i = total; i > 1; --i) {
    std::swap(order[i - 1], order[random.below(i)]);
  }
  std::vector<std::vector<Progression>> parts(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const Progression block = split(Progression{0, total, 1}, threads, t, Partition::Block);
    parts[t].reserve(block.count);
    for (std::uint64_t i = 0; i < block.count; ++i) {
      parts[t].push_back(Progression{order[block.at(i)], 1, 1});
    }
  }
  return parts;
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
