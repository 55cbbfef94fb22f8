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
  // Runs task(worker_index) on every worker, waits for all, then rethrows the first
  // exception a worker threw (by worker index), after every worker has finished. While it
  // waits, the calling thread runs `poll` (if given) about every `poll_every` (50 µs: MPI
  // progress for a dynamic partition; --progress alone wakes far less often).
  void run_on_all(const std::function<void(unsigned)>& task,
                  const std::function<void()>& poll = {},
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
