// Which files a rank takes in the later phases (phase_share.hpp).
#include "mpiwrite/core/phase_share.hpp"

#include <utility>

namespace mpiwrite {

int share_owner(Phase phase, int rank, int ranks, unsigned shift) {
  if (phase == Phase::Remove || ranks <= 1) return rank;
  return static_cast<int>((static_cast<std::uint64_t>(rank) + shift) %
                          static_cast<std::uint64_t>(ranks));
}

Progression completed_share(Phase phase, const WorkSplit& write, int rank, unsigned shift) {
  return written_slice(write, share_owner(phase, rank, write.ranks, shift));
}

std::vector<std::vector<Progression>> split_over_threads(const std::vector<Progression>& share,
                                                         unsigned threads) {
  std::uint64_t total = 0;
  for (const Progression& p : share) total += p.count;
  std::vector<std::vector<Progression>> out(threads);
  std::size_t part = 0;      // the progression of `share` being dealt
  std::uint64_t taken = 0;   // of it, already dealt
  for (unsigned t = 0; t < threads; ++t) {
    const std::uint64_t begin = total * t / threads;
    const std::uint64_t end = total * (t + 1) / threads;
    for (std::uint64_t left = end - begin; left > 0;) {
      while (share[part].count == taken) {
        ++part;
        taken = 0;
      }
      const Progression& p = share[part];
      const std::uint64_t n = std::min(left, p.count - taken);
      out[t].push_back({p.at(taken), n, p.stride});
      taken += n;
      left -= n;
    }
  }
  return out;
}

}  // namespace mpiwrite
