// The creation ledger without MPI: what each kind of step leaves to remove, in every order.
#include "mpiwrite/core/creation_ledger.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpiwrite/core/points.hpp"

namespace mpiwrite {
namespace {

// A run's schedule and a ledger over it; start() takes the next step, as the steps do.
struct LedgerRun {
  explicit LedgerRun(RunConfig c, bool creates_files = true, int ranks = 1)
      : config(c),
        points(make_points(config, ranks)),
        schedule(config, points, "/d", "/d/.mpiwrite-id", 7),
        ledger(schedule, "/d", creates_files, config.cleanup) {}
  Step start() {
    Step step;
    EXPECT_TRUE(schedule.next(step));
    if (step.scratch && !ledger.scratch_root()) ledger.scratch_root_made();
    ledger.step_started(step);
    return step;
  }
  std::vector<RemovalItem> items() const {
    std::vector<RemovalItem> all;
    ledger.for_each_removal_item([&](const RemovalItem& item) { all.push_back(item); });
    return all;
  }
  RunConfig config;
  std::vector<PointSpec> points;
  StepSchedule schedule;
  CreationLedger ledger;
};

RunConfig plain(unsigned warmup, unsigned repetitions, bool cleanup) {
  RunConfig c;
  c.warmup = warmup;
  c.repetitions = repetitions;
  c.cleanup = cleanup;
  return c;
}

CreatedFiles records(std::uint64_t first, std::uint64_t count) {
  CreatedFiles created;
  created.take({first, count, 1});
  return created;
}

TEST(CreationLedger, BeforeAnyStepNothingIsTheRuns) {
  LedgerRun run(plain(1, 2, true));
  EXPECT_FALSE(run.ledger.anything_to_remove());
  EXPECT_TRUE(run.items().empty());
  EXPECT_FALSE(run.ledger.dir_touched());
  EXPECT_EQ(run.ledger.names_to_remove(10), 0u);
  EXPECT_FALSE(CreationLedger().anything_to_remove()) << "before the run is prepared";
}

TEST(CreationLedger, CompletedStepsGoByThePlanBlockWalkedAgainFromTheSchedule) {
  LedgerRun run(plain(1, 2, true));
  for (int i = 0; i < 3; ++i) {
    run.start();
    run.ledger.step_completed();
  }
  const auto items = run.items();
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].dir, "/d/.mpiwrite-id/w1");
  EXPECT_EQ(items[1].dir, "/d/.mpiwrite-id/r1");
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(items[i].scratch);
    EXPECT_EQ(items[i].files, RemoveFiles::PlanBlock);
    EXPECT_EQ(items[i].directories, RemoveDirectories::Layout) << "every one the run's";
  }
  EXPECT_EQ(items[2].dir, "/d");
  EXPECT_FALSE(items[2].scratch);
  EXPECT_EQ(items[2].files, RemoveFiles::PlanBlock);
  EXPECT_EQ(items[2].directories, RemoveDirectories::Listed);
  EXPECT_TRUE(run.ledger.cleans_dir());
  EXPECT_TRUE(run.ledger.scratch_root());
  EXPECT_EQ(run.ledger.names_to_remove(10), 30u);
  EXPECT_EQ(run.ledger.records_of("/d"), nullptr) << "every name: no records kept";
}

TEST(CreationLedger, WithoutCleanupDirIsNotTheRunsToClean) {
  LedgerRun run(plain(0, 2, false));
  for (int i = 0; i < 2; ++i) {
    run.start();
    run.ledger.step_completed();
  }
  EXPECT_FALSE(run.ledger.cleans_dir());
  EXPECT_FALSE(run.ledger.dir_item());
  ASSERT_EQ(run.items().size(), 1u) << "the scratch step only";
  EXPECT_TRUE(run.ledger.anything_to_remove()) << "the scratch root";
  EXPECT_FALSE(run.ledger.removes_run_directory());
}

TEST(CreationLedger, ACutShortStepGoesByItsRecords) {
  LedgerRun run(plain(0, 2, true));
  const Step first = run.start();
  run.ledger.step_cut_short(records(1, 4));
  ASSERT_NE(run.ledger.records_of(first.dir), nullptr) << "--verify reads them";
  EXPECT_EQ(run.ledger.records_of(first.dir)->files_taken(), 4u);
  run.start();
  run.ledger.step_cut_short(records(1, 3));
  const auto items = run.items();
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].files, RemoveFiles::Records);
  EXPECT_EQ(items[0].records->files_taken(), 4u);
  EXPECT_EQ(items[1].files, RemoveFiles::Records);
  EXPECT_EQ(items[1].records->files_taken(), 3u);
  EXPECT_EQ(run.ledger.names_to_remove(10), 7u);
}

