#pragma once
// A fork-join pool of persistent workers: run_on_all() hands one task to every worker and
// waits for all of them. Threads are started once, outside the timed phases, and joined by
// the destructor (RAII).
//
// Where the workers start. A round starts without a lock: the caller wakes workers 1..n-1
// (one futex wake), which the scheduler places on the idle cores while the caller's core is
// still busy, then allows worker 0 only the caller's core and wakes it, so that worker 0 runs
// there once the caller waits; worker 0 takes back its own cores as it starts. Woken all at
// once and unconstrained, as before, two workers were often queued on one core while the
// caller's core went idle a moment later, and shared that core until the next load balance, a
// scheduler tick (4 ms) or more (`perf sched`; most tree-remove phases of 1 rank × 2 threads,
// bench section floor, issue 23). Worker 0 waking the others from its core instead (tried
// second) raced with the caller going to sleep: in the seed's 64-rank table the 1 × 2 point
// took a 1 × 1 point's time in 20 of 20 runs. A lone worker is woken where the scheduler
// likes (narrowed to the caller's core it was no better: 1 rank × 1 thread remove and 2 × 1
// points slower in the same hour). With more workers than the process may use cores, every
// core will be busy however they are placed: the caller wakes them all, as they come. Only
// the last worker to finish takes a mutex, to wake the caller.

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
  // Tell worker 0, or every other worker, that a round began or that the pool stops.
  void wake_first();
  void wake_the_rest();
  // wake_first(), worker 0 allowed only the calling thread's core until it starts.
  void wake_first_on_the_callers_core();

  // The round's start: task_, stopping_ and first_narrowed_ are written before a start word
  // is bumped (release) and read by a worker after it saw its word bumped (acquire).
  const std::function<void(unsigned)>* task_ = nullptr;
  bool stopping_ = false;
  struct alignas(64) StartWord {  // on its own cache line
    std::atomic<std::uint32_t> round{0};
  };
  StartWord first_;  // worker 0's
  StartWord rest_;   // every other worker's
  bool caller_wakes_all_ = false;  // more workers than the process's cores (set before any start)
  // Worker 0's cores as it started (its creator's), empty if unknown; first_narrowed_: the
  // caller allowed it only the caller's core for this round's start.
  std::vector<unsigned char> first_cores_;
  bool first_narrowed_ = false;
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
