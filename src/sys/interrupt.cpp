#include "mpiwrite/sys/interrupt.hpp"

#include <csignal>

namespace mpiwrite {

namespace {

// The one process-wide state in mpiwrite: a signal handler can reach nothing else.
std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler needs a lock-free atomic");

extern "C" void record_signal(int signal) { received.store(signal, std::memory_order_relaxed); }

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = record_signal;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // A terminal that goes away (or a rank sent SIGHUP directly) is one more way to be stopped:
  // handled as SIGTERM, with the report and the clean-up, not a silent death (exit 129).
  sigaction(SIGHUP, &action, nullptr);
  // A closed standard output (mpiwrite | head -1) is an error to report, with -o still
  // written, rather than a silent death by SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
}

const std::atomic<int>& interrupt_signal() { return received; }

}  // namespace mpiwrite
