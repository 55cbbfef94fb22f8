// Live progress, the pure part (progress_line.hpp).
#include "mpiwrite/core/progress_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mpiwrite {

ProgressSettings progress_settings(const RunConfig& c, bool stderr_is_terminal) {
  const bool terminal = c.progress_style == ProgressStyle::Tty || stderr_is_terminal;
  ProgressSettings s;
  s.in_place = c.progress_style == ProgressStyle::Tty ||
               (c.progress_style == ProgressStyle::Auto && stderr_is_terminal);
  if (c.progress_s == kProgressNotGiven) {
    s.interval_s = terminal && c.format != Format::Json ? 1.0 : 0.0;
  } else if (c.progress_s == kProgressBare) {
    s.interval_s = terminal ? 1.0 : 10.0;
  } else {
    s.interval_s = std::max(c.progress_s, 0.0);
  }
  return s;
}

std::string_view to_string(ProgressPhase phase) {
  switch (phase) {
    case ProgressPhase::Write:
      return "write";
    case ProgressPhase::Verify:
      return "verify";
    case ProgressPhase::Removal:
      return "removal";
    case ProgressPhase::TreeCreate:
      return "tree-create";
    case ProgressPhase::Stat:
      return "stat";
    case ProgressPhase::Read:
      return "read";
    case ProgressPhase::Remove:
      return "remove";
    case ProgressPhase::TreeRemove:
      return "tree-remove";
  }
  return "?";
}

ProgressPhase progress_phase_of(Phase phase) {
  switch (phase) {
    case Phase::TreeCreate:
      return ProgressPhase::TreeCreate;
    case Phase::Write:
      return ProgressPhase::Write;
    case Phase::Stat:
      return ProgressPhase::Stat;
    case Phase::Read:
      return ProgressPhase::Read;
    case Phase::Remove:
      return ProgressPhase::Remove;
    case Phase::TreeRemove:
      return ProgressPhase::TreeRemove;
  }
  return ProgressPhase::Write;
}

std::string_view items_of(ProgressPhase phase) {
  const bool tree = phase == ProgressPhase::TreeCreate || phase == ProgressPhase::TreeRemove;
  return tree ? "directories" : "files";
}

std::string format_seconds(double seconds) {
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 10) return fmt::format("{:.1f} s", seconds);
  const auto whole = static_cast<std::uint64_t>(std::llround(seconds));
  if (whole < 60) return fmt::format("{} s", whole);
  if (whole < 3600) return fmt::format("{}:{:02}", whole / 60, whole % 60);
  return fmt::format("{}:{:02}:{:02}", whole / 3600, whole / 60 % 60, whole % 60);
}

std::string format_rate(double files_per_s) {
  if (!(files_per_s >= 0)) files_per_s = 0;
  return files_per_s < 10 ? fmt::format("{:.1f}", files_per_s) : fmt::format("{:.0f}", files_per_s);
}

ProgressMeter::ProgressMeter(ProgressSubject subject, std::uint64_t total, double start_s)
    : subject_(std::move(subject)), total_(total), start_s_(start_s), last_s_(start_s) {}

std::string ProgressMeter::line(double now_s, std::uint64_t files, bool last) {
  std::string text(to_string(subject_.phase));
  if (!subject_.point.empty()) text += " " + subject_.point;
  if (subject_.repetitions != 0) {
    text += fmt::format(" {} {}/{}", subject_.warmup ? "warm-up" : "rep", subject_.repetition,
                        subject_.repetitions);
  } else if (!subject_.note.empty()) {  // -r auto: how many is not known yet
    text += fmt::format(" rep {} [{}]", subject_.repetition, subject_.note);
  }
  const double since_start = now_s - start_s_;
  const double since_last = now_s - last_s_;
  const double mean = since_start > 0 ? static_cast<double>(files) / since_start : 0;
  const double now = since_last > 0 && files >= last_files_
                         ? static_cast<double>(files - last_files_) / since_last
                         : 0;
  const std::string_view items = items_of(subject_.phase);
  text += fmt::format(": {}/{} {}", files, total_, items);
  if (total_ != 0) {
    const double share =
        100.0 * static_cast<double>(std::min(files, total_)) / static_cast<double>(total_);
    text += fmt::format(" ({:.0f}%)", std::floor(share));
  }
  if (files >= total_ || last) {
    // No "now": the last round completes when the last rank finishes, moments after the one
    // before it started, and most ranks' counts in it were taken earlier still; over so
    // short a time the rate says nothing (it read 34326 files/s on GlusterFS at 350).
    text += fmt::format(", {} {}/s mean, done in {}", format_rate(mean), items,
                        format_seconds(since_start));
    last_s_ = now_s;
    last_files_ = files;
    return text;
  }
  text += fmt::format(", {} {}/s now, {} {}/s mean", format_rate(now), items, format_rate(mean),
                      items);
  // --time-limit: the phase ends at the limit at the latest, whatever is left.
  const double to_limit =
      subject_.time_limit_s > 0 ? std::max(0.0, subject_.time_limit_s - since_start) : -1;
  if (now > 0 || mean > 0) {
    // At the current rate: it follows a phase that slows (a slow rank left alone at the end,
    // a file system filling its caches), where the mean would promise too early an end.
    const double eta = static_cast<double>(total_ - files) / (now > 0 ? now : mean);
    text += to_limit >= 0 && to_limit < eta ? ", ETA " + format_seconds(to_limit) + " (time limit)"
                                            : ", ETA " + format_seconds(eta);
  } else {
    text += to_limit >= 0 ? ", ETA " + format_seconds(to_limit) + " (time limit)" : ", ETA ?";
  }
  last_s_ = now_s;
  last_files_ = files;
  return text;
}

}  // namespace mpiwrite
