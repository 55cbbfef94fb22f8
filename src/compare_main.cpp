// mpiwrite-compare OLD.json NEW.json: wiring only. Command line, read both files, compare,
// print; every failure becomes one line on standard error and an exit code here.
#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "mpiwrite/compare_cli.hpp"
#include "mpiwrite/compare_format.hpp"
#include "mpiwrite/errors.hpp"
#include "mpiwrite/report_comparison.hpp"
#include "mpiwrite/report_reading.hpp"
#include "mpiwrite/text_escape.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw mpiwrite::UsageError(mpiwrite::printable(path) + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  // A directory opens, and only reading it fails (EISDIR).
  if (in.bad() || (in.fail() && !in.eof())) {
    throw mpiwrite::UsageError(mpiwrite::printable(path) + ": cannot read: " +
                               std::strerror(errno ? errno : EIO));
  }
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace mpiwrite;
  const CompareCliOutcome cli = parse_compare_command_line(argc, argv);
  if (!cli.run) {
    (cli.exit_code == kExitOk ? std::cout : std::cerr) << cli.message << std::flush;
    return cli.exit_code;
  }
  const CompareOptions& o = cli.options;
  try {
    const ReportInput old_report = read_report(read_file(o.old_path), o.old_path);
    const ReportInput new_report = read_report(read_file(o.new_path), o.new_path);
    write_comparison(compare_reports(old_report, new_report, o.seed), o.format, std::cout);
    std::cout.flush();
    if (!std::cout) {
      std::cerr << "mpiwrite-compare: error: cannot write to standard output\n";
      return kExitIo;
    }
    return kExitOk;
  } catch (const UsageError& e) {
    std::cerr << "mpiwrite-compare: error: " << e.what() << '\n';
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "mpiwrite-compare: internal error: " << printable(e.what()) << '\n';
    return kExitIo;
  }
}
