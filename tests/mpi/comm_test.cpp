#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/mpi/host_doorbell.hpp"
#include "mpiwrite/mpi/progress_rounds.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace mpiwrite {
namespace {

boost::mpi::communicator world;

TEST(Agree, AllRanksLearnOfOneFailingRankAndRootGetsItsMessageOnce) {
  EXPECT_TRUE(comm::agree(world, "").all_ok);
  const int failing = world.size() - 1;
  const comm::Agreement a = comm::agree(world, world.rank() == failing ? "disk full" : "");
  EXPECT_FALSE(a.all_ok);
  if (world.rank() == 0) {
    ASSERT_EQ(a.failures.size(), 1u);
    EXPECT_EQ(a.failures[0], "rank " + std::to_string(failing) + ": disk full");
  } else {
    EXPECT_TRUE(a.failures.empty());
  }
}

TEST(Agree, EveryFailingRankIsListedInRankOrder) {
  const comm::Agreement a = comm::agree(world, "rank says " + std::to_string(world.rank()));
  EXPECT_FALSE(a.all_ok);
  if (world.rank() == 0) {
    ASSERT_EQ(a.failures.size(), static_cast<std::size_t>(world.size()));
    EXPECT_EQ(a.failures.back(), "rank " + std::to_string(world.size() - 1) + ": rank says " +
                                     std::to_string(world.size() - 1));
  }
}

// The agreement after a phase is also its signal check (run_state.hpp): every rank learns the
// largest signal any rank had, whichever rank had it, with or without a failure.
TEST(Agree, EveryRankLearnsTheLargestSignalAnyRankGot) {
  EXPECT_EQ(comm::agree(world, "").signal, 0);
  const int last = world.size() - 1;
  const comm::Agreement a = comm::agree(world, "", world.rank() == last ? 15 : 0);
  EXPECT_TRUE(a.all_ok);
  EXPECT_EQ(a.signal, 15);
  const comm::Agreement b =
      comm::agree(world, world.rank() == 0 ? "disk full" : "", world.rank() == last ? 2 : 15);
  EXPECT_FALSE(b.all_ok);
  EXPECT_EQ(b.signal, world.size() > 1 ? 15 : 2);  // one rank: the last rank's 2 alone
}

// --timeout names whom a rank waits for (comm.hpp): at a boundary the last rank arrives
// 300 ms late; rank 0 is told it waits for that rank (a world rank), the others for rank 0,
// and everybody that the wait is over.
TEST(ObservedWaits, RankZeroHearsWhichRankHasNotArrivedTheOthersRankZero) {
  if (world.size() < 2) GTEST_SKIP() << "needs 2 ranks";
  std::vector<std::pair<std::vector<int>, bool>> heard;
  comm::observe_waits(
      [&](const std::vector<int>& ranks, bool exact) { heard.emplace_back(ranks, exact); });
  const int late = world.size() - 1;
  if (world.rank() == late) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int max = comm::max_int(world, world.rank());
  comm::observe_waits(nullptr);
  EXPECT_EQ(max, late);
  ASSERT_FALSE(heard.empty());
  EXPECT_TRUE(heard.back().first.empty());  // the wait is over
  bool named = false;
  for (const auto& [ranks, exact] : heard) {
    EXPECT_TRUE(exact);
    if (world.rank() == 0) named = named || ranks == std::vector<int>{late};
    if (world.rank() != 0) named = named || ranks == std::vector<int>{0};
  }
  EXPECT_TRUE(named);
}

// MPI's own barrier after a phase's quiet barrier (phase_agreement.cpp): a rank in it is told
// it waits for one of every other rank (not exact: a blocking collective cannot say which),
// then that the wait is over. Without it, a rank stopped between the two barriers left the
// others' --timeout message naming nobody (e2e.watchdog (b), CI of 43ed65c).
TEST(ObservedWaits, MpisBarrierNamesEveryOtherRankAsOneOfThem) {
  if (world.size() < 2) GTEST_SKIP() << "needs 2 ranks";
  std::vector<std::pair<std::vector<int>, bool>> heard;
  comm::observe_waits(
      [&](const std::vector<int>& ranks, bool exact) { heard.emplace_back(ranks, exact); });
  comm::barrier(world);
  comm::observe_waits(nullptr);
  ASSERT_EQ(heard.size(), 2u);
  std::vector<int> others;
  for (int r = 0; r < world.size(); ++r) {
    if (r != world.rank()) others.push_back(r);
  }
  EXPECT_EQ(heard[0].first, others);
  EXPECT_FALSE(heard[0].second);
  EXPECT_TRUE(heard[1].first.empty());
}

TEST(GatherClockSamples, ArriveOnRootInRankOrder) {
  const RankClockSample mine{world.rank(), -5 - world.rank(), 100 + world.rank(),
                             7u + static_cast<unsigned>(world.rank()), 1ull << 40};
  const std::vector<RankClockSample> all = comm::gather_clock_samples(world, mine);
  if (world.rank() != 0) {
    EXPECT_TRUE(all.empty());
    return;
  }
  ASSERT_EQ(all.size(), static_cast<std::size_t>(world.size()));
  for (int r = 0; r < world.size(); ++r) {
    const RankClockSample& s = all[static_cast<std::size_t>(r)];
    EXPECT_EQ(s.rank, r);
    EXPECT_EQ(s.start_ns, -5 - r);
    EXPECT_EQ(s.end_ns, 100 + r);
    EXPECT_EQ(s.files, 7u + static_cast<unsigned>(r));
    EXPECT_EQ(s.bytes, 1ull << 40);
  }
}

TEST(GatherFigures, ArriveOnRootInRankOrder) {
  const RankFigures mine{world.rank(), 0.5 * world.rank(),
                         10u + static_cast<unsigned>(world.rank()), 7};
  const std::vector<RankFigures> all = comm::gather_figures(world, mine);
  if (world.rank() != 0) return;
  ASSERT_EQ(all.size(), static_cast<std::size_t>(world.size()));
  for (int r = 0; r < world.size(); ++r) {
    EXPECT_EQ(all[static_cast<std::size_t>(r)].rank, r);
    EXPECT_EQ(all[static_cast<std::size_t>(r)].elapsed_s, 0.5 * r);
    EXPECT_EQ(all[static_cast<std::size_t>(r)].files, 10u + static_cast<unsigned>(r));
  }
}

TEST(ReduceHistogram, RootHoldsTheMergeOfEveryRank) {
  LatencyHistogram mine, expected;
  for (int r = 0; r < world.size(); ++r) {
    LatencyHistogram& h = r == world.rank() ? mine : expected;
    for (int i = 0; i <= r; ++i) {
      const auto value = static_cast<std::uint64_t>(1000 * (r + 1) + i);
      h.record(value);
      if (&h == &mine) expected.record(value);
    }
  }
  comm::reduce_histogram(world, mine);
  if (world.rank() != 0) return;
  EXPECT_EQ(mine.counts(), expected.counts());
  EXPECT_EQ(mine.count(), expected.count());
  EXPECT_EQ(mine.total_ns(), expected.total_ns());
  EXPECT_EQ(mine.max_ns(), expected.max_ns());
}

// Several at once: each is merged with its own kind only (a file's latency with the others'
// latencies, a create with creates).
TEST(ReduceHistograms, RootHoldsTheMergeOfEachAcrossEveryRank) {
  LatencyHistogram mine[3], expected[3];
  for (int r = 0; r < world.size(); ++r) {
    for (std::size_t k = 0; k < 3; ++k) {
      for (int i = 0; i <= r; ++i) {
        const std::uint64_t value =
            1000u * static_cast<std::uint64_t>(r + 1) * (k + 1) + static_cast<std::uint64_t>(i);
        expected[k].record(value);
        if (r == world.rank()) mine[k].record(value);
      }
    }
  }
  comm::reduce_histograms(world, {&mine[0], &mine[1], &mine[2]});
  if (world.rank() != 0) return;
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(mine[k].counts(), expected[k].counts()) << k;
    EXPECT_EQ(mine[k].count(), expected[k].count()) << k;
    EXPECT_EQ(mine[k].total_ns(), expected[k].total_ns()) << k;
    EXPECT_EQ(mine[k].max_ns(), expected[k].max_ns()) << k;
  }
}

