// The workload's words (workload_words.hpp).
#include "mpiwrite/core/workload_words.hpp"

#include <fmt/format.h>

namespace mpiwrite {

namespace {

std::string plural(std::uint64_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

std::string files_words(const RunConfig& c) {
  if (!c.files_per_rank || *c.files_per_rank == 0) return plural(c.files, "file");
  // files was resolved to N x the job's ranks (resolve_for_world), so the ranks follow.
  return fmt::format("{} ({} per rank x {})", plural(c.files, "file"), *c.files_per_rank,
                     plural(c.files / *c.files_per_rank, "rank"));
}

std::string writes_words(const RunConfig& c) {
  const FileBytes bytes = c.bytes();
  if (!c.file_size) {  // the seed's wording
    return c.write_mode == WriteMode::Line
               ? fmt::format("{} of {} B each", plural(c.lines, "write"), bytes.write)
               : std::string("one write() each");
  }
  const std::uint64_t writes = bytes.writes();
  if (writes == 0) return "no write";
  if (writes == 1) return fmt::format("1 write of {} B", bytes.file);
  const std::uint64_t last = bytes.file - (writes - 1) * bytes.write;
  if (last == bytes.write) return fmt::format("{} writes of {} B each", writes, bytes.write);
  return fmt::format("{} writes of {} B, the last {} B", writes, bytes.write, last);
}

}  // namespace mpiwrite
