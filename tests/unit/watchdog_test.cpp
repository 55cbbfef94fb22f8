#include "mpiwrite/sys/watchdog.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace mpiwrite {
namespace {

using namespace std::chrono_literals;

TEST(Watchdog, FiresForAPhaseThatOutrunsTheLimitAndNamesIt) {
  std::atomic<int> fired{0};
  std::string phase;
  Watchdog dog(1, [&](const std::string& p) {
    phase = p;
    ++fired;
  });
  dog.arm("write");
  for (int i = 0; i < 300 && fired == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(fired.load(), 1);
  EXPECT_EQ(phase, "write");
}

TEST(Watchdog, StaysQuietWhenDisarmedInTimeOrOff) {
  std::atomic<int> fired{0};
  {
    Watchdog dog(1, [&](const std::string&) { ++fired; });
    for (int i = 0; i < 3; ++i) {
      dog.arm("write");
      std::this_thread::sleep_for(500ms);  // each phase is shorter than the limit
      dog.disarm();
    }
    std::this_thread::sleep_for(700ms);
    Watchdog off(0, [&](const std::string&) { ++fired; });
    off.arm("write");
  }
  EXPECT_EQ(fired.load(), 0);
}

}  // namespace
}  // namespace mpiwrite
