// The work sources a writer's threads take their files from: PartsSource (lists of parts per
// thread) and shuffled_parts (--random-order's order of a rank's files).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mpiwrite/core/work_source.hpp"

namespace mpiwrite {
namespace {

std::vector<Progression> taken_by(WorkSource& source, unsigned thread) {
  std::vector<Progression> taken;
  Progression chunk;
  while (source.next(thread, chunk)) taken.push_back(chunk);
  return taken;
}

std::vector<std::uint64_t> indices_of(const std::vector<Progression>& parts) {
  std::vector<std::uint64_t> indices;
  for (const Progression& p : parts) {
    for (std::uint64_t i = 0; i < p.count; ++i) indices.push_back(p.at(i));
  }
  return indices;
}

TEST(PartsSource, EachThreadGetsItsPartsInOrderAndSkipsEmptyOnes) {
  PartsSource source({{{1, 3, 1}, {10, 0, 1}, {20, 2, 5}}, {}, {{7, 1, 1}}});
  EXPECT_EQ(taken_by(source, 0), (std::vector<Progression>{{1, 3, 1}, {20, 2, 5}}));
  EXPECT_TRUE(taken_by(source, 1).empty());
  EXPECT_EQ(taken_by(source, 2), (std::vector<Progression>{{7, 1, 1}}));
  Progression chunk;
  EXPECT_FALSE(source.next(0, chunk));  // stays done
  EXPECT_FALSE(source.next(5, chunk));  // a thread with no list has nothing
}

// A share of two progressions (a rank's own block and a shifted one) over 3 threads.
TEST(ShuffledParts, EveryIndexOnceInBlocksThatDifferByAtMostOne) {
  const std::vector<Progression> share{{1, 10, 1}, {100, 7, 3}};
  const auto parts = shuffled_parts(share, 3, 42);
  ASSERT_EQ(parts.size(), 3u);
  std::vector<std::uint64_t> all;
  for (const auto& thread : parts) {
    EXPECT_TRUE(thread.size() == 5u || thread.size() == 6u) << thread.size();
    for (const Progression& p : thread) EXPECT_EQ(p.count, 1u);
    const auto mine = indices_of(thread);
    all.insert(all.end(), mine.begin(), mine.end());
  }
  std::vector<std::uint64_t> expected = indices_of(share);
  std::vector<std::uint64_t> shuffled = all;
  EXPECT_NE(shuffled, expected);  // 17! orders: this seed does not give the identity
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
}

TEST(ShuffledParts, TheSameSeedGivesTheSameOrderAnotherSeedAnother) {
  const std::vector<Progression> share{{5, 50, 2}};
  EXPECT_EQ(shuffled_parts(share, 4, 7), shuffled_parts(share, 4, 7));
  EXPECT_NE(shuffled_parts(share, 4, 7), shuffled_parts(share, 4, 8));
  // Pinned: the order is SplitMix64's Fisher-Yates (checked against a Python transcription),
  // not the standard library's shuffle, so a seed gives the same order on every platform.
  EXPECT_EQ(indices_of(shuffled_parts({{1, 5, 1}}, 1, 1)[0]),
            (std::vector<std::uint64_t>{2, 1, 4, 5, 3}));
  const auto two = shuffled_parts({{1, 10, 1}}, 2, 2026);
  EXPECT_EQ(indices_of(two[0]), (std::vector<std::uint64_t>{2, 1, 7, 8, 4}));
  EXPECT_EQ(indices_of(two[1]), (std::vector<std::uint64_t>{10, 3, 6, 5, 9}));
}

TEST(ShuffledParts, MoreThreadsThanFilesLeavesSomeEmptyAndNothingIsLost) {
  const auto parts = shuffled_parts({{3, 2, 1}}, 5, 0);
  ASSERT_EQ(parts.size(), 5u);
  std::size_t files = 0;
  for (const auto& thread : parts) files += thread.size();
  EXPECT_EQ(files, 2u);
  EXPECT_TRUE(shuffled_parts({}, 2, 0)[1].empty());
  PartsSource source(parts);
  std::vector<std::uint64_t> got;
  for (unsigned t = 0; t < 5; ++t) {
    const auto mine = indices_of(taken_by(source, t));
    got.insert(got.end(), mine.begin(), mine.end());
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::uint64_t>{3, 4}));
}

}  // namespace
}  // namespace mpiwrite
