#pragma once
// Where --progress's lines go (rank 0's standard error): on a terminal one line rewritten in
// place ("\r", the line, clear to the end of the line; a newline when the phase ends), in a
// log one line per interval. The text is core's (progress_line.hpp).

#include <ostream>
#include <string>

namespace mpiwrite {

// isatty(2). Under Open MPI's mpirun a rank's standard error is a pipe to the launcher even
// when mpirun runs on a terminal (and its standard output a pseudo-terminal even into a
// file), so under mpirun this is false: --progress-style tty says what the rank cannot see.
bool stderr_is_terminal();

class ProgressOutput {
 public:
  ProgressOutput(std::ostream& err, bool in_place) : err_(err), in_place_(in_place) {}
  // "mpiwrite: progress: " and the line, flushed.
  void show(const std::string& line);
  // The phase is over: on a terminal its last line is kept (a newline), if one was shown.
  void end_phase();

 private:
  std::ostream& err_;
  bool in_place_;
  bool open_line_ = false;  // in place: a line shown and not yet ended
};

}  // namespace mpiwrite
