#include "mpiwrite/core/comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace mpiwrite {

namespace {

// Each point (and each row's test) draws its own bootstrap stream from the run's seed.
std::uint64_t stream(std::uint64_t seed, std::uint64_t index) {
  return seed ^ (0x9e3779b97f4a7c15ULL * (index + 1));
}

std::vector<std::string> series_warnings(const SeriesSummary& m,
                                         const std::vector<double>& values) {
  std::vector<std::string> warnings;
  if (m.count >= 2 && m.cv > kHighVariation) {
    warnings.push_back(fmt::format(
        "high variation: the makespans' coefficient of variation is {:.1f} % (over {:.0f} %): "
        "the machine or the file system was unsteady; prefer the median and its interval",
        100 * m.cv, 100 * kHighVariation));
  }
  if (values.size() >= 3) {
    const std::vector<double> rest(values.begin() + 1, values.end());
    const double median_rest = median_of(rest);
    if (values.front() > *std::max_element(rest.begin(), rest.end()) &&
        values.front() > kSlowFirstRepetition * median_rest) {
      warnings.push_back(fmt::format(
          "the first repetition was much slower than the others ({:.6f} s against a median of "
          "{:.6f} s): caches or the file system were not warm; consider --warmup",
          values.front(), median_rest));
    }
  }
  if (!m.outliers.empty()) {
    // The first few by number; JSON's summary.makespan_s.outliers lists them all.
    constexpr std::size_t kListed = 10;
    std::vector<std::size_t> numbers;
    for (std::size_t i : m.outliers) {
      if (numbers.size() == kListed) break;
      numbers.push_back(i + 1);
    }
    const std::size_t all = m.outliers.size();
    warnings.push_back(fmt::format("{} outlier repetition{} (Tukey's fences, 1.5 IQR): {}{}", all,
                                   all == 1 ? "" : "s", fmt::join(numbers, ", "),
                                   all > kListed ? ", ..." : ""));
  }
  return warnings;
}

// Per second of each makespan statistic: 0 rather than infinity for a time of 0 (the null
// engine on a coarse clock), so reports and JSON stay finite.
MakespanRates rates(double amount, const SeriesSummary& m) {
  const auto per_second = [amount](double seconds) { return seconds > 0 ? amount / seconds : 0.0; };
  return {per_second(m.mean), per_second(m.median), per_second(m.min), per_second(m.max)};
}

void summarize_rates(PointReport& p) {
  p.files = p.bytes = 0;
  p.files_per_s.reset();
  p.mib_per_s.reset();
  if (!p.measured()) return;
  const RepetitionFigures last = p.repetitions.back();
  p.files = last.files;
  p.bytes = last.bytes;
  // Cut short by --time-limit, the files differ from repetition to repetition: the rates are
  // the asked files over the compared times (asked / (makespan x asked / written) = written /
  // makespan, each repetition's own rate).
  const bool limited = p.time_limited() && last.files > 0;
  const double files = static_cast<double>(limited ? last.limit.files_asked : p.files);
  const double bytes =
      limited ? files * static_cast<double>(last.bytes) / static_cast<double>(last.files)
              : static_cast<double>(p.bytes);
  const SeriesSummary& over = limited ? p.compared : p.makespan;
  p.files_per_s = rates(files, over);
  p.mib_per_s = rates(bytes / (1024.0 * 1024.0), over);
}

// Each phase's series over the repetitions, in the order the phases ran.
void summarize_phases(PointReport& p) {
  p.phases.clear();
  if (!p.measured()) return;
  const RepetitionFigures last_rep = p.repetitions.back();  // RepetitionLog makes it
  const AllPhases last = last_rep.all_phases();
  // Each phase's makespans and items over the repetitions, each repetition rebuilt once.
  std::vector<std::vector<double>> makespans(last.size());
  std::vector<std::vector<std::uint64_t>> counts(last.size());
  for (const RepetitionFigures& rep : p.repetitions) {
    const AllPhases all = rep.all_phases();
    for (std::size_t k = 0; k < last.size(); ++k) {
      const PhaseFigures f = all[k];
      makespans[k].push_back(f.makespan_s);
      counts[k].push_back(f.items);
    }
  }
  for (std::size_t k = 0; k < last.size(); ++k) {
    PhaseSummary s;
    s.phase = last[k].phase;
    s.items = counts[k].back();
    s.makespan = summarize_series(makespans[k]);
    // A repetition's rate is its own items over its own makespan: --time-limit leaves each
    // repetition its own count. The rates and their interval come from the makespans scaled
    // to the most items any repetition timed (the makespans themselves where every one timed
    // as many). A repetition that timed none (its write cut short at once) has no rate, and
    // then neither has the phase, as the write phase has none (summarize_points) and its
    // speedup none (phase_series): a median of the others would drop the slowest case.
    const std::uint64_t most = *std::max_element(counts[k].begin(), counts[k].end());
    const bool any_none = std::find(counts[k].begin(), counts[k].end(), 0u) != counts[k].end();
    std::vector<double> scaled;
    scaled.reserve(counts[k].size());
    for (std::size_t r = 0; r < counts[k].size() && !any_none; ++r) {
      scaled.push_back(makespans[k][r] * static_cast<double>(most) /
                       static_cast<double>(counts[k][r]));
    }
    const bool as_many = std::all_of(counts[k].begin(), counts[k].end(),
                                     [most](std::uint64_t n) { return n == most; });
    const SeriesSummary per_items = any_none  ? SeriesSummary{}
                                    : as_many ? s.makespan
                                              : summarize_series(scaled);
    const double n = static_cast<double>(most);
    s.items_per_s = rates(n, per_items);
    if (per_items.median_ci && per_items.median_ci->low > 0) {
      const Interval& t = *per_items.median_ci;
      s.rate_ci = Interval{n / t.high, n / t.low, t.level};
    }
    p.phases.push_back(std::move(s));
  }
}

// Speedup and efficiency of one series of times against the baseline's: the one rule of every
// figure against the baseline, the point's and each phase's.
struct Scaling {
  std::optional<double> speedup, efficiency;
  std::optional<Interval> speedup_ci, efficiency_ci;
};

// `scale` is the point's concurrency over the baseline's; `bootstrap` the interval's stream,
// unused for the baseline against itself (`itself`: 1 exactly, no interval). Empty when either
// series is empty or has a median of 0 (the null engine on a coarse clock): no ratio, not inf.
Scaling scaling_against(const std::vector<double>& base, const std::vector<double>& times,
                        double scale, bool itself, std::uint64_t bootstrap) {
  Scaling s;
  if (base.empty() || times.empty()) return s;
  const double base_median = median_of(base), median = median_of(times);
  if (base_median <= 0 || median <= 0) return s;
  s.speedup = base_median / median;
  s.efficiency = *s.speedup / scale;
  if (itself) return s;
  s.speedup_ci = ratio_of_medians_interval(base, times, bootstrap);
  if (s.speedup_ci) {
    s.efficiency_ci =
        Interval{s.speedup_ci->low / scale, s.speedup_ci->high / scale, s.speedup_ci->level};
  }
  return s;
}

// The write phase's times for its speedup: the compared times; none when not measured or when
// a time limit let nothing be written in a repetition (summarize_points empties `compared`).
std::vector<double> compared_series(const PointReport& p) {
  if (!p.measured() || p.compared.count == 0) return {};
  return p.compared_times();
}

// Phase `phase`'s times of point p for its speedup. The write phase's are the compared times;
// another's are its makespans, each scaled to the baseline's `items` where its own differ (an
// equal count keeps the makespan's every bit). Empty when p did not run the phase or a
// repetition of it timed no item.
std::vector<double> phase_series(const PointReport& p, Phase phase, std::uint64_t items) {
  if (phase == Phase::Write) return compared_series(p);
  if (items == 0) return {};
  std::vector<double> times;
  times.reserve(p.repetitions.size());
  for (const RepetitionFigures& rep : p.repetitions) {
    const AllPhases all = rep.all_phases();
    std::optional<PhaseFigures> f;
    for (std::size_t k = 0; k < all.size() && !f; ++k) {
      if (all[k].phase == phase) f = all[k];
    }
    if (!f || f->items == 0) return {};
    times.push_back(f->items == items ? f->makespan_s
                                      : f->makespan_s * static_cast<double>(items) /
                                            static_cast<double>(f->items));
  }
  return times;
}

// The write phase shares its point's bootstrap stream (so its interval is the point's); every
// other phase draws its own from it.
std::uint64_t phase_stream(std::uint64_t point_stream, Phase phase) {
  return phase == Phase::Write ? point_stream
                               : stream(point_stream, 1 + static_cast<std::uint64_t>(phase));
}

void assign(const Scaling& s, std::optional<double>& speedup, std::optional<double>& efficiency,
            std::optional<Interval>& speedup_ci, std::optional<Interval>& efficiency_ci) {
  speedup = s.speedup;
  efficiency = s.efficiency;
  speedup_ci = s.speedup_ci;
  efficiency_ci = s.efficiency_ci;
}

// Point i's speedups and efficiencies against the baseline, its own and each phase's.
void scale_against(PointReport& p, const PointReport& base, std::size_t i, std::uint64_t seed) {
  const double scale =
      static_cast<double>(p.spec.concurrency()) / static_cast<double>(base.spec.concurrency());
  const bool itself = i == 0;  // 1, exactly, without an interval
  const std::uint64_t point_stream = stream(seed, i);
  assign(scaling_against(compared_series(base), compared_series(p), scale, itself, point_stream),
         p.speedup, p.efficiency, p.speedup_ci, p.efficiency_ci);
  for (PhaseSummary& s : p.phases) {
    const auto same = std::find_if(base.phases.begin(), base.phases.end(),
                                   [&s](const PhaseSummary& b) { return b.phase == s.phase; });
    Scaling scaling;
    if (same != base.phases.end()) {
      scaling = scaling_against(phase_series(base, s.phase, same->items),
                                phase_series(p, s.phase, same->items), scale, itself,
                                phase_stream(point_stream, s.phase));
    }
    assign(scaling, s.speedup, s.efficiency, s.speedup_ci, s.efficiency_ci);
  }
}

}  // namespace

