#include "mpiwrite/sys/watchdog.hpp"

namespace mpiwrite {

Watchdog::Watchdog(unsigned seconds, std::function<void(const std::string&)> on_expiry)
    : limit_(seconds), on_expiry_(std::move(on_expiry)) {
  if (seconds > 0) thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Watchdog::arm(const char* phase) {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    phase_ = phase;
    deadline_ = std::chrono::steady_clock::now() + limit_;
  }
  changed_.notify_all();
}

void Watchdog::disarm() {
  if (!thread_.joinable()) return;
  std::lock_guard lock(mutex_);
  phase_ = nullptr;
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (phase_ == nullptr) {
      changed_.wait(lock);
      continue;
    }
    const auto deadline = deadline_;
    const char* phase = phase_;
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && phase_ == phase &&
        deadline_ == deadline && !stopping_) {
      const std::string name = phase;
      phase_ = nullptr;
      lock.unlock();
      on_expiry_(name);  // normally does not return: the caller aborts the job
      lock.lock();
    }
  }
}

}  // namespace mpiwrite
