// JSON with a schema version: the full configuration, the context, every repetition with its
// per-rank figures, and the summary. Field meanings are in docs/metrics.md. A key has one type
// wherever it appears (`ranks` is always a count; lists of ranks are `per_rank` and
// `rank_ids`), so pandas.json_normalize flattens any level with any other's keys as metadata.
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "mpiwrite/core/config_fields.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/json_text.hpp"
#include "mpiwrite/report/reporters.hpp"

namespace mpiwrite {

namespace {

using Json = nlohmann::ordered_json;

template <typename T>
Json config_value(const T& value);

// An option with no default value: null when not given.
template <typename T>
Json config_value(const std::optional<T>& value) {
  return value ? config_value(*value) : Json();
}

template <typename T>
Json config_value(const T& value) {
  if constexpr (std::is_enum_v<T>) {
    return std::string(to_string(value));
  } else if constexpr (std::is_same_v<T, std::vector<Layout>> ||
                       std::is_same_v<T, std::vector<Phase>>) {
    Json names = Json::array();  // by name, as every enum
    for (auto item : value) names.push_back(std::string(to_string(item)));
    return names;
  } else {
    return value;
  }
}

// Every field of visit_config_fields the report keeps, under its name, in its order.
Json config_json(const RunConfig& c) {
  Json json = Json::object();
  visit_config_fields(c, [&](const ConfigField& field, const auto& value) {
    if (!field.in_report) return;
    json[std::string(field.name)] = config_value(value);
    // The derived sizes stand after the text they are made of, where file_size_bytes always
    // stood (core/file_bytes.hpp: from --file-size and --write-size, or the lines).
    if (field.name == "text") {
      json["file_size_bytes"] = c.file_size_bytes();
      json["write_size_bytes"] = c.write_size_bytes();
    }
  });
  return json;
}

Json context_json(const RunContext& x) {
  Json hosts = Json::array();
  for (const HostRanks& h : x.hosts) {
    hosts.push_back({{"host", h.host}, {"rank_count", h.ranks.size()}, {"rank_ids", h.ranks}});
  }
  return {{"mpiwrite_version", x.mpiwrite_version},
          {"ranks", x.ranks},
          {"threads_per_rank", x.threads},
          {"hosts", hosts},
          {"mpi_library", x.mpi_library},
          {"directory", x.directory},
          {"filesystem", x.filesystem},
          {"started_utc", x.started_utc},
          {"cpus_of_rank", x.cpus_of_rank},
          {"writer_fd_tables", x.private_fd_tables ? "private" : "shared"},
          {"peak_rss_kib", x.peak_rss_kib},
          {"warnings", setup_warnings(x)}};
}

Json hosts_json(const RepetitionFigures& rep, const std::vector<HostRanks>& hosts) {
  Json result = Json::array();
  for (const HostFigures& h : per_host(rep, hosts)) {
    result.push_back({{"host", h.host},
                      {"rank_ids", h.ranks},
                      {"files", h.files},
                      {"bytes", h.bytes},
                      {"slowest_rank_s", h.slowest_s},
                      {"last_done_s", h.last_done_s}});
  }
  return result;
}

// Microseconds but for the exact sum of the values (nanoseconds), which lets a reader check
// that the operations of the files add up to at most their latency.
Json latency_json(const LatencyFigures& l) {
  return {{"p50", l.p50_us},   {"p90", l.p90_us},  {"p99", l.p99_us},       {"max", l.max_us},
          {"mean", l.mean_us}, {"count", l.count}, {"total_ns", l.total_ns}};
}

// Every operation by name; fsync is null without --fsync (not measured, not zero).
Json operations_json(const OperationFigures& operations, bool fsync) {
  Json result = Json::object();
  for (Operation op : kWriteOperations) {
    const bool measured = op != Operation::Fsync || fsync;
    result[std::string(operation_name(op))] =
        measured ? latency_json(operations[static_cast<std::size_t>(op)]) : Json(nullptr);
  }
  return result;
}

// A phase's operations by name (operations_of); fsync null without --fsync.
Json phase_operations_json(const PhaseFigures& f, bool fsync) {
  Json result = Json::object();
  const std::span<const Operation> ops = operations_of(f.phase);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const bool measured = ops[i] != Operation::Fsync || fsync;
    result[std::string(operation_name(ops[i]))] =
        measured ? latency_json(f.operations[i]) : Json(nullptr);
  }
  return result;
}

// Every phase the repetition ran, the write phase too, by name (--phases; docs/metrics.md,
// "Phases"): items under "files" or, for the tree phases, "directories", and the rate under
// "files_per_s" or "directories_per_s"; each rank's own figures of a phase other than write in
// per_rank (the write phase's are the repetition's per_rank).
Json phases_json(const RepetitionFigures& rep, bool fsync) {
  Json result = Json::object();
  for (const PhaseFigures& f : rep.all_phases()) {
    const bool dirs = counts_directories(f.phase);
    Json phase = {{"makespan_s", f.makespan_s},
                  {"first_done_s", f.first_done_s},
                  {"start_spread_s", f.start_spread_s},
                  {"slowest_rank_s", f.slowest_s},
                  {"fastest_rank_s", f.fastest_s},
                  {"imbalance", f.imbalance},
                  {dirs ? "directories" : "files", f.items},
                  {dirs ? "directories_per_s" : "files_per_s", f.items_per_s},
                  {"bytes", f.bytes},
                  {"mib_per_s", f.mib_per_s},
                  {"latency_us", latency_json(f.latency)},
                  {"operations_us", phase_operations_json(f, fsync)}};
    if (f.phase == Phase::Read) {
      phase["verified"] = f.verified;
      phase["mismatches"] = f.verified ? Json(f.mismatches) : Json(nullptr);
    }
    if (f.phase != Phase::Write) {  // the write phase's: the repetition's per_rank
      Json ranks = Json::array();
      for (const RankFigures& r : f.ranks) {
        ranks.push_back({{"rank", r.rank},
                         {"start_s", r.start_s},
                         {"elapsed_s", r.elapsed_s},
                         {dirs ? "directories" : "files", r.files},
                         {"bytes", r.bytes}});
      }
      phase["per_rank"] = std::move(ranks);
    }
    result[std::string(phase_name(f.phase))] = std::move(phase);
  }
  return result;
}

Json repetition_json(const RepetitionFigures& rep, const std::vector<HostRanks>& hosts,
                     bool outlier, bool fsync) {
  Json ranks = Json::array();
  for (const RankFigures& r : rep.ranks) {
    ranks.push_back({{"rank", r.rank},
                     {"start_s", r.start_s},
                     {"elapsed_s", r.elapsed_s},
                     {"files", r.files},
                     {"bytes", r.bytes}});
  }
  return {{"index", rep.index},
          {"makespan_s", rep.makespan_s},
          {"first_done_s", rep.first_done_s},
          {"last_done_s", rep.makespan_s},
          {"start_spread_s", rep.start_spread_s},
          {"slowest_rank_s", rep.slowest_s},
          {"fastest_rank_s", rep.fastest_s},
          {"mean_rank_s", rep.mean_s},
          {"imbalance", rep.imbalance},
          {"outlier", outlier},
          {"files", rep.files},
          {"bytes", rep.bytes},
          {"files_per_s", rep.files_per_s},
          {"mib_per_s", rep.mib_per_s},
          {"latency_us", latency_json(rep.latency)},
          {"operations_us", operations_json(rep.operations, fsync)},
          {"per_rank", ranks},
          {"hosts", hosts_json(rep, hosts)},
          {"verify", rep.verified ? Json{{"elapsed_s", rep.verify.elapsed_s},
                                         {"files_checked", rep.verify.files_checked},
                                         {"mismatches", rep.verify.mismatches}}
                                  : Json(nullptr)},
          {"phases", phases_json(rep, fsync)},
          {"time_limit", rep.limit.applied ? Json{{"cut_short", rep.limit.cut_short},
                                                  {"files_at_limit", rep.limit.files_at_limit},
                                                  {"files_asked", rep.limit.files_asked}}
                                           : Json(nullptr)}};
}

// null when absent: an unmeasured point or baseline has no figure, and 0 would read as one.
Json optional_json(const std::optional<double>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json interval_json(const std::optional<Interval>& i) {
  if (!i) return nullptr;
  return {{"low", i->low}, {"high", i->high}, {"level", i->level}};
}

Json estimate_json(const std::optional<double>& value, const std::optional<Interval>& ci) {
  if (!value) return nullptr;
  return {{"estimate", *value}, {"ci", interval_json(ci)}};
}

Json summary_json(const SeriesSummary& m) {
  if (m.count == 0) return nullptr;
  Json outliers = nullptr;
  if (m.fences) {
    std::vector<std::size_t> numbers;
    for (std::size_t i : m.outliers) numbers.push_back(i + 1);
    outliers = {
        {"low_fence", m.fences->low}, {"high_fence", m.fences->high}, {"repetitions", numbers}};
  }
  return {{"count", m.count}, {"mean", m.mean},      {"stddev", m.stddev},
          {"cv", m.cv},       {"median", m.median},  {"median_ci", interval_json(m.median_ci)},
          {"min", m.min},     {"max", m.max},        {"q1", m.q1},
          {"q3", m.q3},       {"outliers", outliers}};
}

// The point's rate at each statistic of its makespans; null when it was not measured.
Json rates_json(const std::optional<MakespanRates>& r) {
  if (!r) return nullptr;
  return {{"at_mean", r->at_mean},
          {"at_median", r->at_median},
          {"at_min", r->at_min},
          {"at_max", r->at_max}};
}

Json host_summaries_json(const std::vector<HostSummary>& hosts) {
  Json result = Json::array();
  for (const HostSummary& h : hosts) {
    result.push_back(
        {{"host", h.host},
         {"rank_ids", h.ranks},
         {"files", h.files},
         {"bytes", h.bytes},
         {"slowest_rank_s", {{"median", h.slowest_median_s}, {"max", h.slowest_max_s}}}});
  }
  return result;
}

// Each phase over the point's repetitions: the makespans' summary, the rate, and the speedup
// and efficiency against the baseline's same phase, shaped as the point summary's.
Json phase_summaries_json(const PointReport& p) {
  Json result = Json::object();
  for (const PhaseSummary& s : p.phases) {
    const bool dirs = counts_directories(s.phase);
    result[std::string(phase_name(s.phase))] = {
        {dirs ? "directories" : "files", s.items},
        {"makespan_s", summary_json(s.makespan)},
        {dirs ? "directories_per_s" : "files_per_s",
         {{"at_mean", s.items_per_s.at_mean},
          {"at_median", s.items_per_s.at_median},
          {"at_min", s.items_per_s.at_min},
          {"at_max", s.items_per_s.at_max},
          {"median_ci", interval_json(s.rate_ci)}}},
        {"speedup", estimate_json(s.speedup, s.speedup_ci)},
        {"efficiency", estimate_json(s.efficiency, s.efficiency_ci)}};
  }
  return result;
}

// What a signal cut (RunReport::interrupted_in): null when the run was not interrupted or the
// signal came between two steps; the final removal has no point or repetition.
Json interrupted_in_json(const RunReport& r) {
  if (!r.interrupted_by || !r.interrupted_in) return nullptr;
  const InterruptedIn& in = *r.interrupted_in;
  const bool step = !in.point.empty();
  return {{"phase", in.phase},
          {"point", step ? Json(in.point) : Json(nullptr)},
          {"repetition", step ? Json(in.repetition) : Json(nullptr)},
          {"warmup", step ? Json(in.warmup) : Json(nullptr)}};
}

Json point_json(const PointReport& p, const std::vector<HostRanks>& hosts, unsigned asked,
                bool fsync) {
  Json repetitions = Json::array();
  for (const RepetitionFigures& rep : p.repetitions) {
    repetitions.push_back(repetition_json(rep, hosts, p.is_outlier(rep.index), fsync));
  }
  return {{"label", p.spec.label()},
          {"mode", to_string(p.spec.mode)},
          {"ranks", p.spec.ranks},
          {"threads", p.spec.threads},
          {"engine", to_string(p.spec.engine)},
          {"queue_depth", p.spec.queue_depth},
          {"layout", to_string(p.spec.layout)},
          {"concurrency", p.spec.concurrency()},
          {"repetitions", repetitions},
          {"summary",
           {{"repetitions_measured", p.repetitions.size()},
            {"stopped_by", stopped_by_name(p.stopped_by)},
            {"precision", optional_json(p.precision)},
            {"repetitions_asked", asked},
            {"makespan_s", summary_json(p.makespan)},
            {"compared_s", p.time_limited() ? summary_json(p.compared) : Json(nullptr)},
            {"speedup", estimate_json(p.speedup, p.speedup_ci)},
            {"efficiency", estimate_json(p.efficiency, p.efficiency_ci)},
            {"warnings", p.warnings},
            {"files", p.measured() ? Json(p.files) : Json(nullptr)},
            {"bytes", p.measured() ? Json(p.bytes) : Json(nullptr)},
            {"files_per_s", rates_json(p.files_per_s)},
            {"mib_per_s", rates_json(p.mib_per_s)},
            {"hosts", host_summaries_json(p.hosts)},
            {"phases", phase_summaries_json(p)}}}};
}

Json cell_json(const std::optional<ModeCell>& cell) {
  if (!cell) return nullptr;
  return {{"label", cell->label},
          {"repetitions_measured", cell->repetitions},
          {"median_s", optional_json(cell->median_s)},
          {"median_ci", interval_json(cell->median_ci)},
          {"mean_s", optional_json(cell->mean_s)},
          {"speedup", estimate_json(cell->speedup, cell->speedup_ci)},
          {"efficiency", estimate_json(cell->efficiency, cell->efficiency_ci)}};
}

Json verdict_json(const std::optional<RowVerdict>& row) {
  if (!row) return nullptr;
  const Verdict& v = row->verdict;
  return {{"fastest", row->fastest},
          {"runner_up", row->runner_up},
          {"outcome", outcome_name(v.outcome)},
          {"verdict", verdict_class_name(verdict_class(v.outcome))},
          {"p_value", v.test.p_value},
          {"exact", v.test.exact},
          {"prob_faster", v.test.prob_x_smaller},
          {"ratio", {{"estimate", v.ratio}, {"ci", interval_json(v.ratio_ci)}}},
          {"repetitions_needed",
           v.outcome == Outcome::TooFewRepetitions ? Json(v.repetitions_needed) : Json(nullptr)}};
}

// --phases: each other phase's verdict of the row, by phase name.
Json phase_verdicts_json(const ComparisonRow& row) {
  Json result = Json::object();
  for (const PhaseVerdict& v : row.phases) {
    Json verdict = verdict_json(v.verdict);
    verdict["winner"] = v.winner.empty() ? Json(nullptr) : Json(v.winner);
    Json speedups = Json::object();
    for (const auto& [mode, speedup] : v.speedups) speedups[mode] = optional_json(speedup);
    verdict["speedups"] = std::move(speedups);
    result[std::string(phase_name(v.phase))] = std::move(verdict);
  }
  return result;
}

Json comparison_json(const std::vector<ComparisonRow>& rows) {
  Json result = Json::array();
  for (const ComparisonRow& row : rows) {
    result.push_back({{"layout", to_string(row.layout)},
                      {"concurrency", row.concurrency},
                      {"processes", cell_json(row.processes)},
                      {"threads", cell_json(row.threads)},
                      {"hybrid", cell_json(row.hybrid)},
                      {"async", cell_json(row.async)},
                      {"winner", row.winner.empty() ? Json(nullptr) : Json(row.winner)},
                      {"verdict", verdict_json(row.verdict)},
                      {"phases", phase_verdicts_json(row)}});
  }
  return result;
}

}  // namespace

void write_json(const RunReport& r, std::ostream& out) {
  Json points = Json::array();
  for (const PointReport& p : r.points)
    points.push_back(point_json(p, r.context.hosts, r.config.repetitions, r.config.fsync));
  Json doc = {
      {"schema_version", kJsonSchemaVersion},
      {"kind", to_string(r.kind)},
      {"config", config_json(r.config)},
      {"context", context_json(r.context)},
      {"timing",
       {{"clock", "CLOCK_MONOTONIC (std::chrono::steady_clock)"},
        {"phase", "open, writes, optional fsync and close of every file a rank owns"},
        {"start",
         "after an MPI barrier; each rank reads its clock at its own start (its main "
         "thread, after the barrier) and end (its last writer thread as it finishes; "
         "with --wear-out its main thread)"},
        {"makespan",
         "from the earliest rank start to the latest rank end, on one time axis: "
         "ranks of one kernel share CLOCK_MONOTONIC; other kernels' clocks are "
         "corrected by offsets measured by ping-pong (error bound in clock)"},
        {"aggregate", "rates are totals divided by the makespan"},
        {"operations",
         "per file, same clock: create = the openat (--overwrite: the rewrite "
         "open), writes = first write start to last write end, fsync (with "
         "--fsync), close; posix and null between the calls, uring from the "
         "previous completion (or the submission) to its completion as the thread "
         "saw it; their sum is at most the file's latency"}}},
      {"clock",
       {{"source", "CLOCK_MONOTONIC"},
        {"domains", r.context.clock_domains},
        {"offset_error_s", r.context.clock_offset_error_s},
        {"largest_offset_s", r.context.clock_largest_offset_s}}},
      {"statistics",
       {{"confidence_level", kConfidenceLevel},
        {"alpha", kSignificanceLevel},
        {"noise_threshold", r.config.equivalence},
        {"equivalence", r.config.equivalence},
        {"median_ci", "order statistics"},
        {"ratio_ci",
         "percentile bootstrap of the ratio of medians; above 5e7 draws the large-sample delta "
         "method"},
        {"bootstrap_resamples", kBootstrapResamples},
        {"bootstrap_seed", r.seed},
        {"test", "Mann-Whitney U, two-sided"},
        {"outliers", "Tukey fences, 1.5 IQR"},
        {"warnings", r.warnings}}},
      {"seed", r.seed},
      {"interrupted", r.interrupted_by ? Json(signal_name(r.interrupted_by)) : Json(nullptr)},
      {"interrupted_in", interrupted_in_json(r)},
      {"report_copy", r.saved_copy.empty() ? Json(nullptr) : Json(r.saved_copy)},
      {"points", points}};
  if (r.kind == RunKind::Compare) doc["comparison"] = comparison_json(r.comparison);
  doc["cleanup"] = {{"ran", r.cleanup.ran},
                    {"elapsed_s", r.cleanup.elapsed_s},
                    {"files_removed", r.cleanup.files_removed},
                    {"in_background", r.cleanup.in_background},
                    {"failed", r.cleanup.failed}};
  out << dump_lossless(doc, 2) << '\n';
}

}  // namespace mpiwrite
