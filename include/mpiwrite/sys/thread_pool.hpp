#pragma once
// A fork-join pool of persistent workers: run_on_all() hands one task to every worker and
// waits for all of them. Threads are started once, outside the timed phases, and joined by
// the destructor (RAII).
//
// Where the workers start. A round starts without a lock: the caller bumps one start word and
// wakes every worker with one futex wake, and the scheduler places each (as a rule on its
// previous core when that is idle), as mpiwrite_floor wakes its threads. Until session 14 the
// caller woke workers 1..n-1 first and allowed worker 0 only the caller's core (against two
// workers queued on one core, seen with an older pool whose workers woke one another in a
// tree). But a worker then follows the caller, and the caller follows whichever worker
// finished last: from one round to the next, worker 0 and worker 1 swapped cores. A tree
// phase had a round per level (one round since session 15, pool_writer.cpp), each level's
// directories made in the parents the same worker made one level before, and after a swap
// every one of those parents was in the other core's caches: 1 rank x 2 threads tree-create
// at 10,000 directories took 1.09-1.35x the floor's time in 11 of 12 alternating sets in one
// hour, and 0.96-1.06x with every worker woken at once (bench/floor; docs/performance.md,
// "The pool's wake-up", session 14). Only the last worker to finish takes a mutex, to wake
// the caller.

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
  // When the last round's last worker finished its task (steady_clock, read by that worker
  // before it woke the caller): the round's own end, without the caller's wake-up after it
  // (20-70 us on the project's VM). With no workers: when the round began; the epoch before
  // any round ran.
  std::chrono::steady_clock::time_point last_finish() const { return last_finish_; }

 private:
  void work(unsigned index);

  void stop_workers();
  // Tells every worker that a round began or that the pool stops.
  void wake_all();

  // The round's start: task_ and stopping_ are written before the start word is bumped
  // (release) and read by a worker after it saw the word bumped (acquire).
  const std::function<void(unsigned)>* task_ = nullptr;
  bool stopping_ = false;
  struct alignas(64) StartWord {  // on its own cache line
    std::atomic<std::uint32_t> round{0};
  };
  StartWord start_;
  std::atomic<unsigned> pending_{0};  // workers still running the round
  // The round's end: the last worker sets finished_ under done_mutex_ and wakes the caller.
  std::mutex done_mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point last_finish_{};  // written under done_mutex_ with it
  std::vector<std::exception_ptr> errors_;
  std::function<void(unsigned)> on_start_;
  std::vector<std::thread> threads_;  // last member: started after the state above exists
};

}  // namespace mpiwrite
