#include "mpiwrite/core/run_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>

namespace mpiwrite {

void summarize_report(RunReport& report) {
  summarize_points(report.points, report.seed);
  if (report.kind == RunKind::Compare) report.comparison = compare_rows(report.points, report.seed);
  report.warnings = comparison_warnings(report.points, report.config.repetitions);
  for (PointReport& p : report.points)
    p.hosts = summarize_hosts(p.repetitions, report.context.hosts);
}

std::optional<PeakMemory> largest_peak_rss(const RunContext& x) {
  if (x.peak_rss_kib.empty()) return std::nullopt;
  const auto max = std::max_element(x.peak_rss_kib.begin(), x.peak_rss_kib.end());
  return PeakMemory{static_cast<int>(max - x.peak_rss_kib.begin()),
                    static_cast<double>(*max) / 1024.0};
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
          bound == 0 ? fmt::format(
                           "mpirun did not bind it (--bind-to none), so the limit is "
                           "the CPUs its job or machine allows (a batch job's CPUs per "
                           "task, a container's cpuset, taskset): ask for {} CPUs per "
                           "rank or use --threads {}",
                           x.threads, cpus)
          : bound == 1
              ? fmt::format("mpirun bound it; use --bind-to none or --map-by slot:PE={}", x.threads)
              : fmt::format(
                    "mpirun binds ranks to cores by default; use --bind-to none "
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
    case 1:
      return "SIGHUP";
    case 2:
      return "SIGINT";
    case 15:
      return "SIGTERM";
    default:
      return fmt::format("signal {}", signal);
  }
}

}  // namespace mpiwrite
