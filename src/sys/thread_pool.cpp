#include "mpiwrite/sys/thread_pool.hpp"

#include <chrono>

namespace mpiwrite {

ThreadPool::ThreadPool(unsigned workers, std::function<void(unsigned)> on_start)
    : errors_(workers), on_start_(std::move(on_start)) {
  threads_.reserve(workers);
  try {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { work(i); });
  } catch (...) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
    throw;
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::run_on_all(const std::function<void(unsigned)>& task, const Poll& poll,
                            std::chrono::microseconds poll_every) {
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    pending_ = size();
    for (std::exception_ptr& e : errors_) e = nullptr;
    ++generation_;
  }
  start_.notify_all();
  std::unique_lock lock(mutex_);
  if (poll) {
    std::chrono::microseconds wait = poll_every;
    while (!done_.wait_for(lock, wait, [this] { return pending_ == 0; })) {
      lock.unlock();
      wait = poll();
      lock.lock();
    }
  } else {
    done_.wait(lock, [this] { return pending_ == 0; });
  }
  task_ = nullptr;
  for (const std::exception_ptr& e : errors_) {
    if (e) std::rethrow_exception(e);
  }
}

void ThreadPool::work(unsigned index) {
  if (on_start_) on_start_(index);
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(unsigned)>* task = nullptr;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      task = task_;
    }
    std::exception_ptr error;
    try {
      (*task)(index);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    errors_[index] = error;
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace mpiwrite
