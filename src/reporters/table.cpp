// The people-facing report: aligned columns with units in the headers.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "describe.hpp"
#include "mpiwrite/report.hpp"

namespace mpiwrite {

namespace {

void write_header(const RunReport& r, std::ostream& out) {
  const RunContext& x = r.context;
  fmt::print(out, "mpiwrite {}: {}\n", x.mpiwrite_version, describe::layout(r));
  fmt::print(out, "workload:  {}\n", describe::workload(r.config));
  fmt::print(out, "directory: {} ({})\n", x.directory, x.filesystem);
  fmt::print(out, "runs:      {}\n", describe::repetitions(r.config));
  fmt::print(out, "timing:    {}\n", describe::kTiming);
  for (const std::string& warning : setup_warnings(x)) fmt::print(out, "WARNING:   {}\n", warning);
  fmt::print(out, "\n");
}

void write_rows(const RunReport& r, std::ostream& out) {
  fmt::print(out, "{:>5} {:>12} {:>12} {:>12} {:>9} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
             "rep", "slowest [s]", "fastest [s]", "mean [s]", "imbalance", "files/s", "MiB/s",
             "p50 [us]", "p90 [us]", "p99 [us]", "max [us]");
  for (const RepetitionFigures& rep : r.repetitions) {
    fmt::print(out,
               "{:>5} {:>12.6f} {:>12.6f} {:>12.6f} {:>8.2f}x {:>12.1f} {:>10.2f} {:>10.1f} "
               "{:>10.1f} {:>10.1f} {:>10.1f}\n",
               rep.index, rep.slowest_s, rep.fastest_s, rep.mean_s, rep.imbalance,
               rep.files_per_s, rep.mib_per_s, rep.latency.p50_us, rep.latency.p90_us,
               rep.latency.p99_us, rep.latency.max_us);
    if (!r.config.per_rank) continue;
    for (const RankFigures& rank : rep.ranks) {
      fmt::print(out, "{:>5} {:>12.6f}   rank {}: {} files, {} bytes\n", "", rank.elapsed_s,
                 rank.rank, rank.files, rank.bytes);
    }
  }
}

void write_summary(const RunReport& r, std::ostream& out) {
  const SeriesSummary& m = r.makespan;
  fmt::print(out,
             "\nmakespan over {} [s]: mean {:.6f}  median {:.6f}  min {:.6f}  max {:.6f}  "
             "stddev {:.6f}\n",
             describe::plural(m.count, "repetition"), m.mean, m.median, m.min, m.max, m.stddev);
  if (!r.repetitions.empty()) {
    const RepetitionFigures& last = r.repetitions.back();
    fmt::print(out, "files written per repetition: {} ({} bytes)\n", last.files, last.bytes);
  }
  if (r.cleanup.ran) {
    fmt::print(out, "removal phase (not in any write time): {} removed in {:.6f} s\n",
               describe::plural(r.cleanup.files_removed, "file"), r.cleanup.elapsed_s);
  }
}

}  // namespace

void write_table(const RunReport& report, std::ostream& out) {
  write_header(report, out);
  write_rows(report, out);
  write_summary(report, out);
}

}  // namespace mpiwrite
