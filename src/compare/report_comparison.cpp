#include "mpiwrite/compare/report_comparison.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "mpiwrite/core/verdict.hpp"

namespace mpiwrite {

namespace {

SideFigures side_figures(const ReportPoint& p) {
  SideFigures side{p.mode, p.label, p.times.size(), {}, {}};
  if (p.times.empty()) return side;
  std::vector<double> sorted = p.times;
  std::sort(sorted.begin(), sorted.end());
  side.median_s = quantile_sorted(sorted, 0.5);
  side.median_ci = median_interval(sorted);
  return side;
}

CompareVerdict from_outcome(Outcome outcome) {
  switch (outcome) {
    case Outcome::AFaster:
      return CompareVerdict::Faster;  // a = new
    case Outcome::BFaster:
      return CompareVerdict::Slower;
    case Outcome::NoDifference:
      return CompareVerdict::NoDifference;
    case Outcome::BelowNoise:
      return CompareVerdict::BelowNoise;
    case Outcome::TooFewRepetitions:
      return CompareVerdict::TooFewRepetitions;
    case Outcome::Equivalent:
      return CompareVerdict::Equivalent;
  }
  return CompareVerdict::NoDifference;
}

bool finite(const std::optional<double>& x) { return !x || std::isfinite(*x); }
bool finite(const std::optional<Interval>& i) {
  return !i || (std::isfinite(i->low) && std::isfinite(i->high));
}

// Empties every figure that is NaN or infinite; true when there was one. read_report()'s
// limits keep every figure finite; this is the guard that no verdict is ever drawn from one.
bool drop_non_finite(PointComparison& c) {
  bool dropped = false;
  const auto drop = [&](auto& figure) {
    if (finite(figure)) return;
    figure.reset();
    dropped = true;
  };
  for (SideFigures* side : {&c.old_side, &c.new_side}) {
    drop(side->median_s);
    drop(side->median_ci);
  }
  drop(c.ratio);
  drop(c.ratio_ci);
  drop(c.p_value);
  drop(c.prob_new_faster);
  return dropped;
}

PointComparison not_comparable(PointComparison c, std::string why) {
  c.verdict = CompareVerdict::NotComparable;
  c.repetitions_needed.reset();
  c.not_comparable = std::move(why);
  return c;
}

PointComparison compare_point(const ReportPoint& old_point, const ReportPoint& new_point,
                              std::uint64_t seed, double equivalence) {
  PointComparison c;
  c.old_side = side_figures(old_point);
  c.new_side = side_figures(new_point);
  c.per_file = attribute_change(old_point.per_file, new_point.per_file);
  for (const ReportPoint* p : {&old_point, &new_point}) {
    // Its rate was 0: the time for the asked files is unknown, and leaving the repetition
    // out would keep only the faster ones.
    if (p->without_time == 0) continue;
    drop_non_finite(c);
    return not_comparable(std::move(c),
                          fmt::format("{} has {} repetition{} cut short by --time-limit before "
                                      "the first file, whose time for all files is unknown",
                                      p == &old_point ? "old" : "new", p->without_time,
                                      p->without_time == 1 ? "" : "s"));
  }
  for (const ReportPoint* p : {&old_point, &new_point}) {
    // read_report() refuses such a time; a ReportInput made otherwise gets no verdict from
    // one (a 0 s median makes the ratio infinite, NaN would break the ranks' order).
    const bool measurable = std::all_of(p->times.begin(), p->times.end(),
                                        [](double t) { return std::isfinite(t) && t > 0; });
    if (measurable) continue;
    drop_non_finite(c);
    return not_comparable(std::move(c),
                          fmt::format("{} has a time that is 0 s or not a finite number",
                                      p == &old_point ? "old" : "new"));
  }
  if (old_point.times.empty() || new_point.times.empty()) {
    // An interrupted run may list a point it never measured: nothing to test.
    c.verdict = CompareVerdict::TooFewRepetitions;
    c.repetitions_needed = repetitions_for_significance();
    return c;
  }
  const Verdict v =
      decide(new_point.times, old_point.times, seed, kSignificanceLevel, equivalence);
  c.p_value = v.test.p_value;
  c.exact = v.test.exact;
  c.prob_new_faster = v.test.prob_x_smaller;
  c.verdict = from_outcome(v.outcome);
  if (c.verdict == CompareVerdict::TooFewRepetitions) c.repetitions_needed = v.repetitions_needed;
  // decide()'s ratio is old / new ("how many times faster"); people read new / old against
  // 1, so that ratio and its own interval (the same seed) are reported. Not v.ratio inverted:
  // a percentile of 1/x is not 1/(the percentile of x) between order statistics.
  if (*c.old_side.median_s > 0) c.ratio = *c.new_side.median_s / *c.old_side.median_s;
  c.ratio_ci = ratio_of_medians_interval(new_point.times, old_point.times, seed);
  // decide()'s own ratio (old / new) drew the verdict: it must be finite too.
  const bool decided_finite = std::isfinite(v.ratio) && finite(v.ratio_ci);
  if (drop_non_finite(c) || !decided_finite) {
    return not_comparable(std::move(c), "a figure is beyond a double");
  }
  return c;
}

UnmatchedPoint unmatched(const ReportPoint& p, bool in_old) {
  return {in_old, p.mode, p.label, p.times.size()};
}

std::vector<std::string> host_set(const std::vector<std::string>& hosts) {
  std::vector<std::string> set = hosts;
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  return set;
}

}  // namespace

const char* verdict_name(CompareVerdict verdict) {
  switch (verdict) {
    case CompareVerdict::Faster:
      return "faster";
    case CompareVerdict::Slower:
      return "slower";
    case CompareVerdict::NoDifference:
      return "no significant difference";
    case CompareVerdict::BelowNoise:
      return "below noise threshold";
    case CompareVerdict::TooFewRepetitions:
      return "too few repetitions";
    case CompareVerdict::NotComparable:
      return "not comparable";
    case CompareVerdict::Equivalent:
      return "equivalent";
  }
  return "?";
}

ReportComparison compare_reports(const ReportInput& old_report, const ReportInput& new_report,
                                 std::uint64_t seed, double equivalence) {
  ReportComparison result;
  result.old_report = old_report.about;
  result.new_report = new_report.about;
  result.seed = seed;
  result.equivalence = equivalence;

  const auto& olds = old_report.points;
  const auto& news = new_report.points;
  // One point each (two plain runs, e.g. --threads 1 against --threads 2): that is the
  // comparison asked for, though the labels differ.
  result.single_points = olds.size() == 1 && news.size() == 1;
  if (result.single_points) {
    result.points.push_back(compare_point(olds.front(), news.front(), seed, equivalence));
  } else {
    std::vector<bool> new_matched(news.size(), false);
    for (const ReportPoint& o : olds) {
      const auto it = std::find_if(news.begin(), news.end(), [&](const ReportPoint& n) {
        return n.mode == o.mode && n.label == o.label;
      });
      if (it == news.end()) {
        result.unmatched.push_back(unmatched(o, true));
        continue;
      }
      new_matched[static_cast<std::size_t>(it - news.begin())] = true;
      result.points.push_back(compare_point(o, *it, seed, equivalence));
    }
    for (std::size_t i = 0; i < news.size(); ++i) {
      if (!new_matched[i]) result.unmatched.push_back(unmatched(news[i], false));
    }
  }

  for (std::size_t k = 0;
       k < old_report.about.workload.size() && k < new_report.about.workload.size(); ++k) {
    const WorkloadValue& old_value = old_report.about.workload[k];
    const WorkloadValue& new_value = new_report.about.workload[k];
    if (old_value.value != new_value.value) {
      result.workload_differences.push_back({old_value.key, old_value, new_value});
    }
  }
  result.filesystems_differ = old_report.about.filesystem != new_report.about.filesystem;
  result.hosts_differ = host_set(old_report.about.hosts) != host_set(new_report.about.hosts);
  return result;
}

}  // namespace mpiwrite
