#include "mpiwrite/core/difference_source.hpp"

#include <algorithm>
#include <cmath>

#include "mpiwrite/core/statistics.hpp"

namespace mpiwrite {

namespace {

// Per operation slot of `phase`, the median over the point's repetitions of its mean per item;
// empty when the point has no repetition of that phase.
std::vector<double> median_means(const PointReport& point, Phase phase) {
  const std::size_t slots = operations_of(phase).size();
  std::vector<std::vector<double>> means(slots);
  for (const RepetitionFigures& rep : point.repetitions) {
    for (const PhaseFigures& f : rep.all_phases()) {
      if (f.phase != phase) continue;
      for (std::size_t i = 0; i < slots; ++i) means[i].push_back(f.operations[i].mean_us);
    }
  }
  std::vector<double> medians;
  for (std::vector<double>& m : means) {
    if (m.empty()) return {};
    medians.push_back(median_of(std::move(m)));
  }
  return medians;
}

}  // namespace

std::optional<double> OperationDifference::relative() const {
  if (runner_up_us <= 0) return std::nullopt;
  return change_us() / runner_up_us;
}

std::vector<OperationDifference> difference_sources(const PointReport& winner,
                                                const PointReport& runner_up, Phase phase) {
  const std::vector<double> a = median_means(winner, phase);
  const std::vector<double> b = median_means(runner_up, phase);
  if (a.empty() || b.empty()) return {};
  const std::span<const Operation> ops = operations_of(phase);
  std::vector<OperationDifference> changes;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (a[i] <= 0 && b[i] <= 0) continue;  // not measured in either (fsync without --fsync)
    changes.push_back({ops[i], a[i], b[i]});
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const OperationDifference& x, const OperationDifference& y) {
                     return std::abs(x.change_us()) > std::abs(y.change_us());
                   });
  return changes;
}

}  // namespace mpiwrite
