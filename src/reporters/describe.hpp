#pragma once
// Wording shared by the human-readable reporters, so table and markdown say the same thing.

#include <fmt/format.h>

#include <string>

#include "mpiwrite/report.hpp"

namespace mpiwrite::describe {

inline std::string plural(std::uint64_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// "4 ranks x 2 threads on 1 host"
inline std::string layout(const RunReport& r) {
  return fmt::format("{} x {} on {}", plural(static_cast<std::uint64_t>(r.context.ranks), "rank"),
                     plural(r.context.threads, "thread"), plural(r.context.hosts.size(), "host"));
}

// "100 files of 1400 B (100 write() calls of 14 B each)"
inline std::string workload(const RunConfig& c) {
  const std::uint64_t line = c.text.size() + 1;
  const std::string writes = c.write_mode == WriteMode::Line
                                 ? fmt::format("{} of {} B each", plural(c.lines, "write"), line)
                                 : std::string("one write() each");
  return fmt::format("{} of {} B ({}{}), {} partition, {} engine",
                     plural(c.files, "file"), c.file_size_bytes(), writes,
                     c.fsync ? ", fsync before close" : "", to_string(c.partition),
                     to_string(c.engine));
}

inline std::string repetitions(const RunConfig& c) {
  return fmt::format("{} timed + {} warm-up; {}", plural(c.repetitions, "repetition"), c.warmup,
                     c.overwrite ? "files truncated and rewritten in place (--overwrite)"
                                 : "every repetition creates fresh files");
}

inline constexpr const char* kTiming =
    "per rank, steady_clock, from an MPI barrier to the rank's last close(); "
    "makespan = slowest rank; rates = total / makespan";

}  // namespace mpiwrite::describe