bool PointReport::is_outlier(unsigned index) const {
  return index > 0 && std::binary_search(makespan.outliers.begin(), makespan.outliers.end(),
                                         std::size_t{index - 1});
}

std::vector<double> PointReport::makespans() const {
  std::vector<double> values;
  values.reserve(repetitions.size());
  for (std::size_t i = 0; i < repetitions.size(); ++i) values.push_back(repetitions.makespan_s(i));
  return values;
}

std::vector<double> PointReport::compared_times() const {
  std::vector<double> values;
  values.reserve(repetitions.size());
  for (std::size_t i = 0; i < repetitions.size(); ++i) {
    const LimitFigures limit = repetitions.limit(i);
    const std::uint64_t written = repetitions.files(i);
    const double seconds = repetitions.makespan_s(i);
    values.push_back(limit.cut_short && written > 0
                         ? seconds * static_cast<double>(limit.files_asked) /
                               static_cast<double>(written)
                         : seconds);
  }
  return values;
}

bool PointReport::time_limited() const {
  for (std::size_t i = 0; i < repetitions.size(); ++i) {
    if (repetitions.limit(i).cut_short) return true;
  }
  return false;
}

void summarize_points(std::vector<PointReport>& points, std::uint64_t seed) {
  for (PointReport& p : points) {
    const std::vector<double> values = p.makespans();
    p.makespan = summarize_series(values);
    p.warnings = series_warnings(p.makespan, values);
    p.compared = p.time_limited() ? summarize_series(p.compared_times()) : p.makespan;
    // A repetition the limit cut short before any file has no rate: nothing to compare.
    std::size_t empty = 0;
    for (std::size_t i = 0; i < p.repetitions.size(); ++i) {
      empty += p.repetitions.limit(i).cut_short && p.repetitions.files(i) == 0;
    }
    if (empty != 0) {
      p.compared = SeriesSummary{};
      p.warnings.push_back(fmt::format(
          "the time limit stopped every writer before its first file in {} of {} repetitions: "
          "no rate to compare (raise --time-limit)",
          empty, p.repetitions.size()));
    }
    summarize_rates(p);
    summarize_phases(p);
    p.precision = median_precision(p.compared_times());
  }
  if (points.empty()) return;
  // points[0] is scaled against itself too: only its speedups change, never what they are
  // computed from (its repetitions, compared times and phases' items).
  const PointReport& base = points.front();
  for (std::size_t i = 0; i < points.size(); ++i) scale_against(points[i], base, i, seed);
}

