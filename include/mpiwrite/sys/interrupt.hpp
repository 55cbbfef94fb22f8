#pragma once
// SIGINT, SIGTERM and SIGHUP: the handler only records the signal; writers stop at their next file
// and the coordinator stops at the next phase boundary, removes its scratch directories and reports
// what completed, marked interrupted (exit code 128 + signal).

#include <atomic>

namespace mpiwrite {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP, with SA_RESTART: an interrupted system call
// is restarted rather than failing with EINTR, so a signal never shows up as an I/O error; the
// writers stop before their next file, and --timeout covers a call that never returns.
void install_interrupt_handlers();

// The signal received (SIGINT, SIGTERM or SIGHUP), or 0.
const std::atomic<int>& interrupt_signal();

}  // namespace mpiwrite
