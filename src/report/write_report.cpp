// The format a run asked for (--format, or --json, --csv, --markdown) picks its reporter.
#include "mpiwrite/report/reporters.hpp"

namespace mpiwrite {

void write_report(const RunReport& report, std::ostream& out) {
  write_report(report, report.config.format, out);
}

void write_report(const RunReport& report, Format format, std::ostream& out) {
  switch (format) {
    case Format::Table:
      write_table(report, out);
      break;
    case Format::Markdown:
      write_markdown(report, out);
      break;
    case Format::Csv:
      write_csv(report, out);
      break;
    case Format::Json:
      write_json(report, out);
      break;
  }
}

}  // namespace mpiwrite
