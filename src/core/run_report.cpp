#include "mpiwrite/core/run_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>

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

void summarize_report(RunReport& report) {
  summarize_points(report.points, report.seed);
  if (report.kind == RunKind::Compare) report.comparison = compare_rows(report.points, report.seed);
  report.warnings = comparison_warnings(report.points, report.config.repetitions);
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
    f.last_done_s = std::max(f.last_done_s, rank.start_s + rank.elapsed_s);
  }
  std::erase_if(figures, [](const HostFigures& f) { return f.ranks.empty(); });
  return figures;
}

std::vector<std::string> setup_warnings(const RunContext& x) {
  std::vector<std::string> warnings;
  for (std::size_t rank = 0; rank < x.cpus_of_rank.size(); ++rank) {
    const int cpus = x.cpus_of_rank[rank];
    if (cpus > 0 && static_cast<unsigned>(cpus) < x.threads) {
      const int bound = rank < x.bound_by_launcher.size() ? x.bound_by_launcher[rank] : -1;
      // Not bound by mpirun (--bind-to none was given): advising it again would not help; the
      // limit is the CPUs the rank's job or machine allows.
      const std::string advice =
          bound == 0 ? fmt::format("mpirun did not bind it (--bind-to none), so the limit is "
                                   "the CPUs its job or machine allows (a batch job's CPUs per "
                                   "task, a container's cpuset, taskset): ask for {} CPUs per "
                                   "rank or use --threads {}",
                                   x.threads, cpus)
          : bound == 1 ? fmt::format("mpirun bound it; use --bind-to none or --map-by slot:PE={}",
                                     x.threads)
                       : fmt::format("mpirun binds ranks to cores by default; use --bind-to none "
                                     "or --map-by slot:PE={}",
                                     x.threads);
      warnings.push_back(fmt::format(
          "rank {} may run on {} CPU(s) for {} writer threads: its threads share cores. {}", rank,
          cpus, x.threads, advice));
      break;  // one line says it; the JSON lists every rank's CPUs
    }
  }
  return warnings;
}

std::string signal_name(int signal) {
  switch (signal) {
    case 2: return "SIGINT";
    case 15: return "SIGTERM";
    default: return fmt::format("signal {}", signal);
  }
}

}  // namespace mpiwrite
