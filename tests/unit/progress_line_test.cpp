// Live progress, the pure part: when it shows, and what a line says.
#include <gtest/gtest.h>

#include "mpiwrite/core/progress_line.hpp"

namespace mpiwrite {
namespace {

RunConfig with(double progress_s, ProgressStyle style = ProgressStyle::Auto,
               Format format = Format::Table) {
  RunConfig c;
  c.progress_s = progress_s;
  c.progress_style = style;
  c.format = format;
  return c;
}

TEST(ProgressSettings, NotGivenIsOnOnlyOnATerminalAndNotForJson) {
  EXPECT_FALSE(progress_settings(with(kProgressNotGiven), false).on());
  const ProgressSettings tty = progress_settings(with(kProgressNotGiven), true);
  EXPECT_EQ(tty.interval_s, 1.0);
  EXPECT_TRUE(tty.in_place);
  EXPECT_FALSE(
      progress_settings(with(kProgressNotGiven, ProgressStyle::Auto, Format::Json), true).on());
  // The forced style stands for the terminal mpirun hides.
  EXPECT_EQ(progress_settings(with(kProgressNotGiven, ProgressStyle::Tty), false).interval_s, 1.0);
  EXPECT_FALSE(progress_settings(with(kProgressNotGiven, ProgressStyle::Lines), false).on());
}

TEST(ProgressSettings, BareIsTenSecondsInALogAndOneOnATerminal) {
  EXPECT_EQ(progress_settings(with(kProgressBare), false).interval_s, 10.0);
  EXPECT_FALSE(progress_settings(with(kProgressBare), false).in_place);
  EXPECT_EQ(progress_settings(with(kProgressBare), true).interval_s, 1.0);
  EXPECT_EQ(progress_settings(with(kProgressBare, ProgressStyle::Tty), false).interval_s, 1.0);
  EXPECT_TRUE(progress_settings(with(kProgressBare, ProgressStyle::Tty), false).in_place);
  EXPECT_FALSE(progress_settings(with(kProgressBare, ProgressStyle::Lines), true).in_place);
}

TEST(ProgressSettings, SecondsAsGivenAndZeroIsOff) {
  EXPECT_EQ(progress_settings(with(0.2), false).interval_s, 0.2);
  EXPECT_EQ(progress_settings(with(0.2, ProgressStyle::Auto, Format::Json), false).interval_s,
            0.2);  // asked for: also with JSON (it goes to stderr)
  EXPECT_FALSE(progress_settings(with(0), true).on());
}

TEST(ProgressFormat, SecondsAndRates) {
  EXPECT_EQ(format_seconds(1.25), "1.2 s");
  EXPECT_EQ(format_seconds(42.4), "42 s");
  EXPECT_EQ(format_seconds(185), "3:05");
  EXPECT_EQ(format_seconds(3723), "1:02:03");
  EXPECT_EQ(format_seconds(-1), "0.0 s");
  EXPECT_EQ(format_rate(0.25), "0.2");
  EXPECT_EQ(format_rate(1234.4), "1234");
}

TEST(ProgressMeter, NowIsSinceTheLastLineMeanSinceTheStartAndEtaAtTheCurrentRate) {
  ProgressMeter meter({ProgressPhase::Write, "4x1", false, 2, 3}, 1000, 10.0);
  EXPECT_EQ(meter.line(12.0, 200),
            "write 4x1 rep 2/3: 200/1000 files (20%), 100 files/s now, 100 files/s mean, "
            "ETA 8.0 s");
  EXPECT_EQ(meter.line(13.0, 500),
            "write 4x1 rep 2/3: 500/1000 files (50%), 300 files/s now, 167 files/s mean, "
            "ETA 1.7 s");
  EXPECT_EQ(meter.line(14.0, 500),  // nothing moved: the mean
            "write 4x1 rep 2/3: 500/1000 files (50%), 0.0 files/s now, 125 files/s mean, "
            "ETA 4.0 s");
  EXPECT_EQ(meter.line(15.0, 1000),
            "write 4x1 rep 2/3: 1000/1000 files (100%), 200 files/s mean, done in 5.0 s");
}

TEST(ProgressMeter, UnderATimeLimitTheEtaIsNoLaterThanTheLimit) {
  ProgressMeter meter({ProgressPhase::Write, "4x1", false, 1, 1, 5.0}, 100000, 0.0);
  EXPECT_EQ(meter.line(2.0, 200),  // 99,800 left at 100 files/s: the limit comes first
            "write 4x1 rep 1/1: 200/100000 files (0%), 100 files/s now, 100 files/s mean, "
            "ETA 3.0 s (time limit)");
  ProgressMeter quick({ProgressPhase::Write, "4x1", false, 1, 1, 5.0}, 1000, 0.0);
  EXPECT_EQ(quick.line(1.0, 800),  // done before the limit: the rate's ETA
            "write 4x1 rep 1/1: 800/1000 files (80%), 800 files/s now, 800 files/s mean, "
            "ETA 0.2 s");
}

TEST(ProgressMeter, APhaseEndedShortSaysDoneWithoutNowOrEta) {
  ProgressMeter meter({ProgressPhase::Write, "2x1", false, 1, 1, 1.6}, 1100, 0.0);
  meter.line(1.0, 600);
  EXPECT_EQ(meter.line(1.62, 1025, true),  // the time limit (or a signal) ended it at 1025
            "write 2x1 rep 1/1: 1025/1100 files (93%), 633 files/s mean, done in 1.6 s");
}

TEST(ProgressMeter, WarmupsAndRemovalAreNamed) {
  ProgressMeter warm({ProgressPhase::Verify, "1x2-rank", true, 1, 2}, 10, 0);
  EXPECT_EQ(warm.line(1, 0),
            "verify 1x2-rank warm-up 1/2: 0/10 files (0%), 0.0 files/s now, 0.0 files/s mean, "
            "ETA ?");
  ProgressMeter removal({ProgressPhase::Removal, "", false, 0, 0}, 30, 0);
  EXPECT_EQ(removal.line(2, 15).substr(0, 30), "removal: 15/30 files (50%), 7.");
}

// The tree phases make and remove directories, and their lines say so; the file phases of
// --phases count files.
TEST(ProgressMeter, TheTreePhasesCountDirectories) {
  ProgressMeter made({progress_phase_of(Phase::TreeCreate), "4x1", false, 1, 3}, 100, 0);
  EXPECT_EQ(made.line(2, 40),
            "tree-create 4x1 rep 1/3: 40/100 directories (40%), 20 directories/s now, "
            "20 directories/s mean, ETA 3.0 s");
  ProgressMeter removed({progress_phase_of(Phase::TreeRemove), "4x1", false, 1, 3}, 100, 0);
  EXPECT_EQ(removed.line(4, 100),
            "tree-remove 4x1 rep 1/3: 100/100 directories (100%), 25 directories/s mean, "
            "done in 4.0 s");
  ProgressMeter stat({progress_phase_of(Phase::Stat), "4x1", false, 1, 3}, 100, 0);
  EXPECT_EQ(stat.line(4, 100),
            "stat 4x1 rep 1/3: 100/100 files (100%), 25 files/s mean, done in 4.0 s");
  for (Phase p : kAllPhases) {
    EXPECT_EQ(to_string(progress_phase_of(p)), phase_name(p));
    EXPECT_EQ(items_of(progress_phase_of(p)), counts_directories(p) ? "directories" : "files");
  }
}

}  // namespace
}  // namespace mpiwrite
