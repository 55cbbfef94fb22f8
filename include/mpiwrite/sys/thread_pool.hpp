#pragma once
// A fork-join pool of persistent workers: run_on_all() hands one task to every worker and
// waits for all of them. Threads are started once, outside the timed phases, and joined by
// the destructor (RAII).
//
// A round starts without a lock, and in two steps: the caller wakes worker 0 alone, and
// worker 0, once running, wakes all the others (one futex wake) before its own task. Woken all
// at once by the caller, the workers were placed while the caller still held its core, and
// the scheduler often queued two of them on one core while the caller's core went idle a
// moment later; there they shared the core until the next load balance, a scheduler tick
// (4 ms) or more, a stall seen under `perf sched` in most tree-remove phases of 1 rank × 2
// threads (bench section floor, issue 23). Workers woken by a running worker find the cores
// that are idle by then. (A binary tree of wake-ups, each worker waking two, placed them as
// well, but with more threads than cores a worker must run before its children wake: the
// seed's 8-thread point took 11 % longer.) With more workers than the process may use cores,
// every core will be busy however they are placed, and the second step would only delay the
// others by worker 0's wake-up (3-6 % of the seed's 8- and 16-thread points on 2 cores): there
// the caller wakes them all itself. Only the last worker to finish takes a mutex, to wake the
// caller.

#include <atomic>
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
  // thread a private file descriptor table). It must not throw: nothing could carry the
  // exception to the caller, and it ends the process (std::terminate).
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
  // what each call returns. A poll that throws is not called again; its exception is
  // rethrown (before any worker's) once every worker has finished.
  void run_on_all(const std::function<void(unsigned)>& task, const Poll& poll = {},
                  std::chrono::microseconds poll_every = std::chrono::microseconds(50));

 private:
  void work(unsigned index);

  void stop_workers();
  // Tells worker 0 (the caller) or every other worker (worker 0) that a round began, or that
  // the pool stops.
  void wake_first();
  void wake_the_rest();

  // The round's start: task_ and stopping_ are written before worker 0's start word is bumped
  // (release); worker 0 reads them after it saw its word bumped (acquire), then bumps the
  // others' word (release), which they read before the task (acquire).
  const std::function<void(unsigned)>* task_ = nullptr;
  bool stopping_ = false;
  struct alignas(64) StartWord {  // on its own cache line
    std::atomic<std::uint32_t> round{0};
  };
  StartWord first_;  // worker 0's
  StartWord rest_;   // every other worker's
  bool caller_wakes_all_ = false;  // more workers than the process's cores (set before any start)
  std::atomic<unsigned> pending_{0};  // workers still running the round
  // The round's end: the last worker sets finished_ under done_mutex_ and wakes the caller.
  std::mutex done_mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::vector<std::exception_ptr> errors_;
  std::function<void(unsigned)> on_start_;
  std::vector<std::thread> threads_;  // last member: started after the state above exists
};

}  // namespace mpiwrite
