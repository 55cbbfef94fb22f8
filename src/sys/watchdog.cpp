#include "mpiwrite/sys/watchdog.hpp"

namespace mpiwrite {

Watchdog::Watchdog(unsigned seconds, std::function<void(const Expiry&)> on_expiry)
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

void Watchdog::arm(std::string step, unsigned limits) {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    step_ = std::move(step);
    armed_ = true;
    ++generation_;
    waiting_ = false;
    waiting_for_.clear();
    grace_ = std::chrono::milliseconds(0);
    deadline_ = std::chrono::steady_clock::now() + limits * limit_;
  }
  changed_.notify_all();
}

void Watchdog::disarm() {
  if (!thread_.joinable()) return;
  std::lock_guard lock(mutex_);
  armed_ = false;
  ++generation_;
}

void Watchdog::waiting_for(const std::vector<int>& ranks, bool exact,
                           std::chrono::milliseconds grace) {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    waiting_ = !ranks.empty();
    waiting_for_ = ranks;
    exact_ = exact;
    const auto before = grace_;
    grace_ = waiting_ ? grace : std::chrono::milliseconds(0);
    if (grace_ == before) return;  // the same deadline: nothing to wake the thread for
    ++generation_;
  }
  changed_.notify_all();
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!armed_) {
      changed_.wait(lock);
      continue;
    }
    const auto deadline = deadline_ + grace_;
    const std::uint64_t generation = generation_;
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && armed_ &&
        generation_ == generation && !stopping_) {
      const Expiry expiry{step_, waiting_, waiting_for_, exact_};
      armed_ = false;
      lock.unlock();
      on_expiry_(expiry);  // normally does not return: the caller aborts the job
      lock.lock();
    }
  }
}

}  // namespace mpiwrite
