#pragma once
// A fork-join pool of persistent workers: run_on_all() hands one task to every worker and
// waits for all of them. Threads are started once, outside the timed phases, and joined by
// the destructor (RAII).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mpiwrite {

class ThreadPool {
 public:
  // `on_start` runs once on each worker thread before it takes any task (e.g. to give the
  // thread a private file descriptor table).
  explicit ThreadPool(unsigned workers, std::function<void(unsigned)> on_start = {});
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(threads_.size()); }
  // What the waiting thread does while the workers run: it returns how long to wait before
  // it is called again (MPI progress for a dynamic partition: 50 µs; --progress: until its
  // next interval, or 1 ms while a round of its collective is in flight).
  using Poll = std::function<std::chrono::microseconds()>;
  // Runs task(worker_index) on every worker, waits for all, then rethrows the first
  // exception a worker threw (by worker index), after every worker has finished. While it
  // waits, the calling thread runs `poll` (if given): first after `poll_every`, then after
  // what each call returns.
  void run_on_all(const std::function<void(unsigned)>& task, const Poll& poll = {},
                  std::chrono::microseconds poll_every = std::chrono::microseconds(50));

 private:
  void work(unsigned index);

  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  const std::function<void(unsigned)>* task_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stopping_ = false;
  std::vector<std::exception_ptr> errors_;
  std::function<void(unsigned)> on_start_;
  std::vector<std::thread> threads_;  // last member: started after the state above exists
};

}  // namespace mpiwrite