std::vector<std::string> comparison_warnings(const std::vector<PointReport>& points,
                                             unsigned repetitions) {
  if (points.size() < 2) return {};
  const std::size_t needed = repetitions_for_significance();
  if (repetitions >= needed) return {};
  return {fmt::format(
      "too few repetitions to tell points apart: with {} against {} the smallest possible "
      "p-value is {:.2g}, not below alpha = {}; no winner can be named. Use -r {} or more "
      "(-r 10 or more to detect differences of a few per cent)",
      repetitions, repetitions, smallest_p_value(repetitions, repetitions), kSignificanceLevel,
      needed)};
}

namespace {

ModeCell cell_of(const std::vector<PointReport>& points, std::size_t index) {
  const PointReport& p = points[index];
  ModeCell cell;
  cell.label = p.spec.label();
  cell.repetitions = p.repetitions.size();
  cell.speedup = p.speedup;
  cell.efficiency = p.efficiency;
  cell.speedup_ci = p.speedup_ci;
  cell.efficiency_ci = p.efficiency_ci;
  cell.point = index;
  if (p.measured() && p.compared.count > 0) {  // (none: a time limit let nothing be written)
    cell.mean_s = p.compared.mean;
    cell.median_s = p.compared.median;
    cell.median_ci = p.compared.median_ci;
  }
  return cell;
}

// The faster of two hybrids by median; a measured one always beats an unmeasured one.
void keep_faster(std::optional<ModeCell>& slot, const ModeCell& candidate) {
  if (!candidate.median_s) {
    if (!slot) slot = candidate;
    return;
  }
  if (!slot || !slot->median_s || *candidate.median_s < *slot->median_s) slot = candidate;
}

// The row's own bootstrap stream: the shared layout's rows keep the numbers they had before
// layouts existed (so the same seed still gives the same report).
std::uint64_t row_stream(const ComparisonRow& row) {
  return 1000003 + row.concurrency + (static_cast<std::uint64_t>(row.layout) << 40);
}

// --phases: every phase other than write decided as the row is, over the same measured
// cells, each phase sorted by its own median (a mode may win one phase and lose another).
// The times are each repetition's makespan scaled to the same items (phase_series), so that
// the order and the test are those of the rates: the tree phases make more directories with
// more ranks (or threads) under --layout rank (thread), and --time-limit leaves each
// repetition its own count. A cell whose phase timed no item (a tree without directories, a
// repetition that wrote nothing) has no rate and takes no part.
void decide_phases(ComparisonRow& row, const std::vector<PointReport>& points,
                   const std::vector<std::pair<std::string, const ModeCell*>>& measured,
                   std::uint64_t seed, double equivalence) {
  const PointReport& first = points[measured[0].second->point];
  if (first.phases.size() < 2) return;
  for (std::size_t k = 0; k < first.phases.size(); ++k) {
    const Phase phase = first.phases[k].phase;
    if (phase == Phase::Write) continue;
    std::uint64_t items = 0;  // the count every cell's times are scaled to
    for (const auto& m : measured) {
      const PointReport& p = points[m.second->point];
      if (k < p.phases.size()) items = std::max(items, p.phases[k].items);
    }
    std::vector<std::vector<double>> times(measured.size());
    std::vector<std::pair<double, std::size_t>> by_median;  // (median, index in measured)
    for (std::size_t m = 0; m < measured.size(); ++m) {
      times[m] = phase_series(points[measured[m].second->point], phase, items);
      if (!times[m].empty()) by_median.emplace_back(median_of(times[m]), m);
    }
    if (by_median.size() < 2) continue;
    std::stable_sort(by_median.begin(), by_median.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const std::string& fast_name = measured[by_median[0].second].first;
    const std::string& next_name = measured[by_median[1].second].first;
    PhaseVerdict v{phase,
                   RowVerdict{fast_name, next_name,
                              decide(times[by_median[0].second], times[by_median[1].second],
                                     stream(seed, row_stream(row) + 7919 * (k + 1)),
                                     kSignificanceLevel, equivalence)},
                   {},
                   {}};
    if (v.verdict.verdict.outcome == Outcome::AFaster) v.winner = fast_name;
    for (const auto& ranked : by_median) {
      const auto& [name, cell] = measured[ranked.second];
      v.speedups.emplace_back(name, points[cell->point].phases[k].speedup);
    }
    row.phases.push_back(std::move(v));
  }
}

// The row's measured cells, one per point (1x1 fills two columns), fastest median first, and
// the test of the fastest against the runner-up.
void decide_row(ComparisonRow& row, const std::vector<PointReport>& points, std::uint64_t seed,
                double equivalence) {
  const std::pair<const char*, const std::optional<ModeCell>*> modes[] = {
      {"processes", &row.processes},
      {"threads", &row.threads},
      {"hybrid", &row.hybrid},
      {"async", &row.async}};
  std::vector<std::pair<std::string, const ModeCell*>> measured;
  for (const auto& [name, slot] : modes) {
    if (!*slot || !(*slot)->median_s) continue;  // never measured: cannot win
    // Captured by name, not as the binding: clang before 16 cannot capture a structured
    // binding in a lambda (Debian 12's clang 14; docs/site-build.md).
    const std::optional<ModeCell>* cell = slot;
    const bool same_point = std::any_of(measured.begin(), measured.end(), [&](const auto& m) {
      return m.second->point == (*cell)->point;
    });
    if (!same_point) measured.emplace_back(name, &**slot);
  }
  if (measured.size() < 2) return;
  std::stable_sort(measured.begin(), measured.end(), [](const auto& a, const auto& b) {
    return *a.second->median_s < *b.second->median_s;
  });
  const ModeCell& fastest = *measured[0].second;
  const ModeCell& runner_up = *measured[1].second;
  RowVerdict v{measured[0].first, measured[1].first,
               decide(points[fastest.point].compared_times(),
                      points[runner_up.point].compared_times(), stream(seed, row_stream(row)),
                      kSignificanceLevel, equivalence)};
  if (v.verdict.outcome == Outcome::AFaster) row.winner = v.fastest;
  row.verdict = std::move(v);
  decide_phases(row, points, measured, seed, equivalence);
}

}  // namespace

std::vector<ComparisonRow> compare_rows(const std::vector<PointReport>& points,
                                        std::uint64_t seed, double equivalence) {
  // Keyed by (the layout's rank in order of first appearance, concurrency).
  std::vector<Layout> layouts;
  std::map<std::pair<std::size_t, std::uint64_t>, ComparisonRow> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PointReport& p = points[i];
    auto known = std::find(layouts.begin(), layouts.end(), p.spec.layout);
    if (known == layouts.end()) known = layouts.insert(layouts.end(), p.spec.layout);
    const auto order = static_cast<std::size_t>(known - layouts.begin());
    ComparisonRow& row = rows[{order, p.spec.concurrency()}];
    row.layout = p.spec.layout;
    row.concurrency = p.spec.concurrency();
    const ModeCell cell = cell_of(points, i);
    if (p.spec.mode == PointMode::Async) {
      row.async = cell;
    } else if (p.spec.ranks == 1 && p.spec.threads == 1) {
      row.processes = row.threads = cell;
    } else if (p.spec.mode == PointMode::Processes) {
      row.processes = cell;
    } else if (p.spec.mode == PointMode::Threads) {
      row.threads = cell;
    } else if (p.spec.mode == PointMode::Hybrid) {
      keep_faster(row.hybrid, cell);
    }
  }
  std::vector<ComparisonRow> result;
  for (auto& [key, row] : rows) {
    decide_row(row, points, seed, equivalence);
    result.push_back(std::move(row));
  }
  return result;
}

}  // namespace mpiwrite
