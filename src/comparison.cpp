#include "mpiwrite/comparison.hpp"

#include <map>

namespace mpiwrite {

void summarize_points(std::vector<PointReport>& points) {
  for (PointReport& p : points) {
    std::vector<double> makespans;
    for (const RepetitionFigures& rep : p.repetitions) makespans.push_back(rep.slowest_s);
    p.makespan = summarize_series(std::move(makespans));
  }
  if (points.empty()) return;
  const PointReport& base = points.front();
  for (PointReport& p : points) {
    p.speedup = p.makespan.mean > 0 ? base.makespan.mean / p.makespan.mean : 0.0;
    const double scale = static_cast<double>(p.spec.concurrency()) /
                         static_cast<double>(base.spec.concurrency());
    p.efficiency = p.speedup / scale;
  }
}

namespace {

ModeCell cell_of(const PointReport& p) {
  return {p.spec.label(), p.makespan.mean, p.speedup, p.efficiency};
}

void keep_faster(std::optional<ModeCell>& slot, const ModeCell& candidate) {
  if (!slot || candidate.mean_s < slot->mean_s) slot = candidate;
}

}  // namespace

std::vector<ComparisonRow> compare_rows(const std::vector<PointReport>& points) {
  std::map<std::uint64_t, ComparisonRow> rows;
  for (const PointReport& p : points) {
    ComparisonRow& row = rows[p.spec.concurrency()];
    row.concurrency = p.spec.concurrency();
    const ModeCell cell = cell_of(p);
    if (p.spec.mode == PointMode::Async) {
      row.async = cell;
    } else if (p.spec.ranks == 1 && p.spec.threads == 1) {
      row.processes = row.threads = cell;
    } else if (p.spec.mode == PointMode::Processes) {
      row.processes = cell;
    } else if (p.spec.mode == PointMode::Threads) {
      row.threads = cell;
    } else if (p.spec.mode == PointMode::Hybrid) {
      keep_faster(row.hybrid, cell);
    }
  }
  std::vector<ComparisonRow> result;
  for (auto& [concurrency, row] : rows) {
    double best = 0;
    const std::pair<const char*, const std::optional<ModeCell>*> modes[] = {
        {"processes", &row.processes}, {"threads", &row.threads}, {"hybrid", &row.hybrid},
        {"async", &row.async}};
    for (const auto& [name, slot] : modes) {
      if (*slot && (row.winner.empty() || (*slot)->mean_s < best)) {
        row.winner = name;
        best = (*slot)->mean_s;
      }
    }
    result.push_back(std::move(row));
  }
  return result;
}

}  // namespace mpiwrite
