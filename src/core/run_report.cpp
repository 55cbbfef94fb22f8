#include "mpiwrite/core/run_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <ostream>

#include "mpiwrite/core/progress_line.hpp"

namespace mpiwrite {

void summarize_report(RunReport& report) {
  summarize_points(report.points, report.seed);
  for (PointReport& p : report.points) p.stopped_by = report.stopped_by;
  if (report.kind == RunKind::Compare) {
    report.comparison = compare_rows(report.points, report.seed, report.config.equivalence);
  }
  report.warnings = comparison_warnings(report.points, report.config.repetitions);
  for (PointReport& p : report.points)
    p.hosts = summarize_hosts(p.repetitions, report.context.hosts);
}

namespace {

// The seconds of every timed phase of every repetition so far: what --max-time budgets.
double timed_seconds(const std::vector<PointReport>& points) {
  double spent = 0;
  for (const PointReport& p : points) {
    for (const RepetitionFigures& rep : p.repetitions) {
      spent += rep.makespan_s;
      for (const PhaseFigures& phase : rep.phases) spent += phase.makespan_s;
    }
  }
  return spent;
}

StoppingRule rule_of(const RunConfig& c) {
  return {c.precision, c.min_repetitions, c.max_repetitions, c.max_time_s};
}

}  // namespace

std::optional<StoppedBy> stop_repeating(const RunConfig& config,
                                        const std::vector<PointReport>& points, unsigned rounds) {
  std::vector<std::vector<double>> times;
  times.reserve(points.size());
  for (const PointReport& p : points) times.push_back(p.compared_times());
  return should_stop(rule_of(config), times, rounds, timed_seconds(points));
}

std::string auto_progress_note(const RunConfig& config, const std::vector<PointReport>& points) {
  std::optional<double> worst;
  bool all = true;
  for (const PointReport& p : points) {
    const std::optional<double> precision = median_precision(p.compared_times());
    if (!precision) all = false;
    if (precision && (!worst || *precision > *worst)) worst = precision;
  }
  const std::string reached = all && worst ? fmt::format("{:.1f}%", 100 * *worst) : "none yet";
  const double left = std::max(0.0, config.max_time_s - timed_seconds(points));
  return fmt::format("precision {} (goal {:g}%), {} of {} left", reached,
                     100 * config.precision, format_seconds(left),
                     format_seconds(config.max_time_s));
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
