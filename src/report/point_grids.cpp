#include "point_grids.hpp"

#include <algorithm>

#include "describe.hpp"

namespace mpiwrite {

namespace {

std::string seconds(double s) { return fmt::format("{:.6f}", s); }
std::string ratio(const std::optional<double>& r) { return r ? fmt::format("{:.2f}", *r) : "-"; }
// "1.92 [1.80-2.05]", or without an interval (the baseline, too few repetitions) the ratio.
std::string speedup_text(const std::optional<double>& speedup, const std::optional<Interval>& ci) {
  return ci ? fmt::format("{} [{}]", ratio(speedup), describe::interval(ci, "{:.2f}"))
            : ratio(speedup);
}

}  // namespace

Grid repetitions_grid(const PointReport& point, bool per_rank) {
  Grid g{{"rep", "makespan [s]", "first done [s]", "last start [s]", "slowest rank [s]",
          "fastest rank [s]", "imbalance", "files/s", "MiB/s", "p50 [us]", "p90 [us]", "p99 [us]",
          "max [us]"},
         {}};
  const bool verified = !point.repetitions.empty() && point.repetitions.front().verified;
  if (verified) g.header.insert(g.header.end(), {"verify [s]", "verified"});
  // --time-limit: what each repetition wrote, and by the limit (before any --wear-out).
  const bool limited = !point.repetitions.empty() && point.repetitions.front().limit.applied;
  if (limited) g.header.insert(g.header.end(), {"files", "at limit"});
  for (const RepetitionFigures& rep : point.repetitions) {
    // An outlier by Tukey's fences is marked, not dropped: the summary keeps every repetition.
    g.rows.push_back(
        {fmt::format("{}{}", rep.index, point.is_outlier(rep.index) ? "*" : ""),
         seconds(rep.makespan_s), seconds(rep.first_done_s), seconds(rep.start_spread_s),
         seconds(rep.slowest_s), seconds(rep.fastest_s), fmt::format("{:.2f}x", rep.imbalance),
         fmt::format("{:.1f}", rep.files_per_s), fmt::format("{:.2f}", rep.mib_per_s),
         fmt::format("{:.1f}", rep.latency.p50_us), fmt::format("{:.1f}", rep.latency.p90_us),
         fmt::format("{:.1f}", rep.latency.p99_us), fmt::format("{:.1f}", rep.latency.max_us)});
    if (verified) {
      const VerifyFigures& v = rep.verify;
      g.rows.back().push_back(seconds(v.elapsed_s));
      g.rows.back().push_back(v.mismatches
                                  ? fmt::format("{} of {} wrong", v.mismatches, v.files_checked)
                                  : fmt::format("{} ok", v.files_checked));
    }
    if (limited) {
      g.rows.back().push_back(fmt::format("{}", rep.files));
      g.rows.back().push_back(rep.limit.cut_short ? fmt::format("{}", rep.limit.files_at_limit)
                                                  : std::string("not reached"));
    }
    if (!per_rank) continue;
    for (const RankFigures& rank : rep.ranks) {
      g.rows.push_back({fmt::format("rank {}", rank.rank), seconds(rank.done_s()), "",
                        seconds(rank.start_s), seconds(rank.elapsed_s), "", ""});
      g.rows.back().resize(g.header.size());
      // Its files: in the "files" column when there is one (--time-limit), else after the
      // times, where they always stood.
      const std::string files = fmt::format("{} files", rank.files);
      g.rows.back()[limited ? g.header.size() - 2 : 7] = files;
    }
  }
  return g;
}

Grid operations_grid(const PointReport& point, bool fsync) {
  Grid g{{"rep", "operation", "p50 [us]", "p90 [us]", "p99 [us]", "max [us]", "mean [us]",
          "share of latency"},
         {}};
  for (const RepetitionFigures& rep : point.repetitions) {
    for (Operation op : kWriteOperations) {
      if (op == Operation::Fsync && !fsync) continue;  // not measured
      const LatencyFigures& l = rep.operations[static_cast<std::size_t>(op)];
      // Its part of the files' open-to-close time (the rest: the gaps between operations).
      const double whole = static_cast<double>(rep.latency.total_ns);
      const std::string share =
          whole > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(l.total_ns) / whole) : "-";
      g.rows.push_back({fmt::format("{}", rep.index), std::string(operation_name(op)),
                        fmt::format("{:.1f}", l.p50_us), fmt::format("{:.1f}", l.p90_us),
                        fmt::format("{:.1f}", l.p99_us), fmt::format("{:.1f}", l.max_us),
                        fmt::format("{:.1f}", l.mean_us), share});
    }
  }
  return g;
}

