#include "mpiwrite/core/host_figures.hpp"

#include <algorithm>
#include <map>

#include "mpiwrite/core/statistics.hpp"

namespace mpiwrite {

std::vector<HostRanks> group_ranks_by_host(const std::vector<std::string>& host_of_rank) {
  std::vector<HostRanks> hosts;
  std::map<std::string, std::size_t> position;
  for (std::size_t rank = 0; rank < host_of_rank.size(); ++rank) {
    const auto [it, inserted] = position.emplace(host_of_rank[rank], hosts.size());
    if (inserted) hosts.push_back({host_of_rank[rank], {}});
    hosts[it->second].ranks.push_back(static_cast<int>(rank));
  }
  return hosts;
}

std::vector<HostFigures> per_host(const RepetitionFigures& rep,
                                  const std::vector<HostRanks>& hosts) {
  std::map<int, std::size_t> host_of_rank;
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    for (int rank : hosts[h].ranks) host_of_rank[rank] = h;
  }
  std::vector<HostFigures> figures(hosts.size());
  for (const RankFigures& rank : rep.ranks) {
    const auto found = host_of_rank.find(rank.rank);
    if (found == host_of_rank.end()) continue;
    HostFigures& f = figures[found->second];
    f.host = hosts[found->second].host;
    f.ranks.push_back(rank.rank);
    f.files += rank.files;
    f.bytes += rank.bytes;
    f.slowest_s = std::max(f.slowest_s, rank.elapsed_s);
    f.last_done_s = std::max(f.last_done_s, rank.done_s());
  }
  std::erase_if(figures, [](const HostFigures& f) { return f.ranks.empty(); });
  return figures;
}

std::vector<HostSummary> summarize_hosts(const RepetitionLog& repetitions,
                                         const std::vector<HostRanks>& hosts) {
  // Keyed by name, as the hosts of one point are the same in every repetition.
  std::map<std::string, std::vector<double>> slowest;
  std::vector<HostFigures> last;
  for (const RepetitionFigures& rep : repetitions) {
    last = per_host(rep, hosts);
    for (const HostFigures& h : last) slowest[h.host].push_back(h.slowest_s);
  }
  std::vector<HostSummary> result;
  for (const HostFigures& h : last) {
    const SeriesSummary s = summarize_series(slowest[h.host]);
    result.push_back({h.host, h.ranks, h.files, h.bytes, s.median, s.max});
  }
  return result;
}

}  // namespace mpiwrite
