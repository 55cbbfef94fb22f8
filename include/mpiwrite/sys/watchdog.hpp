#pragma once
// --timeout: a thread that watches the rank's current step. Each step is armed with its name
// and gets the whole limit from then on (re-arming resets the deadline); a step still armed
// after the limit makes the thread call on_expiry with the step's name and, when the step is
// a wait on other ranks, the ranks it was still waiting for (the caller aborts the job): a
// rank stuck in a system call (a hung NFS server) or waiting for a rank that is (or that was
// stopped) then ends the run instead of holding the allocation. The thread never calls MPI
// (MPI runs THREAD_SERIALIZED): what it names, the main thread told it. Arming is cheap; the
// thread sleeps on a condition variable.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mpiwrite {

class Watchdog {
 public:
  struct Expiry {
    std::string step;
    bool waiting = false;   // the step was waiting on other ranks when the limit came
    std::vector<int> for_;  // those it had not heard from (world ranks), when waiting
    bool exact = true;      // false: it waited for one of for_, which cannot be told
  };

  // seconds == 0: never fires (no thread is started).
  Watchdog(unsigned seconds, std::function<void(const Expiry&)> on_expiry);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // The current step, with the whole limit from now (`limits` times it: a wait that spans
  // that many steps of other ranks); forgets any wait of the step before.
  void arm(std::string step, unsigned limits = 1);
  void disarm();
  // The current step now waits for these ranks (world ranks; empty: no longer waits); not
  // `exact`: for one of them (a blocking collective). `grace`: while it waits so, the step
  // may run that much longer (a rank waiting for rank 0, which waits for others and knows
  // whom, lets rank 0 speak first).
  void waiting_for(const std::vector<int>& ranks, bool exact = true,
                   std::chrono::milliseconds grace = std::chrono::milliseconds(0));

 private:
  void watch();

  std::chrono::seconds limit_;
  std::function<void(const Expiry&)> on_expiry_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool armed_ = false;
  std::uint64_t generation_ = 0;  // one more per arm(): a wake-up for an older step is stale
  std::string step_;
  bool waiting_ = false;
  std::vector<int> waiting_for_;
  bool exact_ = true;
  std::chrono::steady_clock::time_point deadline_;  // the step's start + the limit
  std::chrono::milliseconds grace_{0};
  bool stopping_ = false;
  std::thread thread_;  // last: started after the state above exists
};

}  // namespace mpiwrite
