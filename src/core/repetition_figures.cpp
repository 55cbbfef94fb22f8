#include "mpiwrite/core/repetition_figures.hpp"

#include <algorithm>

namespace mpiwrite {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double us(std::uint64_t ns) { return static_cast<double>(ns) / 1e3; }

// A rate over a duration that may be zero (a rank with no files, or the null engine on a
// coarse clock): 0 rather than infinity, so reports and JSON stay finite.
double per_second(double amount, double seconds) { return seconds > 0 ? amount / seconds : 0.0; }

}  // namespace

LatencyFigures latency_figures(const LatencyHistogram& merged) {
  LatencyFigures l;
  l.p50_us = us(merged.percentile_ns(0.50));
  l.p90_us = us(merged.percentile_ns(0.90));
  l.p99_us = us(merged.percentile_ns(0.99));
  l.max_us = us(merged.max_ns());
  l.mean_us = merged.count() ? us(merged.total_ns()) / static_cast<double>(merged.count()) : 0.0;
  l.count = merged.count();
  l.total_ns = merged.total_ns();
  return l;
}

OperationFigures operation_figures(const OperationHistograms& merged, Phase phase) {
  OperationFigures figures;
  const std::span<const Operation> ops = operations_of(phase);
  for (std::size_t i = 0; i < ops.size(); ++i) figures[i] = latency_figures(merged[ops[i]]);
  return figures;
}

RepetitionFigures summarize_repetition(unsigned index, std::vector<RankFigures> ranks,
                                       const LatencyFigures& latency) {
  RepetitionFigures r;
  r.index = index;
  const auto [fastest, slowest] = std::minmax_element(
      ranks.begin(), ranks.end(),
      [](const RankFigures& a, const RankFigures& b) { return a.elapsed_s < b.elapsed_s; });
  r.slowest_s = slowest->elapsed_s;
  r.fastest_s = fastest->elapsed_s;
  double sum = 0;
  r.first_done_s = ranks.front().done_s();
  for (const RankFigures& rank : ranks) {
    const double done = rank.done_s();
    r.makespan_s = std::max(r.makespan_s, done);
    r.first_done_s = std::min(r.first_done_s, done);
    r.start_spread_s = std::max(r.start_spread_s, rank.start_s);
    sum += rank.elapsed_s;
    r.files += rank.files;
    r.bytes += rank.bytes;
  }
  r.mean_s = sum / static_cast<double>(ranks.size());
  r.imbalance = r.fastest_s > 0 ? r.slowest_s / r.fastest_s : 1.0;
  r.files_per_s = per_second(static_cast<double>(r.files), r.makespan_s);
  r.mib_per_s = per_second(static_cast<double>(r.bytes) / kMiB, r.makespan_s);
  r.latency = latency;
  r.ranks = std::move(ranks);
  return r;
}

RepetitionFigures summarize_repetition(unsigned index, std::vector<RankFigures> ranks,
                                       const LatencyHistogram& merged) {
  return summarize_repetition(index, std::move(ranks), latency_figures(merged));
}

PhaseFigures summarize_phase(Phase phase, const std::vector<RankFigures>& ranks,
                             const LatencyHistogram& latency,
                             const OperationHistograms& operations) {
  const RepetitionFigures r = summarize_repetition(0, ranks, latency);
  PhaseFigures f;
  f.phase = phase;
  f.makespan_s = r.makespan_s;
  f.first_done_s = r.first_done_s;
  f.start_spread_s = r.start_spread_s;
  f.slowest_s = r.slowest_s;
  f.fastest_s = r.fastest_s;
  f.imbalance = r.imbalance;
  f.items = r.files;
  f.bytes = r.bytes;
  f.items_per_s = r.files_per_s;
  f.mib_per_s = r.mib_per_s;
  f.latency = r.latency;
  f.operations = operation_figures(operations, phase);
  f.ranks = r.ranks;
  return f;
}

PhaseFigures RepetitionFigures::write_phase() const {
  PhaseFigures f;
  f.phase = Phase::Write;
  f.makespan_s = makespan_s;
  f.first_done_s = first_done_s;
  f.start_spread_s = start_spread_s;
  f.slowest_s = slowest_s;
  f.fastest_s = fastest_s;
  f.imbalance = imbalance;
  f.items = files;
  f.bytes = bytes;
  f.items_per_s = files_per_s;
  f.mib_per_s = mib_per_s;
  f.latency = latency;
  f.operations = operations;
  return f;
}

}  // namespace mpiwrite