Grid point_operations_grid(const RunReport& r) {
  Grid g{{"mode", "ranks x threads", "latency [us]"}, {}};
  for (Operation op : kWriteOperations) {
    if (op == Operation::Fsync && !r.config.fsync) continue;  // not measured
    g.header.push_back(fmt::format("{} [us]", operation_name(op)));
  }
  for (const PointReport& p : r.points) {
    std::vector<std::string> row{std::string(to_string(p.spec.mode)), p.spec.label()};
    if (!p.measured()) {  // no figures, not zeros that read as a result
      row.push_back("not measured");
      row.resize(g.header.size(), "-");
      g.rows.push_back(std::move(row));
      continue;
    }
    // The median over the repetitions of each mean, as the points grid takes the makespan's.
    const auto median_mean = [&](auto figures_of) {
      std::vector<double> means;
      for (const RepetitionFigures& rep : p.repetitions) means.push_back(figures_of(rep).mean_us);
      return fmt::format("{:.1f}", median_of(std::move(means)));
    };
    row.push_back(median_mean([](const RepetitionFigures& rep) { return rep.latency; }));
    for (Operation op : kWriteOperations) {
      if (op == Operation::Fsync && !r.config.fsync) continue;
      const auto i = static_cast<std::size_t>(op);
      row.push_back(median_mean([i](const RepetitionFigures& rep) { return rep.operations[i]; }));
    }
    g.rows.push_back(std::move(row));
  }
  return g;
}

Grid points_grid(const RunReport& r) {
  // "repetitions" last, so the columns before it stay where scripts and readers expect them.
  Grid g{{"mode", "ranks x threads", "concurrency", "median [s]", "95% CI [s]", "mean [s]",
          "stddev [s]", "CV", "min [s]", "max [s]", "speedup", "95% CI", "efficiency", "files/s",
          "repetitions"},
         {}};
  // --time-limit cut a point short: its speedup is from the medians of the makespans scaled to
  // the asked files (docs/metrics.md), which then stand beside the makespans' own median.
  const bool scaled = std::any_of(r.points.begin(), r.points.end(),
                                  [](const PointReport& p) { return p.time_limited(); });
  if (scaled) g.header.insert(g.header.end() - 1, "scaled median [s]");
  for (const PointReport& p : r.points) {
    std::vector<std::string> row{std::string(to_string(p.spec.mode)), p.spec.label(),
                                 fmt::format("{}", p.spec.concurrency())};
    if (!p.measured()) {  // no figures at all, not zeros that read as a result
      row.resize(g.header.size() - 1, "-");
    } else {
      const SeriesSummary& m = p.makespan;
      row.insert(row.end(),
                 {seconds(m.median), describe::interval(m.median_ci), seconds(m.mean),
                  seconds(m.stddev), fmt::format("{:.1f}%", 100 * m.cv), seconds(m.min),
                  seconds(m.max), ratio(p.speedup), describe::interval(p.speedup_ci, "{:.2f}"),
                  ratio(p.efficiency), fmt::format("{:.1f}", p.files_per_s->at_median)});
      if (scaled) row.push_back(p.compared.count > 0 ? seconds(p.compared.median) : "-");
    }
    row.push_back(describe::measured(p.repetitions.size(), r.config.repetitions));
    g.rows.push_back(std::move(row));
  }
  return g;
}

