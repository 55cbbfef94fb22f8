#pragma once
// Writing the finished report: to standard output, and with -o FILE a copy at FILE by the rules
// of output_path.hpp. Every write is checked with the system calls' own errno and names the
// output as the user knows it ("standard output", or FILE as given). POSIX only; no MPI.

#include <iosfwd>
#include <string>
#include <vector>

#include "mpiwrite/sys/output_path.hpp"

namespace mpiwrite {

// `text` to `out`, flushed. For std::cout the bytes go through write(2) on descriptor 1, so a
// failure (a full disk, /dev/full, a closed pipe) carries its true errno; iostreams keep only
// a fail bit. Throws IoError naming "standard output".
void write_standard_output(const std::string& text, std::ostream& out);

// `text` at FILE: replaced atomically (temporary file beside it, fsync, rename, the old file's
// mode and, for root, owner kept; a new file gets 0644 minus the umask) or written in place
// (devices, FIFOs, /proc links, a dangling link). Throws IoError naming FILE as given.
// With `held` (check_output_path's): replaced in the held directory under its name, wherever
// that directory now is, never by FILE's path again; then, the report written, a runtime_error
// if FILE's directory no longer leads there (expect_output_directory).
// `option` names FILE's option in that message ("-o", "--json").
void write_output_file(const std::string& file, const std::string& text,
                       const HeldOutputDirectory& held = HeldOutputDirectory{},
                       const std::string& option = "-o");

// Both of the above; each is attempted whatever happens to the other, so a report is never
// lost while one of its outputs works. When FILE is the very file `out` (std::cout) writes to
// (-o /dev/stdout, or FILE and a shell's > FILE), the report is written there once. Throws one
// std::runtime_error naming every output that failed (exit 1).
void publish_report_text(const std::string& text, std::ostream& out, const std::string& file,
                         const HeldOutputDirectory& held = HeldOutputDirectory{});

// One file of the report (core/report_outputs.hpp): FILE as given, its option, the report in
// its format, its held directory (check_output_path's), and whether that text is standard
// output's (-o, or --json with --format json).
struct ReportFile {
  std::string file;
  std::string option;
  const std::string* text = nullptr;
  const HeldOutputDirectory* held = nullptr;
  bool same_as_standard_output = false;
};

// Every file, in order, then `standard_output_text` to `out`; each is attempted whatever
// happens to the others. A file holding standard output's text that is the very file `out`
// writes to gets it once, through `out`, as publish_report_text's; one in another format is
// written there too (a device or pipe: check_output_path refused a regular file). Throws one
// std::runtime_error naming every output that failed (exit 1).
void publish_report_files(const std::vector<ReportFile>& files,
                          const std::string& standard_output_text, std::ostream& out);

// Writes `text` to a new file at `path` (O_CREAT | O_EXCL | O_NOFOLLOW: never an existing name,
// never through a link). Throws IoError. With `dir_fd` (a directory the run holds), the file is
// made in it under `path`'s last component, wherever that directory's name now leads.
void write_new_file(const std::string& path, const std::string& text, int dir_fd = -1);

}  // namespace mpiwrite
