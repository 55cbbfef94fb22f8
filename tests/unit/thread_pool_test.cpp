#include "mpiwrite/sys/thread_pool.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <thread>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <vector>

namespace mpiwrite {
namespace {

TEST(ThreadPool, RunsTheTaskOnEveryWorkerOncePerCall) {
  ThreadPool pool(4);
  std::vector<std::atomic<int>> runs(4);
  for (int call = 0; call < 50; ++call) {
    pool.run_on_all([&](unsigned worker) { ++runs[worker]; });
  }
  for (auto& r : runs) EXPECT_EQ(r.load(), 50);
}

// The caller wakes every worker at once, fewer or more than the process's cores: every
// worker, whatever the count, runs each call's task once, on its own thread, and a pool that
// never ran a task still stops.
TEST(ThreadPool, EveryWorkerOfAnySizeRunsEachCallOnce) {
  for (const unsigned workers : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 13u, 64u}) {
    ThreadPool pool(workers);
    std::vector<std::atomic<int>> runs(workers);
    std::vector<std::thread::id> ids(workers);
    for (int call = 0; call < 20; ++call) {
      pool.run_on_all([&](unsigned worker) {
        ++runs[worker];
        ids[worker] = std::this_thread::get_id();
      });
    }
    for (unsigned w = 0; w < workers; ++w) EXPECT_EQ(runs[w].load(), 20) << workers << " workers";
    std::vector<std::thread::id> distinct = ids;
    std::sort(distinct.begin(), distinct.end());
    EXPECT_EQ(std::unique(distinct.begin(), distinct.end()), distinct.end()) << workers;
    EXPECT_EQ(std::count(ids.begin(), ids.end(), std::this_thread::get_id()), 0) << workers;
  }
  for (const unsigned workers : {1u, 2u, 9u}) ThreadPool idle(workers);  // joins without a call
}

// The pool never narrows a worker's cores (until session 14 it narrowed worker 0's to the
// caller's for each round's start, and a worker then followed the caller from core to core:
// thread_pool.hpp): every worker's task runs with the caller's cores, mpirun's binding or
// taskset's, in every call.
TEST(ThreadPool, EveryWorkerRunsItsTaskWithTheCallersCores) {
  cpu_set_t own;
  ASSERT_EQ(::pthread_getaffinity_np(::pthread_self(), sizeof own, &own), 0);
  for (const unsigned workers : {1u, 2u, 3u}) {
    ThreadPool pool(workers);
    for (int call = 0; call < 20; ++call) {
      std::vector<cpu_set_t> seen(workers);
      for (cpu_set_t& s : seen) CPU_ZERO(&s);
      pool.run_on_all([&](unsigned worker) {
        ::pthread_getaffinity_np(::pthread_self(), sizeof seen[worker], &seen[worker]);
      });
      for (unsigned w = 0; w < workers; ++w) {
        EXPECT_TRUE(CPU_EQUAL(&seen[w], &own))
            << workers << " workers, worker " << w << ", call " << call;
      }
    }
  }
}

// A throwing worker 0 does not keep the others from their task, and the next call runs
// everywhere again.
TEST(ThreadPool, WorkerZeroThatThrowsHasStillWokenTheOthers) {
  ThreadPool pool(7);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.run_on_all([&](unsigned worker) {
    ++ran;
    if (worker == 0) throw std::runtime_error("worker 0 failed");
  }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 7);
  pool.run_on_all([&](unsigned) { ++ran; });
  EXPECT_EQ(ran.load(), 14);
}

TEST(ThreadPool, AWorkerExceptionReachesTheCallerAfterAllFinish) {
  ThreadPool pool(3);
  std::atomic<int> finished{0};
  EXPECT_THROW(pool.run_on_all([&](unsigned worker) {
    ++finished;
    if (worker == 1) throw std::runtime_error("worker 1 failed");
  }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 3);
  // The pool is still usable after a failure.
  pool.run_on_all([&](unsigned) { ++finished; });
  EXPECT_EQ(finished.load(), 6);
}

// A poll that throws (an MPI error in the dynamic counter's progress) does not end the round
// early: run_on_all rethrows it only once every worker has finished, so no task outlives the
// caller's frame and the next round does not overlap it (hostile review, session 12: it
// returned at once, and the next round's workers ran the old round's task).
TEST(ThreadPool, APollThatThrowsIsRethrownOnlyAfterTheWorkersFinish) {
  ThreadPool pool(2);
  std::atomic<int> finished{0};
  int polls = 0;
  EXPECT_THROW(pool.run_on_all(
                   [&](unsigned) {
                     std::this_thread::sleep_for(std::chrono::milliseconds(100));
                     finished.fetch_add(1);
                   },
                   [&]() -> std::chrono::microseconds {
                     ++polls;
                     throw std::runtime_error("MPI_Iprobe failed");
                   },
                   std::chrono::microseconds(1000)),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 2);
  EXPECT_EQ(polls, 1);  // not called again after it threw
  std::atomic<int> next{0};
  pool.run_on_all([&](unsigned) { next.fetch_add(1); });
  EXPECT_EQ(next.load(), 2);
  EXPECT_EQ(finished.load(), 2);
}

// The caller's poll runs while the workers work, at about its period, not in a busy loop:
// --progress's main thread wakes a few times per interval (an upper bound only: a loaded
// machine may wake it less often).
TEST(ThreadPool, PollsAtItsPeriodWhileWorkersRun) {
  ThreadPool pool(2);
  int polls = 0;
  pool.run_on_all([](unsigned) { std::this_thread::sleep_for(std::chrono::milliseconds(200)); },
                  [&] {
                    ++polls;
                    return std::chrono::microseconds(20000);
                  },
                  std::chrono::milliseconds(20));
  EXPECT_GE(polls, 1);
  EXPECT_LE(polls, 15);  // 200 ms / 20 ms = 10 wakes, plus slack; 50 µs would be ~4000
}

// The wait after each poll is what that poll asked for (--progress: until its next tick).
TEST(ThreadPool, WaitsWhatItsPollAsksFor) {
  ThreadPool pool(1);
  int polls = 0;
  pool.run_on_all([](unsigned) { std::this_thread::sleep_for(std::chrono::milliseconds(200)); },
                  [&] {
                    ++polls;
                    return std::chrono::microseconds(100000);
                  },
                  std::chrono::milliseconds(1));
  EXPECT_GE(polls, 1);
  EXPECT_LE(polls, 3);  // 1 ms, then 100 ms waits: at most 3 polls in 200 ms (1000 at 200 µs)
}

// A round's end is its last worker's finish, read by that worker, not the caller's return:
// here the workers finish only once the caller is in its poll, which then keeps it 100 ms,
// and the round's end still is within the workers' (a phase's end on a rank, PhaseAgreement).
TEST(ThreadPool, TheRoundEndsWhenItsLastWorkerFinishesNotWhenTheCallerReturns) {
  using Clock = std::chrono::steady_clock;
  ThreadPool pool(3);
  EXPECT_EQ(pool.last_finish(), Clock::time_point{});  // no round yet
  std::vector<Clock::time_point> ends(3);
  const Clock::time_point began = Clock::now();
  std::atomic<bool> polling{false};
  bool polled = false;
  pool.run_on_all(
      [&](unsigned worker) {
        while (!polling.load()) std::this_thread::sleep_for(std::chrono::microseconds(200));
        std::this_thread::sleep_for(std::chrono::milliseconds(worker));
        ends[worker] = Clock::now();
      },
      [&] {
        if (!polled) {
          polling.store(true);
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        polled = true;
        return std::chrono::microseconds(1000);
      },
      std::chrono::microseconds(100));
  const Clock::time_point returned = Clock::now();
  ASSERT_TRUE(polled);
  const Clock::time_point last = *std::max_element(ends.begin(), ends.end());
  EXPECT_GE(pool.last_finish(), last);
  EXPECT_LE(pool.last_finish(), returned);
  EXPECT_GE(returned - pool.last_finish(), std::chrono::milliseconds(30))
      << "the round's end is the caller's return";
  EXPECT_GE(returned - began, std::chrono::milliseconds(100));
  // The next round's end is its own.
  pool.run_on_all([](unsigned) {});
  EXPECT_GT(pool.last_finish(), returned);
}

// Without workers a round ends when it begins.
TEST(ThreadPool, ARoundWithoutWorkersEndsWhenItBegins) {
  ThreadPool pool(0);
  const auto before = std::chrono::steady_clock::now();
  pool.run_on_all([](unsigned) {});
  EXPECT_GE(pool.last_finish(), before);
  EXPECT_LE(pool.last_finish(), std::chrono::steady_clock::now());
}

}  // namespace
}  // namespace mpiwrite