Grid comparison_grid(const RunReport& r) {
  // The async column only when the comparison has uring points (--engine uring).
  bool async = false;
  for (const ComparisonRow& row : r.comparison) async = async || row.async.has_value();
  std::vector<std::pair<const char*, std::optional<ModeCell> ComparisonRow::*>> modes{
      {"processes", &ComparisonRow::processes},
      {"threads", &ComparisonRow::threads},
      {"hybrid", &ComparisonRow::hybrid}};
  if (async) modes.push_back({"async", &ComparisonRow::async});
  // A leading layout column only when layouts stand side by side (one layout: the grid it
  // always was).
  const bool layouts = std::any_of(
      r.comparison.begin(), r.comparison.end(),
      [&](const ComparisonRow& row) { return row.layout != r.comparison.front().layout; });
  Grid g{{"concurrency"}, {}};
  if (layouts) g.header.insert(g.header.begin(), "layout");
  for (const auto& [mode, slot] : modes) {
    g.header.insert(g.header.end(), {mode, "median [s]", "speedup [95% CI]", "efficiency"});
  }
  g.header.insert(g.header.end(), {"winner", "test (Mann-Whitney U, fastest vs runner-up)"});
  for (const ComparisonRow& row : r.comparison) {
    std::vector<std::string> cells{fmt::format("{}", row.concurrency)};
    if (layouts) cells.insert(cells.begin(), std::string(to_string(row.layout)));
    for (const auto& [mode, slot] : modes) {
      if (const std::optional<ModeCell>& cell = row.*slot; !cell) {
        cells.insert(cells.end(), {"-", "-", "-", "-"});
      } else if (!cell->median_s) {
        cells.insert(cells.end(), {cell->label, "not measured", "-", "-"});
      } else {
        // A point cut short by an interrupt says on how many repetitions its mean rests.
        const std::string label =
            cell->repetitions < r.config.repetitions
                ? fmt::format("{} ({})", cell->label,
                              describe::measured(cell->repetitions, r.config.repetitions))
                : cell->label;
        cells.insert(cells.end(),
                     {label, seconds(*cell->median_s),
                      speedup_text(cell->speedup, cell->speedup_ci), ratio(cell->efficiency)});
      }
    }
    cells.push_back(describe::winner(row));
    cells.push_back(describe::verdict(row, r.config.equivalence));
    g.rows.push_back(std::move(cells));
  }
  return g;
}

Grid hosts_grid(const PointReport& point) {
  Grid g{{"host", "ranks", "files", "bytes", "slowest rank median [s]", "slowest rank max [s]"},
         {}};
  for (const HostSummary& h : point.hosts) {
    g.rows.push_back({h.host, fmt::format("{}", fmt::join(h.ranks, ",")),
                      fmt::format("{}", h.files), fmt::format("{}", h.bytes),
                      seconds(h.slowest_median_s), seconds(h.slowest_max_s)});
  }
  return g;
}

namespace {

// 0: no rate (a repetition timed no item, or the clock saw no time): "-", not a figure.
std::string rate(double per_s) { return per_s > 0 ? fmt::format("{:.1f}", per_s) : "-"; }

}  // namespace

