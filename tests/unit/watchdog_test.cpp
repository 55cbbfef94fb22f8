#include "mpiwrite/sys/watchdog.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace mpiwrite {
namespace {

using namespace std::chrono_literals;

TEST(Watchdog, FiresForAStepThatOutrunsTheLimitAndNamesIt) {
  std::atomic<int> fired{0};
  Watchdog::Expiry seen;
  Watchdog dog(1, [&](const Watchdog::Expiry& e) {
    seen = e;
    ++fired;
  });
  dog.arm("the write phase");
  for (int i = 0; i < 300 && fired == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(fired.load(), 1);
  EXPECT_EQ(seen.step, "the write phase");
  EXPECT_FALSE(seen.waiting);
}

TEST(Watchdog, NamesTheRanksAWaitingStepWaitsFor) {
  std::atomic<int> fired{0};
  Watchdog::Expiry seen;
  Watchdog dog(1, [&](const Watchdog::Expiry& e) {
    seen = e;
    ++fired;
  });
  dog.arm("the barrier before the write phase");
  dog.waiting_for({1, 3});
  dog.waiting_for({3});  // rank 1 arrived
  for (int i = 0; i < 300 && fired == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(fired.load(), 1);
  EXPECT_EQ(seen.step, "the barrier before the write phase");
  EXPECT_TRUE(seen.waiting);
  EXPECT_EQ(seen.for_, std::vector<int>{3});
}

// A rank waiting for rank 0 gives it a grace to speak first; the grace ends with the wait.
TEST(Watchdog, AGraceDelaysTheExpiryWhileTheWaitLasts) {
  std::atomic<int> fired{0};
  Watchdog::Expiry seen;
  Watchdog dog(1, [&](const Watchdog::Expiry& e) {
    seen = e;
    ++fired;
  });
  dog.arm("the agreement after the write phase");
  dog.waiting_for({0}, true, std::chrono::milliseconds(1000));
  std::this_thread::sleep_for(1500ms);
  EXPECT_EQ(fired.load(), 0);  // 1.5 s < the limit + the grace
  for (int i = 0; i < 300 && fired == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(fired.load(), 1);
  EXPECT_EQ(seen.for_, std::vector<int>{0});
  dog.arm("the next step");
  dog.waiting_for({0}, true, std::chrono::milliseconds(5000));
  dog.waiting_for({});  // the wait is over: the step's own deadline again
  for (int i = 0; i < 300 && fired == 1; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(fired.load(), 2);
  EXPECT_EQ(seen.step, "the next step");
  EXPECT_FALSE(seen.waiting);
}

// Every step gets the whole limit: steps of 0.6 s each, 3 s in all, under a limit of 1 s.
TEST(Watchdog, ReArmingGivesEachStepTheWholeLimit) {
  std::atomic<int> fired{0};
  {
    Watchdog dog(1, [&](const Watchdog::Expiry&) { ++fired; });
    for (int i = 0; i < 5; ++i) {
      dog.arm("step " + std::to_string(i));
      std::this_thread::sleep_for(600ms);
    }
  }
  EXPECT_EQ(fired.load(), 0);
}

TEST(Watchdog, StaysQuietWhenDisarmedInTimeOrOff) {
  std::atomic<int> fired{0};
  {
    Watchdog dog(1, [&](const Watchdog::Expiry&) { ++fired; });
    for (int i = 0; i < 3; ++i) {
      dog.arm("the write phase");
      std::this_thread::sleep_for(500ms);  // each step is shorter than the limit
      dog.disarm();
    }
    std::this_thread::sleep_for(700ms);
    Watchdog off(0, [&](const Watchdog::Expiry&) { ++fired; });
    off.arm("the write phase");
  }
  EXPECT_EQ(fired.load(), 0);
}

}  // namespace
}  // namespace mpiwrite