TEST(CreationLedger, AStoppedStepGoesByItsRecordsAndLaterStepsAreNotVisited) {
  LedgerRun run(plain(1, 3, true));
  run.start();
  run.ledger.step_completed();
  const Step stopped = run.start();
  run.ledger.step_stopped(records(5, 2));
  const auto items = run.items();
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].files, RemoveFiles::PlanBlock);
  EXPECT_EQ(items[1].dir, stopped.dir);
  EXPECT_EQ(items[1].files, RemoveFiles::Records);
  EXPECT_EQ(items[1].records->files_taken(), 2u);
  EXPECT_EQ(items[1].directories, RemoveDirectories::Layout);
  EXPECT_FALSE(run.ledger.cleans_dir()) << "no step reached --dir";
  EXPECT_EQ(run.ledger.names_to_remove(10), 12u);
}

TEST(CreationLedger, AStepStoppedBeforeItWroteHasNoRecords) {
  // Interrupted while making its layout directories: nothing written, the directory is the run's.
  LedgerRun run(plain(0, 2, true));
  run.start();
  const auto items = run.items();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].files, RemoveFiles::Records);
  EXPECT_EQ(items[0].records->files_taken(), 0u);
}

TEST(CreationLedger, AStepStoppedInDirIsCleanedByItsRecordsOnlyWithCleanup) {
  for (const bool cleanup : {true, false}) {
    LedgerRun run(plain(0, 1, cleanup));
    const Step step = run.start();
    EXPECT_FALSE(step.scratch);
    EXPECT_TRUE(run.ledger.dir_touched());
    run.ledger.layout_directories_made(step, {"d0", "d1"});
    run.ledger.step_stopped(records(1, 6));
    EXPECT_EQ(run.ledger.cleans_dir(), cleanup);
    EXPECT_FALSE(run.ledger.scratch_root());
    if (!cleanup) {
      EXPECT_FALSE(run.ledger.anything_to_remove());
      continue;
    }
    const std::optional<RemovalItem> dir = run.ledger.dir_item();
    ASSERT_TRUE(dir);
    EXPECT_EQ(dir->files, RemoveFiles::Records);
    EXPECT_EQ(dir->records->files_taken(), 6u);
    ASSERT_NE(dir->made, nullptr);
    EXPECT_EQ(*dir->made, (std::vector<std::string>{"d0", "d1"}));
  }
}

TEST(CreationLedger, OnlyLayoutDirectoriesMadeInDirAreListed) {
  LedgerRun run(plain(0, 2, true));
  const Step scratch = run.start();
  run.ledger.layout_directories_made(scratch, {"s0"});
  run.ledger.step_completed();
  const Step in_dir = run.start();
  run.ledger.layout_directories_made(in_dir, {"d0"});
  run.ledger.layout_directories_made(in_dir, {"d1"});  // made in parts: all remembered
  run.ledger.step_completed();
  EXPECT_EQ(*run.ledger.dir_item()->made, (std::vector<std::string>{"d0", "d1"}));
}

TEST(CreationLedger, OverwriteKeepsDirCompleteWhenALaterStepStops) {
  RunConfig c = plain(0, 3, true);
  c.overwrite = true;
  LedgerRun run(c);
  run.start();
  run.ledger.step_completed();
  run.start();
  run.ledger.step_stopped(records(1, 2));
  EXPECT_FALSE(run.ledger.scratch_root());
  const std::optional<RemovalItem> dir = run.ledger.dir_item();
  ASSERT_TRUE(dir);
  EXPECT_EQ(dir->files, RemoveFiles::PlanBlock) << "every name was created by the first step";
  EXPECT_EQ(run.items().size(), 1u) << "every step in --dir: one item";
}

TEST(CreationLedger, TheNullEngineCreatesNothingButTheStepDirectories) {
  LedgerRun run(plain(1, 2, true), /*creates_files=*/false);
  for (int i = 0; i < 2; ++i) {
    const Step step = run.start();
    run.ledger.layout_directories_made(step, {"x"});
    run.ledger.step_cut_short(records(1, 3));
  }
  const Step last = run.start();
  run.ledger.step_stopped(records(1, 3));
  const auto items = run.items();
  ASSERT_EQ(items.size(), 3u) << "the scratch steps' directories are the run's";
  for (const RemovalItem& item : items) {
    EXPECT_EQ(item.files, RemoveFiles::None);
    EXPECT_EQ(item.directories, RemoveDirectories::None);
    EXPECT_FALSE(item.holds_anything());
  }
  EXPECT_TRUE(run.ledger.cleans_dir()) << "the removal phase still runs (and is reported)";
  EXPECT_FALSE(run.ledger.dir_item()->holds_anything());
  EXPECT_EQ(run.ledger.names_to_remove(10), 0u);
  EXPECT_EQ(run.ledger.records_of(last.dir)->files_taken(), 0u) << "no record kept";
}

