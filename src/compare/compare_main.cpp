// mpiwrite-compare OLD.json NEW.json: wiring only. Command line, read both files, compare,
// print; every failure becomes one line on standard error and an exit code here.
#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <exception>

#include <iostream>
#include <memory>
#include <string>
#include <string_view>

#include "mpiwrite/compare/compare_cli.hpp"
#include "mpiwrite/compare/compare_format.hpp"
#include "mpiwrite/compare/compare_gate.hpp"
#include "mpiwrite/compare/report_comparison.hpp"
#include "mpiwrite/compare/report_reading.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/text_escape.hpp"

namespace {

// A report is never near this; an endless input (/dev/zero, a FIFO fed without end) stops here.
constexpr std::size_t kMaxReportBytes = std::size_t{1} << 30;

// Whether `c` can begin a JSON text (after white space).
bool starts_json(char c) {
  return std::string_view("{[\"-0123456789tfn").find(c) != std::string_view::npos;
}

// The whole file, or a UsageError with strerror (a directory opens; its read() says EISDIR).
// Text that cannot start JSON is refused at its first byte, and anything over 1 GiB.
std::string read_file(const std::string& path) {
  const auto refuse = [&](int error) {
    return mpiwrite::UsageError(mpiwrite::printable(path) +
                                ": cannot read: " + std::strerror(error));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw refuse(errno);
  const std::unique_ptr<const int, void (*)(const int*)> closer(&fd,
                                                                [](const int* f) { ::close(*f); });
  std::string text;
  char buffer[1 << 16];
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw refuse(errno);
    if (got == 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && !starts_json(text[first])) {
      throw mpiwrite::UsageError(mpiwrite::printable(path) + ": not JSON (it starts with byte " +
                                 std::to_string(static_cast<unsigned char>(text[first])) + ")");
    }
    if (text.size() > kMaxReportBytes) {
      throw mpiwrite::UsageError(mpiwrite::printable(path) +
                                 ": larger than 1024 MiB: not a report mpiwrite writes");
    }
  }
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
    const ReportInput old_report = read_report(read_file(o.old_path), o.old_path, o.phase);
    const ReportInput new_report = read_report(read_file(o.new_path), o.new_path, o.phase);
    const ReportComparison comparison = compare_reports(old_report, new_report, o.seed, o.equivalence);
    write_comparison(comparison, o.format, std::cout);
    std::cout.flush();
    // An output that did not arrive is the failure to report first: the gate's verdict would
    // name points the job never saw.
    if (!std::cout) {
      std::cerr << "mpiwrite-compare: error: cannot write to standard output\n";
      return kExitIo;
    }
    const GateOutcome gate = apply_gate(comparison, o.fail_on);
    if (!gate.failed) return kExitOk;
    std::cerr << gate.message << '\n';
    return kExitGate;
  } catch (const UsageError& e) {
    std::cerr << "mpiwrite-compare: error: " << e.what() << '\n';
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "mpiwrite-compare: internal error: " << printable(e.what()) << '\n';
    return kExitIo;
  }
}
