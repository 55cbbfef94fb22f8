#include "mpiwrite/core/common_clock.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace mpiwrite {

std::vector<RankFigures> on_common_axis(const std::vector<RankClockSample>& samples,
                                        const std::vector<std::int64_t>& offset_ns) {
  auto offset_of = [&](int rank) {
    return offset_ns.empty() ? std::int64_t{0} : offset_ns.at(static_cast<std::size_t>(rank));
  };
  std::int64_t common_start = std::numeric_limits<std::int64_t>::max();
  for (const RankClockSample& s : samples) {
    common_start = std::min(common_start, s.start_ns + offset_of(s.rank));
  }
  std::vector<RankFigures> figures;
  figures.reserve(samples.size());
  for (const RankClockSample& s : samples) {
    const std::int64_t start = s.start_ns + offset_of(s.rank) - common_start;
    figures.push_back({s.rank, static_cast<double>(s.end_ns - s.start_ns) / 1e9, s.files, s.bytes,
                       static_cast<double>(start) / 1e9});
  }
  return figures;
}

ClockOffset estimate_offset(const std::vector<ClockExchange>& exchanges) {
  const ClockExchange& best = *std::min_element(
      exchanges.begin(), exchanges.end(), [](const ClockExchange& a, const ClockExchange& b) {
        return a.received_ns - a.sent_ns < b.received_ns - b.sent_ns;
      });
  const std::int64_t round_trip = best.received_ns - best.sent_ns;
  // The middle of the round trip without overflow; rounding up keeps the bound honest.
  const std::int64_t middle = best.sent_ns + round_trip / 2;
  return {middle - best.remote_ns, (round_trip + 1) / 2};
}

std::vector<int> clock_domains(const std::vector<std::string>& boot_id_of_rank) {
  std::map<std::string, int> leader;
  std::vector<int> domain;
  domain.reserve(boot_id_of_rank.size());
  for (std::size_t r = 0; r < boot_id_of_rank.size(); ++r) {
    domain.push_back(leader.try_emplace(boot_id_of_rank[r], static_cast<int>(r)).first->second);
  }
  return domain;
}

}  // namespace mpiwrite