TEST(BroadcastConfig, EveryFieldArrives) {
  RunConfig c;
  if (world.rank() == 0) {
    c.files = 77;
    c.text = "root text";
    c.threads = 3;
    c.partition = Partition::Cyclic;
    c.format = Format::Csv;
    c.output = "out.csv";
    c.cleanup = true;
  }
  comm::broadcast_config(world, c);
  EXPECT_EQ(c.files, 77u);
  EXPECT_EQ(c.text, "root text");
  EXPECT_EQ(c.threads, 3u);
  EXPECT_EQ(c.partition, Partition::Cyclic);
  EXPECT_EQ(c.format, Format::Csv);
  EXPECT_EQ(c.output, "out.csv");
  EXPECT_TRUE(c.cleanup);
}

// --progress's rounds: rank r works through r + 1 rounds, then finishes; every rank takes part
// in the same number of rounds (the last working rank's, plus the one that says all are
// done), and that last round sums every rank's final figures.
TEST(ProgressRounds, RanksThatFinishEarlyKeepJoiningUntilEveryRankIsDone) {
  comm::ProgressRounds rounds(world);
  const auto r = static_cast<std::uint64_t>(world.rank());
  std::uint64_t taken = 0;
  comm::ProgressSum sum;
  for (std::uint64_t k = 1; k <= r + 1; ++k) {
    rounds.start(10 * k, false, 100);
    while (!rounds.test(sum)) std::this_thread::sleep_for(std::chrono::microseconds(100));
    ++taken;
    EXPECT_FALSE(rounds.all_done(sum));  // this rank is not done
  }
  comm::ProgressSum last;
  rounds.finish(100, 100, [&](const comm::ProgressSum& s) {
    ++taken;
    last = s;
  });
  EXPECT_FALSE(rounds.outstanding());
  const auto size = static_cast<std::uint64_t>(world.size());
  EXPECT_EQ(last.files, 100 * size);
  EXPECT_EQ(last.done_ranks, size);
  EXPECT_EQ(last.total, 100 * size);
  std::vector<std::uint64_t> all;
  boost::mpi::all_gather(world, taken, all);
  for (std::uint64_t n : all) EXPECT_EQ(n, size + 1);
}

