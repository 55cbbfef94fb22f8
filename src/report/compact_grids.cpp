#include "compact_grids.hpp"

#include <algorithm>

#include "describe.hpp"

namespace mpiwrite {

namespace {

std::string seconds(double s) { return fmt::format("{:.6f}", s); }
std::string ratio(const std::optional<double>& r) { return r ? fmt::format("{:.2f}", *r) : "-"; }

// The rate's interval from the makespan median's: files over its ends, swapped.
std::string rate_interval(std::uint64_t items, const std::optional<Interval>& makespan_ci) {
  if (!makespan_ci || makespan_ci->low <= 0) return "-";
  const auto n = static_cast<double>(items);
  return fmt::format("{}-{}", rate_text(n / makespan_ci->high), rate_text(n / makespan_ci->low));
}

}  // namespace

std::string rate_text(double per_s) { return fmt::format("{:.1f}", per_s); }

Grid run_rows_grid(const PointReport& point) {
  Grid g{{"rep", "files/s", "MiB/s", "makespan [s]", "imbalance", "p50 [us]", "p99 [us]"}, {}};
  const bool verified = !point.repetitions.empty() && point.repetitions.front().verified;
  if (verified) g.header.push_back("verified");
  const bool limited = !point.repetitions.empty() && point.repetitions.front().limit.applied;
  if (limited) g.header.insert(g.header.end(), {"files", "at limit"});
  for (const RepetitionFigures& rep : point.repetitions) {
    g.rows.push_back({fmt::format("{}{}", rep.index, point.is_outlier(rep.index) ? "*" : ""),
                      rate_text(rep.files_per_s), fmt::format("{:.2f}", rep.mib_per_s),
                      seconds(rep.makespan_s), fmt::format("{:.2f}x", rep.imbalance),
                      fmt::format("{:.1f}", rep.latency.p50_us),
                      fmt::format("{:.1f}", rep.latency.p99_us)});
    if (verified) {
      const VerifyFigures& v = rep.verify;
      g.rows.back().push_back(v.mismatches
                                  ? fmt::format("{} of {} wrong", v.mismatches, v.files_checked)
                                  : fmt::format("{} ok", v.files_checked));
    }
    if (limited) {
      g.rows.back().push_back(fmt::format("{}", rep.files));
      g.rows.back().push_back(rep.limit.cut_short ? fmt::format("{}", rep.limit.files_at_limit)
                                                  : std::string("not reached"));
    }
  }
  return g;
}

Grid rank_rows_grid(const PointReport& point) {
  Grid g{{"rank", "rep", "start [s]", "done [s]", "own time [s]", "files"}, {}};
  for (const RepetitionFigures& rep : point.repetitions) {
    for (const RankFigures& rank : rep.ranks) {
      g.rows.push_back({fmt::format("rank {}", rank.rank), fmt::format("{}", rep.index),
                        seconds(rank.start_s), seconds(rank.done_s()), seconds(rank.elapsed_s),
                        fmt::format("{}", rank.files)});
    }
  }
  return g;
}

Grid points_long_grid(const RunReport& r) {
  const bool compare = r.kind == RunKind::Compare;
  Grid g{{"mode", "point", "files/s", "files/s 95% CI", "speedup [95% CI]", "efficiency",
          "reps"},
         {}};
  if (compare) g.header.insert(g.header.begin(), {"concurrency", "winner"});
  if (!compare) g.header.insert(g.header.begin() + 2, "concurrency");
  const auto row_of = [&](const PointReport& p) {
    std::vector<std::string> row{std::string(to_string(p.spec.mode)), p.spec.label()};
    if (!compare) row.push_back(fmt::format("{}", p.spec.concurrency()));
    if (!p.measured()) {  // no figures at all, not zeros that read as a result
      row.push_back("not measured");
      row.resize(g.header.size() - (compare ? 3 : 1), "-");
    } else {
      const std::string speedup =
          p.speedup_ci ? fmt::format("{} [{}]", ratio(p.speedup),
                                     describe::interval(p.speedup_ci, "{:.2f}"))
                       : ratio(p.speedup);
      row.insert(row.end(), {rate_text(p.files_per_s->at_median),
                             rate_interval(p.files, p.makespan.median_ci), speedup,
                             ratio(p.efficiency)});
    }
    row.push_back(describe::measured(p.repetitions.size(), r.config.repetitions));
    return row;
  };
  if (!compare) {
    for (const PointReport& p : r.points) g.rows.push_back(row_of(p));
    return g;
  }
  // Each comparison row's points (every point of its layout and concurrency, hybrids that lost
  // too), the verdict on the first.
  std::vector<bool> shown(r.points.size());
  for (const ComparisonRow& c : r.comparison) {
    bool first = true;
    for (std::size_t i = 0; i < r.points.size(); ++i) {
      const PointReport& p = r.points[i];
      if (p.spec.layout != c.layout || p.spec.concurrency() != c.concurrency) continue;
      std::vector<std::string> row = row_of(p);
      row.insert(row.begin(), {first ? fmt::format("{}", c.concurrency) : "",
                               first ? describe::winner(c) : ""});
      g.rows.push_back(std::move(row));
      shown[i] = true;
      first = false;
    }
  }
  // A point no row holds (none should): shown all the same, with its concurrency, no verdict.
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    if (shown[i]) continue;
    std::vector<std::string> row = row_of(r.points[i]);
    row.insert(row.begin(), {fmt::format("{}", r.points[i].spec.concurrency()), "-"});
    g.rows.push_back(std::move(row));
  }
  return g;
}

}  // namespace mpiwrite
