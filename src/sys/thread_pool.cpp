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
  try {
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this, i] { work(i); });
  } catch (const std::system_error& e) {
    const std::size_t started = threads_.size();
    stop_workers();
    throw std::runtime_error(start_failure(static_cast<unsigned>(started), workers, e));
  } catch (...) {
    stop_workers();
    throw;
  }
}

ThreadPool::~ThreadPool() { stop_workers(); }

void ThreadPool::stop_workers() {
  stopping_ = true;
  wake_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::wake_all() {
  start_.round.fetch_add(1, std::memory_order_release);
  start_.round.notify_all();
}

void ThreadPool::run_on_all(const std::function<void(unsigned)>& task, const Poll& poll,
                            std::chrono::microseconds poll_every) {
  task_ = &task;
  for (std::exception_ptr& e : errors_) e = nullptr;
  {
    std::lock_guard lock(done_mutex_);
    finished_ = size() == 0;
    if (finished_) last_finish_ = std::chrono::steady_clock::now();  // nothing to run
  }
  pending_.store(size(), std::memory_order_relaxed);
  if (size() > 0) wake_all();  // each where the scheduler likes (thread_pool.hpp)
  // The round is over only when every worker is: a poll that throws (an MPI error in the
  // dynamic counter's progress) is kept until then, so that no worker still runs a task that
  // refers to the caller's frame, and no next round overlaps this one.
  std::exception_ptr poll_error;
  std::unique_lock lock(done_mutex_);
  if (poll) {
    std::chrono::microseconds wait = poll_every;
    while (!done_.wait_for(lock, wait, [this] { return finished_; })) {
      lock.unlock();
      try {
        wait = poll();
      } catch (...) {
        poll_error = std::current_exception();
        lock.lock();
        break;
      }
      lock.lock();
    }
  }
  done_.wait(lock, [this] { return finished_; });
  task_ = nullptr;
  if (poll_error) std::rethrow_exception(poll_error);
  for (const std::exception_ptr& e : errors_) {
    if (e) std::rethrow_exception(e);
  }
}

void ThreadPool::work(unsigned index) {
  if (on_start_) on_start_(index);
  std::uint32_t seen = 0;
  for (;;) {
    start_.round.wait(seen, std::memory_order_acquire);
    seen = start_.round.load(std::memory_order_acquire);
    if (stopping_) return;
    try {
      (*task_)(index);
    } catch (...) {
      errors_[index] = std::current_exception();
    }
    // The last one out wakes the caller; the others' writes (errors_, what the task wrote)
    // reach it through this chain of read-modify-writes and the mutex.
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      const auto finished_at = std::chrono::steady_clock::now();
      {
        std::lock_guard lock(done_mutex_);
        finished_ = true;
        last_finish_ = finished_at;
      }
      done_.notify_one();
    }
  }
}

}  // namespace mpiwrite
