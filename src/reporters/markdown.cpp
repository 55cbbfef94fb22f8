// A Markdown report: the seed's results table, ready to paste into a write-up.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "describe.hpp"
#include "mpiwrite/report.hpp"

namespace mpiwrite {

void write_markdown(const RunReport& r, std::ostream& out) {
  fmt::print(out, "### mpiwrite {}: {}\n\n", r.context.mpiwrite_version, describe::layout(r));
  fmt::print(out, "- workload: {}\n", describe::workload(r.config));
  fmt::print(out, "- directory: `{}` ({})\n", r.context.directory, r.context.filesystem);
  fmt::print(out, "- runs: {}\n", describe::repetitions(r.config));
  fmt::print(out, "- timing: {}\n", describe::kTiming);
  for (const std::string& warning : setup_warnings(r.context)) {
    fmt::print(out, "- **warning**: {}\n", warning);
  }
  fmt::print(out, "\n");

  const SeriesSummary& m = r.makespan;
  fmt::print(out, "| ranks | threads per rank | repetitions | mean time (s) | median (s) | "
                  "min (s) | max (s) | stddev (s) |\n");
  fmt::print(out, "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  fmt::print(out, "| {} | {} | {} | {:.6f} | {:.6f} | {:.6f} | {:.6f} | {:.6f} |\n\n",
             r.context.ranks, r.context.threads, m.count, m.mean, m.median, m.min, m.max,
             m.stddev);

  fmt::print(out, "| rep | slowest rank (s) | fastest rank (s) | mean rank (s) | imbalance | "
                  "files/s | MiB/s | p50 (us) | p90 (us) | p99 (us) | max (us) |\n");
  fmt::print(out, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const RepetitionFigures& rep : r.repetitions) {
    fmt::print(out, "| {} | {:.6f} | {:.6f} | {:.6f} | {:.2f} | {:.1f} | {:.2f} | {:.1f} | "
                    "{:.1f} | {:.1f} | {:.1f} |\n",
               rep.index, rep.slowest_s, rep.fastest_s, rep.mean_s, rep.imbalance,
               rep.files_per_s, rep.mib_per_s, rep.latency.p50_us, rep.latency.p90_us,
               rep.latency.p99_us, rep.latency.max_us);
  }
  if (!r.config.per_rank) return;
  fmt::print(out, "\n| rep | rank | elapsed (s) | files | bytes |\n|---:|---:|---:|---:|---:|\n");
  for (const RepetitionFigures& rep : r.repetitions) {
    for (const RankFigures& rank : rep.ranks) {
      fmt::print(out, "| {} | {} | {:.6f} | {} | {} |\n", rep.index, rank.rank, rank.elapsed_s,
                 rank.files, rank.bytes);
    }
  }
}

}  // namespace mpiwrite
