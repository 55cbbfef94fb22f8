#include "mpiwrite/plan.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "mpiwrite/file_namer.hpp"
#include "mpiwrite/progression.hpp"

namespace mpiwrite {

void write_plan(const RunConfig& config, int ranks, std::ostream& out) {
  FileNamer namer(parse_pattern(config.pattern));
  fmt::print(out, "dry run, nothing is written: {} rank(s) x {} thread(s), {} partition, {} files "
                  "into {}\n",
             ranks, config.threads, to_string(config.partition), config.files, config.dir);
  fmt::print(out, "repetitions: {} warm-up + {} timed; {}\n", config.warmup, config.repetitions,
             config.overwrite ? "every repetition rewrites the same files in place"
                              : "the last timed repetition writes into the directory, every "
                                "earlier one into a fresh scratch subdirectory");
  const Progression all = whole_run(config.files);
  for (int rank = 0; rank < ranks; ++rank) {
    const Progression slice = split(all, static_cast<std::uint64_t>(ranks),
                                    static_cast<std::uint64_t>(rank), config.partition);
    for (unsigned thread = 0; thread < config.threads; ++thread) {
      const Progression part = config.threads == 1
                                   ? slice
                                   : split(slice, config.threads, thread, config.partition);
      if (part.count == 0) {
        fmt::print(out, "rank {} thread {}: no files\n", rank, thread);
        continue;
      }
      const std::string first(namer.name_view(part.first));
      fmt::print(out, "rank {} thread {}: {} file(s), indices {}..{} step {} ({} .. {})\n", rank,
                 thread, part.count, part.first, part.last(), part.stride, first,
                 namer.name_view(part.last()));
    }
  }
}

}  // namespace mpiwrite
