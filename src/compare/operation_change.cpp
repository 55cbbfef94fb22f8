#include "mpiwrite/compare/operation_change.hpp"

#include <algorithm>
#include <cmath>

namespace mpiwrite {

namespace {

double mean_us(const OperationTotal& t) { return t.total_ns / t.count / 1000.0; }

const OperationTotal* find(const PerFileTotals& totals, const std::string& name) {
  const auto it = std::find_if(totals.operations.begin(), totals.operations.end(),
                               [&](const OperationTotal& t) { return t.name == name; });
  return it == totals.operations.end() ? nullptr : &*it;
}

// The latency outside every operation, as a total; empty when the operations sum above it.
std::optional<OperationTotal> other_of(const PerFileTotals& totals) {
  double operations_ns = 0;
  for (const OperationTotal& t : totals.operations) operations_ns += t.total_ns;
  if (operations_ns > totals.latency.total_ns) return std::nullopt;
  return OperationTotal{kOtherOperation, totals.latency.total_ns - operations_ns,
                        totals.latency.count};
}

}  // namespace

std::optional<double> OperationChange::relative() const {
  if (old_us <= 0) return std::nullopt;
  return new_us / old_us - 1;
}

std::optional<ChangeAttribution> attribute_change(const PerFileTotals& old_totals,
                                                  const PerFileTotals& new_totals) {
  if (!old_totals.complete || !new_totals.complete) return std::nullopt;
  if (old_totals.latency.count <= 0 || new_totals.latency.count <= 0) return std::nullopt;
  ChangeAttribution a;
  a.latency = {"latency", mean_us(old_totals.latency), mean_us(new_totals.latency)};
  for (const OperationTotal& o : old_totals.operations) {
    const OperationTotal* n = find(new_totals, o.name);
    if (n == nullptr || o.count <= 0 || n->count <= 0) continue;
    a.operations.push_back({o.name, mean_us(o), mean_us(*n)});
  }
  const std::optional<OperationTotal> old_other = other_of(old_totals);
  const std::optional<OperationTotal> new_other = other_of(new_totals);
  if (old_other && new_other) {
    a.operations.push_back({kOtherOperation, mean_us(*old_other), mean_us(*new_other)});
  }
  std::stable_sort(a.operations.begin(), a.operations.end(),
                   [](const OperationChange& x, const OperationChange& y) {
                     return std::fabs(x.change_us()) > std::fabs(y.change_us());
                   });
  return a;
}

}  // namespace mpiwrite
