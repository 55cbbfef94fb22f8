// CSV: a fixed header (docs/metrics.md), one row per repetition, optional per-rank rows, and
// summary rows named after their statistic.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "mpiwrite/report.hpp"

namespace mpiwrite {

const char* const kCsvHeader =
    "row,repetition,rank,ranks,threads,files,bytes,elapsed_s,fastest_s,mean_s,imbalance,"
    "files_per_s,mib_per_s,p50_us,p90_us,p99_us,max_us";

void write_csv(const RunReport& r, std::ostream& out) {
  const int ranks = r.context.ranks;
  const unsigned threads = r.context.threads;
  fmt::print(out, "{}\n", kCsvHeader);
  for (const RepetitionFigures& rep : r.repetitions) {
    fmt::print(out, "repetition,{},,{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", rep.index, ranks,
               threads, rep.files, rep.bytes, rep.slowest_s, rep.fastest_s, rep.mean_s,
               rep.imbalance, rep.files_per_s, rep.mib_per_s, rep.latency.p50_us,
               rep.latency.p90_us, rep.latency.p99_us, rep.latency.max_us);
    if (!r.config.per_rank) continue;
    for (const RankFigures& rank : rep.ranks) {
      fmt::print(out, "rank,{},{},{},{},{},{},{},,,,,,,,,\n", rep.index, rank.rank, ranks,
                 threads, rank.files, rank.bytes, rank.elapsed_s);
    }
  }
  // Summary rows: elapsed_s is the statistic of the makespan over the timed repetitions;
  // files_per_s is the files of one repetition over that time (not for stddev).
  const std::uint64_t files = r.repetitions.empty() ? 0 : r.repetitions.back().files;
  const std::uint64_t bytes = r.repetitions.empty() ? 0 : r.repetitions.back().bytes;
  const SeriesSummary& m = r.makespan;
  const std::pair<const char*, double> rows[] = {
      {"mean", m.mean}, {"median", m.median}, {"min", m.min}, {"max", m.max}};
  for (const auto& [name, seconds] : rows) {
    fmt::print(out, "{},,,{},{},{},{},{},,,,{},,,,,\n", name, ranks, threads, files, bytes,
               seconds, seconds > 0 ? static_cast<double>(files) / seconds : 0.0);
  }
  fmt::print(out, "stddev,,,{},{},{},{},{},,,,,,,,,\n", ranks, threads, files, bytes, m.stddev);
}

}  // namespace mpiwrite
