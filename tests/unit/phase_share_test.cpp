// Which files a rank takes in the stat, read and remove phases after a completed write
// (completed_share, phase_share.hpp): exhaustively over small points, every name once per
// phase, and stat and read on a slice another rank wrote, under every partition of the write.
#include <gtest/gtest.h>

#include <vector>

#include "mpiwrite/core/phase_share.hpp"

namespace mpiwrite {
namespace {

// The rank that wrote each name 1..files under `write` (0 where none did): its rank_slice.
std::vector<int> writers_of(const WorkSplit& write) {
  std::vector<int> writer(write.files + 1, -1);
  for (int rank = 0; rank < write.ranks; ++rank) {
    const Progression slice = rank_slice(write, rank);
    for (std::uint64_t i = 0; i < slice.count; ++i) writer[slice.at(i)] = rank;
  }
  return writer;
}

TEST(PhaseShare, EveryNameOnceAndStatAndReadOnAnotherRanksFiles) {
  for (const Partition partition : {Partition::Block, Partition::Cyclic}) {
    for (int ranks = 1; ranks <= 5; ++ranks) {
      for (const std::uint64_t files : {0u, 1u, 4u, 7u, 12u, 100u}) {
        for (unsigned shift = 0; shift < 7; ++shift) {
          const WorkSplit write{files, partition, ranks, 2};
          const std::vector<int> writer = writers_of(write);
          for (const Phase phase : {Phase::Stat, Phase::Read, Phase::Remove}) {
            std::vector<int> taken(files + 1, 0);
            for (int rank = 0; rank < ranks; ++rank) {
              const Progression share = completed_share(phase, write, rank, shift);
              const int owner = share_owner(phase, rank, ranks, shift);
              for (std::uint64_t i = 0; i < share.count; ++i) {
                const std::uint64_t name = share.at(i);
                ASSERT_GE(name, 1u);
                ASSERT_LE(name, files);
                ++taken[name];
                // The whole share is one rank's writing: the owner's.
                EXPECT_EQ(writer[name], owner)
                    << "name " << name << " rank " << rank << " ranks " << ranks << " shift "
                    << shift << " cyclic " << (partition == Partition::Cyclic);
                // Stat and read never on the rank's own files unless the shift comes round.
                if (phase != Phase::Remove && shift % static_cast<unsigned>(ranks) != 0) {
                  EXPECT_NE(writer[name], rank);
                }
              }
            }
            for (std::uint64_t name = 1; name <= files; ++name) {
              EXPECT_EQ(taken[name], 1) << "name " << name << " " << phase_name(phase);
            }
          }
        }
      }
    }
  }
}

TEST(PhaseShare, TheOwnerIsTheShiftedRankAndRemoveTakesItsOwn) {
  EXPECT_EQ(share_owner(Phase::Stat, 0, 4, 1), 1);
  EXPECT_EQ(share_owner(Phase::Read, 3, 4, 1), 0);
  EXPECT_EQ(share_owner(Phase::Stat, 2, 4, 6), 0);  // 6 mod 4
  EXPECT_EQ(share_owner(Phase::Remove, 2, 4, 1), 2);
  EXPECT_EQ(share_owner(Phase::Stat, 0, 1, 1), 0);  // one rank: its own
}

// A share over threads: contiguous positions of the concatenation, every position once, as
// even as the count allows, strides kept (a cyclic slice stays a progression).
TEST(PhaseShare, SplitOverThreadsDealsEveryPositionOnceInOrder) {
  const std::vector<Progression> share{{1, 5, 3}, {40, 0, 1}, {100, 4, 1}};
  std::vector<std::uint64_t> all;
  for (const Progression& p : share) {
    for (std::uint64_t i = 0; i < p.count; ++i) all.push_back(p.at(i));
  }
  for (unsigned threads = 1; threads <= 11; ++threads) {
    const auto parts = split_over_threads(share, threads);
    ASSERT_EQ(parts.size(), threads);
    std::vector<std::uint64_t> dealt;
    for (unsigned t = 0; t < threads; ++t) {
      std::uint64_t count = 0;
      for (const Progression& p : parts[t]) {
        for (std::uint64_t i = 0; i < p.count; ++i) dealt.push_back(p.at(i));
        count += p.count;
      }
      EXPECT_GE(count, all.size() / threads);
      EXPECT_LE(count, (all.size() + threads - 1) / threads);
    }
    EXPECT_EQ(dealt, all) << threads << " threads";
  }
}

}  // namespace
}  // namespace mpiwrite
