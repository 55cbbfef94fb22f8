#pragma once
// Live progress (--progress, docs/metrics.md "Live progress"), the pure part: when and how it
// shows (progress_settings), and the text of one line (ProgressMeter): the phase, the point
// and repetition, files done of total, the rate over the last interval and since the phase
// started, and an ETA. The clock, the counters and the terminal are the callers'.

#include <cstdint>
#include <string>
#include <string_view>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/phase.hpp"

namespace mpiwrite {

// The resolved --progress: seconds between lines (0: off), and whether one line is rewritten
// in place (a terminal) or a line is printed per interval (a log).
struct ProgressSettings {
  double interval_s = 0;
  bool in_place = false;
  bool on() const { return interval_s > 0; }
};
// `stderr_is_terminal`: isatty(2) on rank 0. Not given: 1 s on a terminal unless the report
// is JSON on standard output, else off; bare --progress: 1 s on a terminal, 10 s otherwise
// (mpifileutils' default); --progress-style tty counts as a terminal (mpirun pipes stderr).
ProgressSettings progress_settings(const RunConfig& config, bool stderr_is_terminal);

// The timed phases (--phases: tree-create, stat, read, remove, tree-remove too), and the
// final removal.
enum class ProgressPhase { Write, Verify, Removal, TreeCreate, Stat, Read, Remove, TreeRemove };
std::string_view to_string(ProgressPhase phase);
// The progress phase of a timed phase of --phases.
ProgressPhase progress_phase_of(Phase phase);
// What a phase's lines count: "directories" for the tree phases, else "files".
std::string_view items_of(ProgressPhase phase);

// What a phase's lines are about.
struct ProgressSubject {
  ProgressPhase phase = ProgressPhase::Write;
  std::string point;         // the point's label ("4x1"); empty: not one point (removal)
  bool warmup = false;       // a warm-up repetition (untimed)
  unsigned repetition = 0;   // 1-based among the point's timed repetitions or its warm-ups;
  unsigned repetitions = 0;  // of this many; 0: no repetition (removal)
  // --time-limit on this phase (0: none): no ETA is later than the limit, whatever is left.
  double time_limit_s = 0;
  // -r auto: the precision reached and the budget left, after the repetition ("rep 7
  // [precision 3.1% (goal 2%), 41 s of 1:00 left]"); empty: none. `repetitions` is then 0.
  std::string note = {};
};

// "1.2 s", "42 s", "3:05", "1:02:03": an ETA or elapsed time, whole seconds from 10 s on.
std::string format_seconds(double seconds);
// "0.5", "12", "1234": files per second, one decimal below 10.
std::string format_rate(double files_per_s);

// One phase's lines. The samples are the files done over all of the phase's ranks at a time
// on the caller's clock (seconds, the same clock as start_s).
class ProgressMeter {
 public:
  ProgressMeter(ProgressSubject subject, std::uint64_t total, double start_s);
  // "write 4x1 rep 2/3: 4120/10000 files (41%), 1020 files/s now, 980 files/s mean, ETA 6 s";
  // a tree phase counts directories ("tree-create 4x1 rep 1/3: 40/100 directories (40%), ...").
  // "now" is the rate since the previous line (or the start); "mean" since the start; the
  // ETA is the files left at the current rate (the mean when nothing moved since the last).
  // With every file done: "..., 250 files/s mean, done in 4.0 s" (no "now"). Remembers the
  // sample for the next "now".
  // `last`: the phase is over (its final round), whether or not every file was done (a time
  // limit, an interrupt, a failure): the "done in" form, without a "now" or an ETA.
  std::string line(double now_s, std::uint64_t files, bool last = false);
  // The files of the phase, once known (summed over the ranks with the first line).
  void set_total(std::uint64_t total) { total_ = total; }
  // --wear-out goes on after the limit: no ETA is held to it any more.
  void set_time_limit(double seconds) { subject_.time_limit_s = seconds; }

 private:
  ProgressSubject subject_;
  std::uint64_t total_;
  double start_s_;
  double last_s_;
  std::uint64_t last_files_ = 0;
};

}  // namespace mpiwrite