TEST(CreationLedger, RunDirectoryGoesOnlyWhenMadeAndCleanedUp) {
  for (const bool cleanup : {true, false}) {
    LedgerRun run(plain(0, 1, cleanup));
    run.ledger.run_directory_made();
    EXPECT_EQ(run.ledger.removes_run_directory(), cleanup);
    EXPECT_EQ(run.ledger.anything_to_remove(), cleanup);
  }
}

// Issue 23: without --cleanup, a remove phase that emptied --dir (in every step into it) leaves
// nothing of the run's to keep there: the layout directories the run made there go, each only
// while empty, and --dir too when the run made it; never with a step into --dir that did not
// get through its remove phase, nor with --cleanup (which removes them anyway).
TEST(CreationLedger, ARemovePhaseThatEmptiedDirLetsItsEmptyDirectoriesGo) {
  const auto emptied = [](bool cleanup, bool made, bool last_removed, bool stopped) {
    LedgerRun run(plain(0, 2, cleanup));
    if (made) run.ledger.run_directory_made();
    run.ledger.removes_in_every_step(true, false);
    run.start();  // a scratch step
    run.ledger.step_completed();
    run.ledger.step_files_removed();
    const Step in_dir = run.start();
    run.ledger.layout_directories_made(in_dir, {"rank0", "rank0/t0"});
    if (stopped) {
      run.ledger.step_stopped(records(1, 2));
    } else {
      run.ledger.step_completed();
    }
    if (last_removed) run.ledger.step_files_removed();
    std::optional<RemovalItem> item = run.ledger.dir_item();
    if (item && item->made != nullptr) {
      EXPECT_EQ(*item->made, (std::vector<std::string>{"rank0", "rank0/t0"}));
    }
    if (item) item->made = nullptr;  // the ledger's, gone with `run`
    return std::make_pair(run.ledger.dir_emptied(), item);
  };
  const auto [yes, item] = emptied(false, true, true, false);
  EXPECT_TRUE(yes);
  ASSERT_TRUE(item);
  EXPECT_TRUE(item->only_empty);
  EXPECT_EQ(item->files, RemoveFiles::None) << "the remove phase removed them";
  EXPECT_EQ(item->directories, RemoveDirectories::Listed);
  EXPECT_FALSE(emptied(false, true, false, false).first) << "its remove phase did not finish";
  EXPECT_FALSE(emptied(false, true, false, true).first) << "the step into --dir stopped";
  EXPECT_FALSE(emptied(false, true, false, true).second) << "nothing of --dir to remove";
  EXPECT_FALSE(emptied(true, true, true, false).first) << "--cleanup decides, as before";
  EXPECT_FALSE(emptied(true, true, true, false).second->only_empty);

  LedgerRun made(plain(0, 1, false));
  made.ledger.run_directory_made();
  made.ledger.removes_in_every_step(true, true);
  made.start();
  made.ledger.step_completed();
  EXPECT_FALSE(made.ledger.removes_emptied_run_directory()) << "before its remove phase";
  made.ledger.step_files_removed();
  made.ledger.step_tree_removed();
  EXPECT_TRUE(made.ledger.removes_emptied_run_directory());
  EXPECT_FALSE(made.ledger.removes_run_directory()) << "that one is --cleanup's";
  EXPECT_FALSE(made.ledger.dir_item()->holds_anything()) << "tree-remove took the tree";

  LedgerRun found(plain(0, 1, false));  // --dir was there before
  found.ledger.removes_in_every_step(true, false);
  found.start();
  found.ledger.step_completed();
  found.ledger.step_files_removed();
  EXPECT_TRUE(found.ledger.dir_emptied());
  EXPECT_FALSE(found.ledger.removes_emptied_run_directory()) << "not the run's to remove";

  LedgerRun plain_run(plain(0, 1, false));  // no remove phase: the files are kept
  plain_run.ledger.run_directory_made();
  plain_run.start();
  plain_run.ledger.step_completed();
  EXPECT_FALSE(plain_run.ledger.dir_emptied());
  EXPECT_FALSE(plain_run.ledger.dir_item());
}

TEST(CreationLedger, ManyCompletedStepsOfAComparisonAreWalkedInScheduleOrder) {
  RunConfig c;
  c.compare = true;
  c.repetitions = 50;
  c.cleanup = true;
  LedgerRun run(c, true, 4);
  std::vector<std::string> started;
  for (std::uint64_t i = 0; i < run.schedule.size(); ++i) {
    started.push_back(run.start().dir);
    run.ledger.step_completed();
  }
  std::vector<std::string> visited;
  for (const RemovalItem& item : run.items()) visited.push_back(item.dir);
  EXPECT_EQ(visited, started);
  EXPECT_FALSE(run.ledger.cleans_dir()) << "a comparison writes only into scratch";
}

}  // namespace
}  // namespace mpiwrite
