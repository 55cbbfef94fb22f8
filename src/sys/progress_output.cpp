// Where --progress's lines go (progress_output.hpp).
#include "mpiwrite/sys/progress_output.hpp"

#include <unistd.h>

#include "mpiwrite/core/text_escape.hpp"

namespace mpiwrite {

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

// Each line is one string, so one write() on the unbuffered std::cerr: a launcher that tags
// or interleaves what ranks write (mpirun --tag-output) gets it whole.
void ProgressOutput::show(const std::string& line) {
  // printable(): a point label is the user's text only through numbers, but stay safe.
  std::string text = in_place_ ? "\rmpiwrite: progress: " : "mpiwrite: progress: ";
  text += printable(line);
  text += in_place_ ? "\033[K" : "\n";
  open_line_ = in_place_;
  err_ << text << std::flush;
}

void ProgressOutput::end_phase() {
  if (open_line_) err_ << '\n' << std::flush;
  open_line_ = false;
}

}  // namespace mpiwrite