std::int64_t monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

long voluntary_switches() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_nvcsw;
}

// Patient waits sleep on the doorbell (host_doorbell.hpp) until the root releases them: while
// one rank arrives 325 ms late at a patient barrier -- the root itself, then the last rank --
// every other rank but the root (all on the root's host here) is woken a handful of times, not
// every 0.5-2 ms (about 150 voluntary context switches with those sleeps), and leaves within
// 100 ms of the late rank's arrival (a missed ring would cost the 50 ms safety limit). Not 300:
// a multiple of that limit let a waiter's own timeout coincide with the ring, and it was
// counted as woken by the limit (about 1 run in 6 at 4 ranks).
TEST(HostDoorbell, PatientWaitersSleepUntilTheRootReleasesThem) {
  if (world.size() < 2) GTEST_SKIP() << "needs 2 ranks";
  comm::HostDoorbell doorbell;  // current() while it lives: the boundaries below use it
  ASSERT_TRUE(doorbell.enabled());
  for (const int late : {0, world.size() - 1}) {
    comm::quiet_barrier(world);  // together, so that only the late rank's sleep is waited for
    const long switches_before = voluntary_switches();
    const comm::HostDoorbell::Counts counts_before = doorbell.counts();
    if (world.rank() == late) std::this_thread::sleep_for(std::chrono::milliseconds(325));
    const std::int64_t arrived_ns = monotonic_ns();
    comm::quiet_barrier(world, comm::Pace::patient);
    const std::int64_t left_ns = monotonic_ns();
    const long switches = voluntary_switches() - switches_before;
    // One host: one monotonic clock.
    std::int64_t late_arrived_ns = arrived_ns;
    boost::mpi::broadcast(world, late_arrived_ns, late);
    if (world.rank() == 0 || world.rank() == late) continue;  // the root tests with sleeps
    const comm::HostDoorbell::Counts& counts = doorbell.counts();
    EXPECT_LT(switches, 30) << "late rank " << late;
    EXPECT_LT(left_ns - late_arrived_ns, 100'000'000) << "late rank " << late;
    EXPECT_GT(counts.rung, counts_before.rung) << "late rank " << late;
    EXPECT_EQ(counts.rung_not_done, counts_before.rung_not_done) << "late rank " << late;
    EXPECT_EQ(counts.done_after_timeout, counts_before.done_after_timeout) << "late rank " << late;
  }
}

// A timed phase's ranks start only once the host's ranks outside it sleep on the doorbell
// (comm::settle_outside_ranks): here the ranks other than 0 are "outside" and arrive at their
// patient wait 150 ms late; rank 0 (inside, the root) must not leave the settle before they
// sleep, nor wait for the whole limit once they do; with nobody ever asleep it gives up at the
// limit.
TEST(HostDoorbell, APhaseStartsOnceTheRanksOutsideItSleep) {
  if (world.size() < 2) GTEST_SKIP() << "needs 2 ranks";
  comm::HostDoorbell doorbell;
  ASSERT_TRUE(doorbell.enabled());
  const boost::mpi::communicator alone = world.split(world.rank() == 0 ? 0 : 1);
  comm::quiet_barrier(world);
  if (world.rank() == 0) {
    const std::int64_t start_ns = monotonic_ns();
    comm::settle_outside_ranks(alone, std::chrono::milliseconds(5000));
    const std::int64_t waited_ns = monotonic_ns() - start_ns;
    EXPECT_EQ(doorbell.asleep(), world.size() - 1);
    EXPECT_GT(waited_ns, 100'000'000);    // they came 150 ms late
    EXPECT_LT(waited_ns, 3'000'000'000);  // and it did not wait for the limit
  } else {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
  }
  comm::quiet_barrier(world, comm::Pace::patient);  // the others sleep here until rank 0 comes
  if (world.rank() == 0) {  // nobody asleep now: the limit ends the settle
    const std::int64_t start_ns = monotonic_ns();
    comm::settle_outside_ranks(alone, std::chrono::milliseconds(30));
    const std::int64_t waited_ns = monotonic_ns() - start_ns;
    EXPECT_GE(waited_ns, 30'000'000);
    EXPECT_LT(waited_ns, 2'000'000'000);
  }
  comm::quiet_barrier(world);
}

}  // namespace
}  // namespace mpiwrite
