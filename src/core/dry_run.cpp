#include "mpiwrite/core/dry_run.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>
#include <string>
#include <vector>

#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/workload_words.hpp"

namespace mpiwrite {

namespace {

// The directories each rank of the point creates before its write phase (nothing to say for
// the default layout, whose files all live in the run directory). Long lists are elided.
void write_directories(const PointPlan& plan, std::ostream& out) {
  const DirectoryLayout& layout = plan.layout;
  const PointSpec& point = plan.spec;
  if (layout.flat()) return;
  constexpr std::size_t kShown = 6;
  for (int rank = 0; rank < point.ranks; ++rank) {
    const std::vector<std::string> dirs = layout.rank_directories(rank);
    std::string list;
    for (std::size_t i = 0; i < dirs.size(); ++i) {
      if (i == kShown - 1 && dirs.size() > kShown) {
        list += fmt::format(", ... ({} more), {}", dirs.size() - kShown, dirs.back());
        break;
      }
      list += (i == 0 ? "" : ", ") + dirs[i];
    }
    fmt::print(out, "rank {} creates {} director{}{}{}\n", rank, dirs.size(),
               dirs.size() == 1 ? "y" : "ies", dirs.empty() ? "" : ": ", list);
  }
}

void write_point(const RunConfig& config, const PointPlan& plan, FileNamer& namer,
                 std::ostream& out) {
  const PointSpec& point = plan.spec;
  if (config.partition == Partition::Dynamic) {
    fmt::print(out,
               "every thread of ranks 0..{} takes chunks of {} files on demand from a counter "
               "on rank 0, until all {} are taken\n",
               point.ranks - 1, config.chunk, config.files);
    return;
  }
  for (int rank = 0; rank < point.ranks; ++rank) {
    const RankPlan mine = plan.rank(rank);
    for (unsigned thread = 0; thread < point.threads; ++thread) {
      const Progression& part = mine.thread_writes[thread];
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

}  // namespace

void write_plan(const RunConfig& config, const std::vector<PointPlan>& plans, std::ostream& out) {
  FileNamer namer(parse_pattern(config.pattern));
  fmt::print(out, "dry run, nothing is written: {} point(s), {} partition, {} into {}\n",
             plans.size(), to_string(config.partition), files_words(config), config.dir);
  fmt::print(out, "each file: {} B ({}){}\n", config.file_size_bytes(), writes_words(config),
             config.fsync ? ", fsync before close" : "");
  const std::vector<Layout>& layouts = config.layouts;
  if (layouts != std::vector<Layout>{Layout::Shared} || config.files_per_dir != 0 ||
      config.tree_depth != 0) {
    std::vector<std::string_view> names;
    for (Layout layout : layouts) names.push_back(to_string(layout));
    const std::string below =
        config.tree_depth > 0
            ? fmt::format(", a tree of depth {}, branch {} below each layout directory, files "
                          "in its leaves",
                          config.tree_depth, config.branch)
        : config.files_per_dir > 0
            ? fmt::format(", at most {} files per subdirectory", config.files_per_dir)
            : std::string();
    fmt::print(out, "layout{}: {}{}\n", layouts.size() == 1 ? "" : "s (each point in each)",
               fmt::join(names, ", "), below);
  }
  fmt::print(out, "repetitions: {} warm-up + {} timed{}; {}\n", config.warmup, config.repetitions,
             plans.size() > 1 ? " per point" : "",
             plans.size() > 1   ? "points interleaved in shuffled rounds, each repetition in a "
                                  "fresh scratch directory"
             : config.overwrite ? "every repetition rewrites the same files in place"
                                : "the last timed repetition writes into the directory, every "
                                  "earlier one into a fresh scratch subdirectory");
  if (config.time_limit_s > 0) {
    fmt::print(out,
               "time limit: {:g} s per write phase: each thread writes a prefix of what is "
               "listed below{}\n",
               config.time_limit_s,
               config.wear_out ? ", then goes on to the largest count any thread reached" : "");
  }
  for (const PointPlan& plan : plans) {
    const PointSpec& point = plan.spec;
    fmt::print(
        out, "point {} ({}): {} rank(s) x {} thread(s){}\n", point.label(), to_string(point.mode),
        point.ranks, point.threads,
        point.engine == Engine::Uring
            ? fmt::format(", io_uring with {} file(s) in flight per thread", point.queue_depth)
            : "");
    write_directories(plan, out);
    write_point(config, plan, namer, out);
  }
}

}  // namespace mpiwrite
