#pragma once
// --timeout: a thread that watches the rank's current phase. If a phase is still armed after
// the limit, it calls on_expiry with a message naming the phase (the caller aborts the job):
// a rank stuck in a system call (a hung NFS server) then ends the run instead of holding the
// allocation. Disarming is cheap; the thread sleeps on a condition variable.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace mpiwrite {

class Watchdog {
 public:
  // seconds == 0: never fires (no thread is started).
  Watchdog(unsigned seconds, std::function<void(const std::string& phase)> on_expiry);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm(const char* phase);
  void disarm();

 private:
  void watch();

  std::chrono::seconds limit_;
  std::function<void(const std::string&)> on_expiry_;
  std::mutex mutex_;
  std::condition_variable changed_;
  const char* phase_ = nullptr;  // armed while not null
  std::chrono::steady_clock::time_point deadline_;
  bool stopping_ = false;
  std::thread thread_;  // last: started after the state above exists
};

}  // namespace mpiwrite
