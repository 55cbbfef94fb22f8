#pragma once
// Wording shared by the human-readable reporters, so table and markdown say the same thing.

#include <fmt/format.h>

#include <string>
#include <vector>

#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/core/workload_words.hpp"

namespace mpiwrite::describe {

inline std::string plural(std::uint64_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// How many of the asked timed repetitions a point measured: "5", "3 of 5" (an interrupted
// run), or "not measured" (it never completed one, so it has no figures at all).
inline std::string measured(std::size_t repetitions, unsigned asked) {
  if (repetitions == 0) return "not measured";
  if (repetitions < asked) return fmt::format("{} of {}", repetitions, asked);
  return fmt::format("{}", repetitions);
}

// "4 ranks x 2 threads on 1 host", or what a sweep or comparison measured.
inline std::string layout(const RunReport& r) {
  const std::string ranks = plural(static_cast<std::uint64_t>(r.context.ranks), "rank");
  const std::string hosts = plural(r.context.hosts.size(), "host");
  switch (r.kind) {
    case RunKind::Run:
      return fmt::format("{} x {} on {}", ranks, plural(r.context.threads, "thread"), hosts);
    case RunKind::Sweep:
      return fmt::format("sweep of threads per rank over {}, {} launched on {}",
                         plural(r.points.size(), "point"), ranks, hosts);
    case RunKind::Compare:
      return fmt::format("processes vs threads vs hybrid{} over {}, {} launched on {}",
                         r.config.engine == Engine::Uring ? " vs async (io_uring)" : "",
                         plural(r.points.size(), "point"), ranks, hosts);
  }
  return {};
}

// Where the files are, unless all in the run directory (the default says nothing). With
// several layouts (a sweep or comparison), their list: each point's label says its own.
inline std::string directories(const RunConfig& c) {
  std::string where;
  const bool one = c.layouts.size() == 1;
  if (!one) {
    std::vector<std::string_view> names;
    for (Layout l : c.layouts) names.push_back(to_string(l));
    where = fmt::format(", layouts {} side by side", fmt::join(names, " vs "));
  } else if (c.layouts.front() == Layout::Rank) {
    where = ", a directory per rank";
  } else if (c.layouts.front() == Layout::Thread) {
    where = ", a directory per writer thread";
  }
  if (c.files_per_dir > 0) {
    const char* sub = !one ? "(sub)" : c.layouts.front() == Layout::Shared ? "" : "sub";
    where += fmt::format(", at most {} per {}directory", plural(c.files_per_dir, "file"), sub);
  }
  if (c.tree_depth > 0) {  // "..., in the leaves of a tree of depth 2, branch 3 (9 leaves)"
    std::uint64_t leaves = 1;
    for (unsigned d = 0; d < c.tree_depth; ++d) leaves *= c.branch;  // validated: <= 10^6
    where += fmt::format(", in the leaves of a tree of depth {}, branch {} ({} lea{}){}",
                         c.tree_depth, c.branch, leaves, leaves == 1 ? "f" : "ves",
                         one && c.layouts.front() == Layout::Shared ? "" : " in each directory");
  }
  return where;
}

// "100 files of 1400 B (100 writes of 14 B each)" (core/workload_words.hpp)
inline std::string workload(const RunConfig& c) {
  const std::string writes = writes_words(c);
  const std::string partition = c.partition == Partition::Dynamic
                                    ? fmt::format("dynamic partition (chunks of {})", c.chunk)
                                    : fmt::format("{} partition", to_string(c.partition));
  std::string slow;
  for (int rank : c.slow_ranks) slow += fmt::format("{}{}", slow.empty() ? "" : ",", rank);
  if (!slow.empty())
    slow = fmt::format(", rank(s) {} slowed by {} us per file", slow, c.slow_delay_us);
  // In a comparison the uring engine is the async column only; the others run posix.
  const std::string engine =
      c.engine != Engine::Uring ? fmt::format("{} engine", to_string(c.engine))
      : c.compare               ? std::string("posix engine, and uring for the async column")
                  : fmt::format("uring engine (queue depth {} per thread)", c.queue_depth);
  return fmt::format("{} of {} B ({}{}), {}{}, {}{}", files_words(c), c.file_size_bytes(), writes,
                     c.fsync ? ", fsync before close" : "", partition, directories(c), engine,
                     slow);
}

// -r auto: why the repetitions ended and the worst precision any point reached: "(-r auto:
// stopped on precision, every median within 1.8% (goal 2%))".
inline std::string auto_repetitions(const RunReport& r) {
  const RunConfig& c = r.config;
  std::optional<double> worst;
  bool every = !r.points.empty();
  for (const PointReport& p : r.points) {
    if (!p.precision) every = false;
    if (p.precision && (!worst || *p.precision > *worst)) worst = p.precision;
  }
  const std::string reached =
      every && worst ? fmt::format("every median within {:.1f}%", 100 * *worst)
                     : std::string("no median with a 95% interval yet");
  std::string why;
  switch (r.stopped_by) {
    case StoppedBy::Precision:
      why = "stopped on precision";
      break;
    case StoppedBy::Budget:
      why = fmt::format("stopped by the budget of {:g} s (--max-time)", c.max_time_s);
      break;
    case StoppedBy::Maximum:
      why = fmt::format("stopped at the maximum of {} (--max-repetitions)", c.max_repetitions);
      break;
    case StoppedBy::Interrupted:
      why = "interrupted";
      break;
    case StoppedBy::Fixed:
      why = "fixed";
      break;
  }
  return fmt::format("(-r auto: {}, {} (goal {:g}%))", why, reached, 100 * c.precision);
}

inline std::string repetitions(const RunReport& r) {
  const RunConfig& c = r.config;
  const std::string each = r.kind == RunKind::Run ? "" : " per point";
  const std::string how =
      r.kind != RunKind::Run
          ? fmt::format(
                "points interleaved in shuffled rounds (seed {}), every repetition "
                "creates fresh files in its own directory",
                r.seed)
      : c.overwrite ? std::string("files truncated and rewritten in place (--overwrite)")
                    : std::string("every repetition creates fresh files");
  return fmt::format("{} timed{} + {} warm-up{}; {}", plural(c.repetitions, "repetition"),
                     c.auto_repetitions ? " " + auto_repetitions(r) : std::string(), c.warmup,
                     each, how);
}

// --time-limit: what the limit does, and how many repetitions it cut short.
inline std::string time_limit(const RunReport& r) {
  const RunConfig& c = r.config;
  std::uint64_t repetitions = 0, cut = 0;
  for (const PointReport& p : r.points) {
    for (std::size_t i = 0; i < p.repetitions.size(); ++i) {
      ++repetitions;
      if (p.repetitions.limit(i).cut_short) ++cut;
    }
  }
  return fmt::format(
      "time limit: {:g} s (--time-limit): a rank's writers take no new file after that long in "
      "its write phase{}; it cut {} of {} timed repetitions short. Files, rates{} count what "
      "was written",
      c.time_limit_s,
      c.wear_out ? ", then each goes on to the largest count any writer reached (--wear-out)" : "",
      cut, repetitions,
      r.kind == RunKind::Run ? ""
                             : ", speedups and winners (over each makespan scaled to the "
                               "asked files at its repetition's rate)");
}

// What a signal cut, after "INTERRUPTED by SIGINT": "in the stat phase of 2x1 rep 2: ...".
inline std::string interruption(const RunReport& r) {
  const std::optional<InterruptedIn>& in = r.interrupted_in;
  if (in && in->phase == "removal") {
    return " during the final removal: every repetition completed and is reported";
  }
  std::string where;
  if (in) {
    const std::string step = fmt::format("{} {} {}", printable(in->point),
                                         in->warmup ? "warm-up" : "rep", in->repetition);
    where = in->phase == "layout"
                ? fmt::format(" while making the layout directories of {}", step)
                : fmt::format(" in the {} phase of {}", in->phase, step);
  }
  return fmt::format("{}: only the repetitions that completed are reported; the one under way "
                     "was discarded",
                     where);
}

// --phases beyond write: which, and whose files stat and read took, in which order, and
// whether the read phase checked the content (JSON says the same in config and phases.read).
inline std::string phases(const RunReport& r) {
  const RunConfig& c = r.config;
  std::string list, reads;  // reads: the phases of another rank's files, "stat and read"
  bool read = false;
  for (Phase p : c.phases) {
    list += fmt::format("{}{}", list.empty() ? "" : ", ", phase_name(p));
    if (p == Phase::Stat || p == Phase::Read) {
      reads += fmt::format("{}{}", reads.empty() ? "" : " and ", phase_name(p));
    }
    read = read || p == Phase::Read;
  }
  std::string line = fmt::format("phases: {} (--phases), each timed from its own barrier", list);
  if (!reads.empty()) {
    line += fmt::format("; {0} on the files rank (r + {1}) mod ranks wrote (--shift {1})", reads,
                        c.shift);
  }
  if (c.random_order) {
    line +=
        fmt::format(", each rank's share in a shuffled order (--random-order, seed {})", r.seed);
  }
  if (c.verify && read) line += "; the read phase checks every file's content (--verify)";
  return line;
}

// The lines every human format adds after its header: the phases, interruption, time limit and
// memory.
inline std::vector<std::string> notes(const RunReport& r) {
  std::vector<std::string> lines;
  if (r.config.phases.size() > 1) lines.push_back(phases(r));
  if (r.config.time_limit_s > 0) lines.push_back(time_limit(r));
  if (r.interrupted_by) {
    lines.push_back(
        fmt::format("INTERRUPTED by {}{}", signal_name(r.interrupted_by), interruption(r)));
    if (!r.saved_copy.empty()) {
      lines.push_back(
          fmt::format("the whole report is also saved in {} (after a signal the "
                      "launcher may cut standard output short)",
                      printable(r.saved_copy)));
    }
    if (r.cleanup.in_background) {
      lines.push_back(
          "scratch files: being removed in the background after this report "
          "(a leftover .mpiwrite-*.trash directory is removed by the next run)");
    }
  }
  if (const std::optional<PeakMemory> peak = largest_peak_rss(r.context)) {
    lines.push_back(fmt::format("peak resident memory per rank: max {:.1f} MiB (rank {})",
                                peak->mib, peak->rank));
  }
  return lines;
}

// The point every speedup is against: the first (make_points puts 1x1 of the first layout
// there), so with several layouts one baseline for all, named with its layout.
inline std::string baseline(const RunReport& r) {
  return r.points.empty() ? std::string("1x1") : r.points.front().spec.label();
}

inline constexpr const char* kTiming =
    "makespan = the earliest rank start after an MPI barrier to the last rank's last close "
    "(uring: its completion), every rank on one CLOCK_MONOTONIC axis; rates = total / makespan";

// "95 % CI 0.004900-0.005300" or why there is none. The median's interval needs 6 repetitions.
inline std::string interval(const std::optional<Interval>& ci, const char* format = "{:.6f}") {
  if (!ci) return "-";
  return fmt::format("{}-{}", fmt::format(fmt::runtime(format), ci->low),
                     fmt::format(fmt::runtime(format), ci->high));
}

// The winner cell of a row: the winner, else "equivalent" or "undecided" (none measured: "-").
inline std::string winner(const ComparisonRow& row) {
  if (!row.winner.empty()) return row.winner;
  if (!row.verdict) return "none";
  return verdict_class_name(verdict_class(row.verdict->verdict.outcome));
}

// The comparison's verdict for a row: "p = 0.0022", and why no winner was named. `d`:
// --equivalence.
inline std::string verdict(const ComparisonRow& row, double d) {
  if (!row.verdict) return "-";
  const Verdict& v = row.verdict->verdict;
  const std::string p = fmt::format("p = {:.2g}", v.test.p_value);
  switch (v.outcome) {
    case Outcome::Equivalent:
      return fmt::format("equivalent within +-{:g} %: {} vs {} ratio {:.3f} [95% CI {}]",
                         100 * d, row.verdict->fastest, row.verdict->runner_up, v.ratio,
                         interval(v.ratio_ci, "{:.3f}"));
    case Outcome::AFaster:
      return fmt::format("{:.2f}x faster than {}, {}", v.ratio, row.verdict->runner_up, p);
    case Outcome::BFaster:  // cannot happen for the fastest by median; said plainly if it does
      return fmt::format("slower than {}, {}", row.verdict->runner_up, p);
    case Outcome::NoDifference:
      return fmt::format("undecided: {} vs {} not significant, {}", row.verdict->fastest,
                         row.verdict->runner_up, p);
    case Outcome::BelowNoise:
      return fmt::format("undecided: {} vs {} within {:g} % but not provably equivalent, {}",
                         row.verdict->fastest, row.verdict->runner_up, 100 * d, p);
    case Outcome::TooFewRepetitions:
      return fmt::format("undecided: too few repetitions (-r {} needed)",
                         v.repetitions_needed);
  }
  return {};
}

// The warnings of the statistics: the run's, then each point's with its label.
inline std::vector<std::string> statistics_warnings(const RunReport& r) {
  std::vector<std::string> lines = r.warnings;
  for (const PointReport& p : r.points) {
    for (const std::string& w : p.warnings) {
      lines.push_back(r.kind == RunKind::Run ? w
                                             : fmt::format("point {} ({}): {}", p.spec.label(),
                                                           to_string(p.spec.mode), w));
    }
  }
  return lines;
}

}  // namespace mpiwrite::describe
