// The format a run asked for (--format) picks its reporter.
#include "mpiwrite/report/reporters.hpp"

namespace mpiwrite {

void write_report(const RunReport& report, std::ostream& out) {
  switch (report.config.format) {
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
