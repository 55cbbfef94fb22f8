#pragma once
// SIGINT and SIGTERM: the handler only records the signal; writers stop at their next file and
// the coordinator stops at the next phase boundary, removes its scratch directories and
// reports what completed, marked interrupted (exit code 128 + signal).

#include <atomic>

namespace mpiwrite {

// Installs the handlers for SIGINT and SIGTERM (SA_RESTART is not set: a blocking call returns
// EINTR and the writer stops).
void install_interrupt_handlers();

// The signal received (SIGINT or SIGTERM), or 0.
const std::atomic<int>& interrupt_signal();

}  // namespace mpiwrite
