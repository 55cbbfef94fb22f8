#pragma once
// The reporters: one per format, each only formats a summarized RunReport (no statistics are
// computed here: summarize_report in core/run_report.hpp does that) onto an injected stream.

#include <ostream>
#include <string>

#include "mpiwrite/core/run_report.hpp"

namespace mpiwrite {

void write_report(const RunReport& report, std::ostream& out);  // in report.config.format
void write_report(const RunReport& report, Format format, std::ostream& out);  // --json ...
void write_table(const RunReport& report, std::ostream& out);
void write_markdown(const RunReport& report, std::ostream& out);
void write_csv(const RunReport& report, std::ostream& out);
void write_json(const RunReport& report, std::ostream& out);

// The CSV header, fixed and documented in docs/metrics.md.
extern const std::string kCsvHeader;

}  // namespace mpiwrite
