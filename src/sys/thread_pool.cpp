#include "mpiwrite/sys/thread_pool.hpp"

#include <fmt/format.h>
#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace mpiwrite {

namespace {

// "RLIMIT_NPROC: 4096" as ulimit -u says it, or "unlimited".
std::string limit_text(int resource) {
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0) return "unknown";
  return limit.rlim_cur == RLIM_INFINITY ? "unlimited" : std::to_string(limit.rlim_cur);
}

std::string first_line_of(const char* path) {
  std::ifstream in(path);
  std::string line;
  return std::getline(in, line) ? line : "unknown";
}

// Why thread `index` (0-based) of `workers` could not start, naming the resource: a bare
// "Resource temporarily unavailable" says nothing of which limit was reached (issue 21 §3).
std::string start_failure(unsigned index, unsigned workers, const std::system_error& e) {
  std::string text = fmt::format("cannot start writer thread {} of {}: {}", index + 1, workers,
                                 std::strerror(e.code().value()));
  if (e.code().value() == EAGAIN) {
    rlimit space{};
    const std::string address_space = ::getrlimit(RLIMIT_AS, &space) != 0 ? "unknown"
                                      : space.rlim_cur == RLIM_INFINITY
                                          ? "unlimited"
                                          : std::to_string(space.rlim_cur / 1024) + " KiB";
    text += fmt::format(
        " (the limit on threads: ulimit -u / RLIMIT_NPROC is {}, kernel.threads-max is {}; or "
        "memory for the thread's stack: ulimit -v / RLIMIT_AS is {}, ulimit -s sets the stack)",
        limit_text(RLIMIT_NPROC), first_line_of("/proc/sys/kernel/threads-max"), address_space);
  }
  return text;
}

}  // namespace

ThreadPool::ThreadPool(unsigned workers, std::function<void(unsigned)> on_start)
    : errors_(workers), on_start_(std::move(on_start)) {
  threads_.reserve(workers);
  auto stop_started = [this] {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    start_.notify_all();
    for (std::thread& t : threads_) t.join();
  };
  try {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { work(i); });
  } catch (const std::system_error& e) {
    const std::size_t started = threads_.size();
    stop_started();
    throw std::runtime_error(start_failure(static_cast<unsigned>(started), workers, e));
  } catch (...) {
    stop_started();
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