Grid phases_grid(const RunReport& report, bool latency) {
  const bool points = report.points.size() > 1;
  Grid g{{"phase", "items", "makespan [s]", "rate [/s]", "rate 95% CI [/s]", "imbalance"}, {}};
  if (latency) g.header.insert(g.header.end(), {"mean [us]", "per operation: mean [us]"});
  // A sweep or comparison: each phase's speedup against the baseline's same phase, placed as
  // the comparison table places the write phase's ("-" where the phase timed nothing).
  constexpr std::ptrdiff_t kAfterRateCi = 6;  // point, phase, items, makespan, rate, its CI
  if (points) {
    g.header.insert(g.header.begin(), "point");
    g.header.insert(g.header.begin() + kAfterRateCi, {"speedup [95% CI]", "efficiency"});
  }
  for (const PointReport& point : report.points) {
    if (!point.measured()) continue;
    const std::vector<RepetitionFigures> reps(point.repetitions.begin(), point.repetitions.end());
    for (std::size_t k = 0; k < point.phases.size(); ++k) {
      const PhaseSummary& s = point.phases[k];
      std::vector<double> imbalance, mean_us;
      std::vector<std::vector<double>> op_mean(operations_of(s.phase).size());
      for (const RepetitionFigures& rep : reps) {
        const PhaseFigures f = rep.all_phases()[k];
        imbalance.push_back(f.imbalance);
        mean_us.push_back(f.latency.mean_us);
        for (std::size_t i = 0; i < op_mean.size(); ++i) {
          op_mean[i].push_back(f.operations[i].mean_us);
        }
      }
      std::string ops;
      const std::span<const Operation> names = operations_of(s.phase);
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == Operation::Fsync && !report.config.fsync) continue;
        ops += fmt::format("{}{} {:.1f}", ops.empty() ? "" : ", ", operation_name(names[i]),
                           median_of(op_mean[i]));
      }
      std::vector<std::string> row{
          std::string(phase_name(s.phase)),
          fmt::format("{} {}", s.items, counts_directories(s.phase) ? "dirs" : "files"),
          seconds(s.makespan.median), rate(s.items_per_s.at_median),
          // Below 6 repetitions the median has no 95 % interval: the range of the rates
          // measured stands there, said as such.
          s.rate_ci ? fmt::format("{} - {}", rate(s.rate_ci->low), rate(s.rate_ci->high))
          : s.items_per_s.at_median > 0
              ? fmt::format("range {} - {}", rate(s.items_per_s.at_max), rate(s.items_per_s.at_min))
              : "-",
          fmt::format("{:.2f}x", median_of(imbalance))};
      if (latency) row.insert(row.end(), {fmt::format("{:.1f}", median_of(mean_us)), ops});
      if (points) {
        row.insert(row.begin(), point.spec.label());
        row.insert(row.begin() + kAfterRateCi,
                   {speedup_text(s.speedup, s.speedup_ci), ratio(s.efficiency)});
      }
      g.rows.push_back(std::move(row));
    }
  }
  return g;
}

Grid phase_ranks_grid(const RunReport& report) {
  const bool points = report.points.size() > 1;
  Grid g{{"rep", "phase", "rank", "start [s]", "done [s]", "own time [s]", "items"}, {}};
  if (points) g.header.insert(g.header.begin(), "point");
  for (const PointReport& point : report.points) {
    for (const RepetitionFigures& rep : point.repetitions) {
      for (const PhaseFigures& f : rep.all_phases()) {
        const char* unit = counts_directories(f.phase) ? "dirs" : "files";
        for (const RankFigures& rank : f.ranks) {  // none in the write phase's (see above)
          std::vector<std::string> row{fmt::format("{}", rep.index),
                                       std::string(phase_name(f.phase)),
                                       fmt::format("rank {}", rank.rank),
                                       seconds(rank.start_s),
                                       seconds(rank.done_s()),
                                       seconds(rank.elapsed_s),
                                       fmt::format("{} {}", rank.files, unit)};
          if (points) row.insert(row.begin(), point.spec.label());
          g.rows.push_back(std::move(row));
        }
      }
    }
  }
  return g;
}

Grid phase_verdicts_grid(const RunReport& report) {
  bool layouts = false;
  for (const ComparisonRow& row : report.comparison) {
    layouts = layouts || row.layout != report.comparison.front().layout;
  }
  Grid g{{"concurrency", "phase", "fastest", "runner-up", "ratio of medians", "p-value",
          "phase winner"},
         {}};
  if (layouts) g.header.insert(g.header.begin(), "layout");
  for (const ComparisonRow& row : report.comparison) {
    for (const PhaseVerdict& v : row.phases) {
      const Verdict& d = v.verdict.verdict;
      std::vector<std::string> cells{fmt::format("{}", row.concurrency),
                                     std::string(phase_name(v.phase)),
                                     v.verdict.fastest,
                                     v.verdict.runner_up,
                                     fmt::format("{:.3f}", d.ratio),
                                     fmt::format("{:.3g}", d.test.p_value),
                                     v.winner.empty() ? std::string("none") : v.winner};
      if (layouts) cells.insert(cells.begin(), std::string(to_string(row.layout)));
      g.rows.push_back(std::move(cells));
    }
  }
  return g;
}

}  // namespace mpiwrite
