#include "mpiwrite/comparison.hpp"

#include <map>

namespace mpiwrite {

void summarize_points(std::vector<PointReport>& points) {
  for (PointReport& p : points) {
    std::vector<double> makespans;
    makespans.reserve(p.repetitions.size());
    for (std::size_t i = 0; i < p.repetitions.size(); ++i) makespans.push_back(p.repetitions.makespan_s(i));
    p.makespan = summarize_series(std::move(makespans));
  }
  if (points.empty()) return;
  const PointReport& base = points.front();
  for (PointReport& p : points) {
    p.speedup.reset();
    p.efficiency.reset();
    // A mean of 0 (the null engine on a coarse clock) gives no ratio either.
    if (!base.measured() || !p.measured() || base.makespan.mean <= 0 || p.makespan.mean <= 0) {
      continue;
    }
    p.speedup = base.makespan.mean / p.makespan.mean;
    const double scale = static_cast<double>(p.spec.concurrency()) /
                         static_cast<double>(base.spec.concurrency());
    p.efficiency = *p.speedup / scale;
  }
}

namespace {

ModeCell cell_of(const PointReport& p) {
  ModeCell cell{p.spec.label(), p.repetitions.size(), std::nullopt, p.speedup, p.efficiency};
  if (p.measured()) cell.mean_s = p.makespan.mean;
  return cell;
}

// The faster of two hybrids; a measured one always beats an unmeasured one.
void keep_faster(std::optional<ModeCell>& slot, const ModeCell& candidate) {
  if (!candidate.mean_s) {
    if (!slot) slot = candidate;
    return;
  }
  if (!slot || !slot->mean_s || *candidate.mean_s < *slot->mean_s) slot = candidate;
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
      if (!*slot || !(*slot)->mean_s) continue;  // never measured: cannot win
      if (row.winner.empty() || *(*slot)->mean_s < best) {
        row.winner = name;
        best = *(*slot)->mean_s;
      }
    }
    result.push_back(std::move(row));
  }
  return result;
}

}  // namespace mpiwrite
