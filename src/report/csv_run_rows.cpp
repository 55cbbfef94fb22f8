// The CSV rows about the whole run rather than one point: a comparison's verdicts and the final
// removal (docs/metrics.md, "CSV columns": row kinds `verdict` and `removal`).
#include <ostream>
#include <string>
#include <vector>

#include "csv_row.hpp"

namespace mpiwrite::csv {

namespace {

// One comparison row's verdict for one phase (`phase` write: the row's own verdict). No
// verdict (fewer than two measured points): the row keeps its layout and concurrency only.
void write_verdict(const ComparisonRow& r, Phase phase, const RowVerdict* verdict,
                   const std::string& winner, std::ostream& out) {
  CsvRow row;
  row.row = "verdict";
  row.layout = to_string(r.layout);
  row.concurrency = cell(r.concurrency);
  row.phase = phase_name(phase);
  row.winner = winner;
  if (verdict) {
    const Verdict& v = verdict->verdict;
    row.fastest = verdict->fastest;
    row.runner_up = verdict->runner_up;
    row.outcome = outcome_name(v.outcome);
    row.verdict = verdict_class_name(verdict_class(v.outcome));
    row.ratio = cell(v.ratio);
    row.ratio_ci_low = low(v.ratio_ci);
    row.ratio_ci_high = high(v.ratio_ci);
    row.p_value = cell(v.test.p_value);
  }
  print_row(out, row);
}

}  // namespace

// A row per comparison row and phase run, decided or not, so that every concurrency has the
// same rows whatever was measured.
void write_verdicts(const std::vector<ComparisonRow>& rows, const std::vector<Phase>& phases,
                    std::ostream& out) {
  for (const ComparisonRow& r : rows) {
    for (Phase phase : phases) {
      if (phase == Phase::Write) {
        write_verdict(r, phase, r.verdict ? &*r.verdict : nullptr, r.winner, out);
        continue;
      }
      const PhaseVerdict* decided = nullptr;
      for (const PhaseVerdict& v : r.phases) {
        if (v.phase == phase) decided = &v;
      }
      write_verdict(r, phase, decided ? &decided->verdict : nullptr,
                    decided ? decided->winner : std::string(), out);
    }
  }
}

// The final removal is not part of any repetition: one row of its own.
void write_removal(const CleanupFigures& c, std::ostream& out) {
  CsvRow row;
  row.row = "removal";
  row.removal_s = cell(c.elapsed_s);
  row.removal_files = cell(c.files_removed);
  row.removal_failed = c.failed ? "true" : "false";
  print_row(out, row);
}

}  // namespace mpiwrite::csv
