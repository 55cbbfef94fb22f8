// The uring engine's other phases (src/engines/uring_files.cpp, uring_tree.cpp) through the
// rank's writer, on real files and a real io_uring: stat, read (with and without --verify),
// remove, and the tree's mkdir and rmdir, at queue depth 1 and 8 with 1 and 2 threads.
// tests/tools/uring_syscalls.sh checks, with strace, that these go through io_uring_enter.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "mpiwrite/engines/uring_support.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/sys/layout_directories.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

using testing::TempDir;

constexpr std::uint64_t kFiles = 24;

#define SKIP_WITHOUT_URING()                                                     \
  if (const std::string reason = uring_unavailable_reason(                       \
          PhaseSet{Phase::TreeCreate, Phase::Stat, Phase::Read, Phase::Remove}); \
      !reason.empty()) {                                                         \
    GTEST_SKIP() << reason;                                                      \
  }

WriteOptions uring(unsigned threads, unsigned depth, bool verify = false) {
  WriteOptions o;
  o.engine = Engine::Uring;
  o.queue_depth = depth;
  o.threads = threads;
  o.pattern = parse_pattern("file{}.txt");
  o.text = "Hello, world!";
  o.lines = 10;  // 140 bytes
  o.mode = WriteMode::Whole;
  o.verify_reads = verify;
  return o;
}

// A writer with its target open on `dir`, which wrote kFiles files (0..kFiles-1) into it.
std::unique_ptr<Writer> written(const std::string& dir, const WriteOptions& o,
                                std::uint64_t files = kFiles) {
  auto writer = make_writer(o);
  writer->open_target(dir);
  StaticSource source(Progression{0, files, 1}, o.threads, Partition::Block);
  const SliceResult w = writer->write(source);
  EXPECT_FALSE(w.failure) << w.failure->message();
  EXPECT_EQ(w.files, files);
  return writer;
}

// Writer::run_tree with the directories it did as paths.
SliceResult run_tree_listing(Writer& writer, Phase phase,
                             const std::vector<std::vector<std::string>>& levels,
                             std::vector<std::string>& done) {
  TreeProgress progress;
  const SliceResult result = writer.run_tree(phase, levels, progress);
  done = progress.paths(levels);
  return result;
}

SliceResult run(Writer& writer, Phase phase, unsigned threads, std::uint64_t files = kFiles) {
  StaticSource source(Progression{0, files, 1}, threads, Partition::Block);
  return writer.run_files(phase, source);
}

std::size_t entries(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// Threads and queue depth.
class UringPhases : public ::testing::TestWithParam<std::tuple<unsigned, unsigned>> {};

TEST_P(UringPhases, StatReadAndRemoveEveryFileOnce) {
  SKIP_WITHOUT_URING();
  const auto [threads, depth] = GetParam();
  TempDir dir;
  const auto writer = written(dir.path(), uring(threads, depth));

  const SliceResult stat = run(*writer, Phase::Stat, threads);
  ASSERT_FALSE(stat.failure) << stat.failure->message();
  EXPECT_EQ(stat.files, kFiles);
  EXPECT_EQ(stat.latency.count(), kFiles);
  EXPECT_EQ(stat.operations[Operation::Stat].count(), kFiles);
  EXPECT_EQ(stat.operations[Operation::Create].count(), 0u);
  EXPECT_EQ(stat.created.files_taken(), 0u);  // only the write phase creates

  const SliceResult read = run(*writer, Phase::Read, threads);
  ASSERT_FALSE(read.failure) << read.failure->message();
  EXPECT_EQ(read.files, kFiles);
  EXPECT_EQ(read.bytes, kFiles * 140);
  EXPECT_EQ(read.latency.count(), kFiles);
  for (Operation op : {Operation::Open, Operation::Reads, Operation::Close}) {
    EXPECT_EQ(read.operations[op].count(), kFiles) << operation_name(op);
  }
  EXPECT_LE(read.operations.total_ns(), read.latency.total_ns());
  EXPECT_EQ(read.mismatches, 0u);  // not verified: nothing compared

  ASSERT_EQ(entries(dir.path()), kFiles);
  const SliceResult removed = run(*writer, Phase::Remove, threads);
  ASSERT_FALSE(removed.failure) << removed.failure->message();
  EXPECT_EQ(removed.files, kFiles);
  EXPECT_EQ(removed.latency.count(), kFiles);
  EXPECT_EQ(removed.operations[Operation::Unlink].count(), kFiles);
  EXPECT_EQ(entries(dir.path()), 0u);
  writer->close_target();
}

// --verify: every file compared with what was written; a changed one is a mismatch named in
// the problems, not a failure, and the phase reads on.
TEST_P(UringPhases, VerifiedReadsCountWrongFilesWithoutFailing) {
  SKIP_WITHOUT_URING();
  const auto [threads, depth] = GetParam();
  TempDir dir;
  const auto writer = written(dir.path(), uring(threads, depth, true));
  const SliceResult right = run(*writer, Phase::Read, threads);
  ASSERT_FALSE(right.failure) << right.failure->message();
  EXPECT_EQ(right.mismatches, 0u);
  EXPECT_TRUE(right.problems.empty());

  std::string changed = testing::read_file(dir / "file5.txt");
  changed[70] = 'X';  // same size, one byte off
  testing::write_text(dir / "file5.txt", changed);
  const SliceResult wrong = run(*writer, Phase::Read, threads);
  ASSERT_FALSE(wrong.failure) << wrong.failure->message();
  EXPECT_EQ(wrong.files, kFiles);
  EXPECT_EQ(wrong.mismatches, 1u);
  ASSERT_EQ(wrong.problems.size(), 1u);
  EXPECT_EQ(wrong.problems[0],
            dir.path() + "/file5.txt: content differs from what the write phase wrote");
  writer->close_target();
}

INSTANTIATE_TEST_SUITE_P(ThreadsAndDepths, UringPhases,
                         ::testing::Combine(::testing::Values(1u, 2u), ::testing::Values(1u, 8u)));

// A file shorter or longer than written, and one larger than the 1 MiB read buffer (read in
// several round trips, each piece compared), and files of no bytes.
TEST(UringRead, SizesAreCheckedAndLargeFilesReadPieceByPiece) {
  SKIP_WITHOUT_URING();
  TempDir dir;
  WriteOptions o = uring(1, 4, true);
  o.lines = 90'000;  // 1,260,000 bytes: two reads of data and one of the end
  const auto writer = written(dir.path(), o, 3);
  const SliceResult big = run(*writer, Phase::Read, 1, 3);
  ASSERT_FALSE(big.failure) << big.failure->message();
  EXPECT_EQ(big.files, 3u);
  EXPECT_EQ(big.bytes, 3u * 1'260'000u);
  EXPECT_EQ(big.mismatches, 0u);
  ASSERT_EQ(::truncate((dir / "file1.txt").c_str(), 1'000'000), 0);
  const SliceResult short_file = run(*writer, Phase::Read, 1, 3);
  EXPECT_EQ(short_file.mismatches, 1u);
  ASSERT_EQ(short_file.problems.size(), 1u);
  EXPECT_EQ(short_file.problems[0],
            dir.path() + "/file1.txt: read 1000000 bytes, expected 1260000");
  writer->close_target();

  TempDir small;
  const auto small_writer = written(small.path(), uring(2, 8, true));
  { std::ofstream(small / "file3.txt", std::ios::app) << "more"; }
  const SliceResult longer = run(*small_writer, Phase::Read, 2);
  EXPECT_EQ(longer.mismatches, 1u);
  ASSERT_EQ(longer.problems.size(), 1u);
  EXPECT_EQ(longer.problems[0], small.path() + "/file3.txt: read 144 bytes, expected 140");
  small_writer->close_target();

  TempDir empty;
  WriteOptions none = uring(1, 8, true);
  none.lines = 0;
  const auto empty_writer = written(empty.path(), none);
  const SliceResult zero = run(*empty_writer, Phase::Read, 1);
  ASSERT_FALSE(zero.failure) << zero.failure->message();
  EXPECT_EQ(zero.files, kFiles);
  EXPECT_EQ(zero.bytes, 0u);
  EXPECT_EQ(zero.mismatches, 0u);
  empty_writer->close_target();
}

// A file gone before its stat, read or remove: the failure names it and the operation, the
// phase ends (nothing left in flight), and what was done is counted.
TEST(UringFiles, AMissingFileIsTheFailureOfItsOperation) {
  SKIP_WITHOUT_URING();
  for (unsigned depth : {1u, 8u}) {
    TempDir dir;
    const auto writer = written(dir.path(), uring(1, depth));
    ASSERT_EQ(::unlink((dir / "file7.txt").c_str()), 0);
    for (const auto& [phase, operation] :
         {std::pair{Phase::Stat, "stat"}, std::pair{Phase::Read, "open"},
          std::pair{Phase::Remove, "unlink"}}) {
      const SliceResult r = run(*writer, phase, 1);
      ASSERT_TRUE(r.failure) << phase_name(phase);
      EXPECT_EQ(r.failure->message(),
                dir.path() + "/file7.txt: " + operation + ": No such file or directory");
      EXPECT_LT(r.files, kFiles);
      EXPECT_GE(r.files, 7u);        // the files before it, in order, at either depth
      if (phase == Phase::Remove) {  // the files after it that went are not counted
        EXPECT_EQ(r.files, 7u);
        EXPECT_GE(r.latency.count(), r.files);
      } else {
        EXPECT_EQ(r.latency.count(), r.files);
      }
    }
    writer->close_target();
  }
}

// Files in the layout's subdirectories: each item in its own directory's descriptor, and a
// failure names the file's directory.
TEST(UringFiles, TheLayoutSaysEachFilesDirectory) {
  SKIP_WITHOUT_URING();
  TempDir dir;
  const DirectoryLayout layout(LayoutSpec{Layout::Shared, 5, kFiles, Partition::Block, 1, 2});
  std::vector<std::string> made;
  make_layout_directories(dir.path(), layout.rank_directories(0), made);
  const WriteOptions o = uring(2, 8, true);
  auto writer = make_writer(o);
  writer->open_target(dir.path(), false, &layout);
  const Progression files{1, kFiles, 1};
  const auto run_all = [&](Phase phase) {
    StaticSource source(files, 2, Partition::Block);
    return phase == Phase::Write ? writer->write(source) : writer->run_files(phase, source);
  };
  for (Phase phase : {Phase::Write, Phase::Stat, Phase::Read}) {
    const SliceResult r = run_all(phase);
    ASSERT_FALSE(r.failure) << r.failure->message();
    EXPECT_EQ(r.files, kFiles) << phase_name(phase);
    EXPECT_EQ(r.mismatches, 0u);
  }
  const std::string gone = dir / layout.directory_of(17) + "/file17.txt";
  ASSERT_EQ(::unlink(gone.c_str()), 0);
  const SliceResult r = run_all(Phase::Remove);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->message(), gone + ": unlink: No such file or directory");
  EXPECT_GE(r.latency.count(), r.files);  // those removed after it are timed, not counted
  writer->close_target();
}

// An interrupt (SIGINT, SIGTERM) stops the phase before its next file, with nothing in flight.
TEST(UringFiles, AnInterruptStopsBeforeTheNextFile) {
  SKIP_WITHOUT_URING();
  TempDir dir;
  std::atomic<int> interrupt{0};
  WriteOptions o = uring(1, 8);
  o.interrupt = &interrupt;
  const auto writer = written(dir.path(), o);
  interrupt = 1;
  const SliceResult r = run(*writer, Phase::Remove, 1);
  EXPECT_FALSE(r.failure);
  EXPECT_EQ(r.files, 0u);
  EXPECT_EQ(entries(dir.path()), kFiles);
  interrupt = 0;
  EXPECT_EQ(run(*writer, Phase::Remove, 1).files, kFiles);  // the ring is as it was
  writer->close_target();
}

// A read that fails after its open (a directory put at a file's name opens, and its read
// fails): the failure of the read; its chain still closed the slot, and the phase ends.
TEST(UringFiles, AFailedReadIsTheFailureOfTheRead) {
  SKIP_WITHOUT_URING();
  for (unsigned depth : {1u, 8u}) {
    TempDir dir;
    const auto writer = written(dir.path(), uring(1, depth, true));
    ASSERT_EQ(::unlink((dir / "file4.txt").c_str()), 0);
    ASSERT_EQ(::mkdir((dir / "file4.txt").c_str(), 0755), 0);
    const SliceResult r = run(*writer, Phase::Read, 1);
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->message(), dir.path() + "/file4.txt: read: Is a directory");
    EXPECT_EQ(r.mismatches, 0u);  // a failure, not a wrong file
    ASSERT_EQ(::rmdir((dir / "file4.txt").c_str()), 0);
    testing::write_text(dir / "file4.txt", std::string(140, 'x'));
    const SliceResult again = run(*writer, Phase::Read, 1);
    ASSERT_FALSE(again.failure) << again.failure->message();
    EXPECT_EQ(again.files, kFiles);
    EXPECT_EQ(again.mismatches, 1u);
    writer->close_target();
  }
}

// With 8 files in flight, those after a file that cannot be removed may still go: they are
// not counted, so what the count says was removed is a prefix of what the thread took, and
// the one that failed stays.
TEST(UringFiles, WhatIsRemovedIsCountedAsAPrefix) {
  SKIP_WITHOUT_URING();
  TempDir dir;
  const auto writer = written(dir.path(), uring(1, 8));
  ASSERT_EQ(::unlink((dir / "file5.txt").c_str()), 0);
  ASSERT_EQ(::mkdir((dir / "file5.txt").c_str(), 0755), 0);  // unlinkat without AT_REMOVEDIR
  const SliceResult r = run(*writer, Phase::Remove, 1);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->message(), dir.path() + "/file5.txt: unlink: Is a directory");
  EXPECT_EQ(r.files, 5u);  // file0 .. file4
  for (int i = 0; i < 5; ++i) {
    EXPECT_FALSE(std::filesystem::exists(dir / ("file" + std::to_string(i) + ".txt"))) << i;
  }
  EXPECT_TRUE(std::filesystem::is_directory(dir / "file5.txt"));
  EXPECT_TRUE(std::filesystem::exists(dir / "file23.txt"));  // never taken
  writer->close_target();
}

// A symbolic link put at a file's name is not followed by the read.
TEST(UringFiles, AReadDoesNotFollowALink) {
  SKIP_WITHOUT_URING();
  TempDir dir, outside;
  const auto writer = written(dir.path(), uring(1, 4));
  testing::write_text(outside / "secret", "not yours");
  ASSERT_EQ(::unlink((dir / "file2.txt").c_str()), 0);
  ASSERT_EQ(::symlink((outside / "secret").c_str(), (dir / "file2.txt").c_str()), 0);
  const SliceResult r = run(*writer, Phase::Read, 1);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->message(),
            dir.path() + "/file2.txt: open: Too many levels of symbolic links");
  writer->close_target();
}

// A phase the files loop is not for is a named failure.
TEST(UringFiles, TheWritePhaseIsNotAFilesPhase) {
  SKIP_WITHOUT_URING();
  TempDir dir;
  const auto writer = written(dir.path(), uring(1, 2));
  const SliceResult r = run(*writer, Phase::Write, 1);
  ASSERT_TRUE(r.failure);
  EXPECT_NE(r.failure->message().find("the write phase has no loop in run_files"), std::string::npos);
  writer->close_target();
}

// A 3-level tree of two branches: a, b; a/0, a/1, b/0, b/1; a/0/0 ... b/1/1.
std::vector<std::vector<std::string>> tree_levels() {
  std::vector<std::vector<std::string>> levels(3);
  for (const char* top : {"a", "b"}) {
    levels[0].push_back(top);
    for (int i = 0; i < 2; ++i) {
      const std::string mid = std::string(top) + "/" + std::to_string(i);
      levels[1].push_back(mid);
      for (int j = 0; j < 2; ++j) levels[2].push_back(mid + "/" + std::to_string(j));
    }
  }
  return levels;
}

class UringTree : public ::testing::TestWithParam<std::tuple<unsigned, unsigned>> {};

TEST_P(UringTree, MakesThenRemovesEveryDirectoryOnce) {
  SKIP_WITHOUT_URING();
  const auto [threads, depth] = GetParam();
  TempDir dir;
  auto writer = make_writer(uring(threads, depth));
  writer->open_target(dir.path());
  const auto levels = tree_levels();
  std::vector<std::string> made;
  const SliceResult create = run_tree_listing(*writer, Phase::TreeCreate, levels, made);
  ASSERT_FALSE(create.failure) << create.failure->message();
  EXPECT_EQ(create.files, 14u);
  EXPECT_EQ(create.latency.count(), 14u);
  EXPECT_EQ(create.operations[Operation::Mkdir].count(), 14u);
  EXPECT_EQ(made.size(), 14u);
  EXPECT_EQ(std::set<std::string>(made.begin(), made.end()).size(), 14u);
  for (const auto& level : levels) {
    for (const std::string& d : level) EXPECT_TRUE(std::filesystem::is_directory(dir / d)) << d;
  }
  std::vector<std::string> removed;
  const SliceResult remove = run_tree_listing(*writer, Phase::TreeRemove, levels, removed);
  ASSERT_FALSE(remove.failure) << remove.failure->message();
  EXPECT_EQ(remove.files, 14u);
  EXPECT_EQ(remove.operations[Operation::Rmdir].count(), 14u);
  EXPECT_EQ(removed.size(), 14u);
  EXPECT_EQ(entries(dir.path()), 0u);
  writer->close_target();
}

INSTANTIATE_TEST_SUITE_P(ThreadsAndDepths, UringTree,
                         ::testing::Combine(::testing::Values(1u, 2u), ::testing::Values(1u, 8u)));

// A leaf that holds a file cannot be removed: named, with its parents kept.
TEST(UringTreeFailures, ALeafThatHoldsAFileIsNotRemoved) {
  SKIP_WITHOUT_URING();
  TempDir dir;
  auto writer = make_writer(uring(1, 8));
  writer->open_target(dir.path());
  const auto levels = tree_levels();
  std::vector<std::string> made, removed;
  ASSERT_FALSE(run_tree_listing(*writer, Phase::TreeCreate, levels, made).failure);
  testing::write_text(dir / "b/0/1/planted", "x");
  const SliceResult r = run_tree_listing(*writer, Phase::TreeRemove, levels, removed);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->message(), dir.path() + "/b/0/1: rmdir: Directory not empty");
  EXPECT_TRUE(std::filesystem::exists(dir / "b/0/1/planted"));
  // What was removed is what `removed` says, a prefix of the deepest level's block.
  for (const std::string& d : removed) EXPECT_FALSE(std::filesystem::exists(dir / d)) << d;
  writer->close_target();
}

// A symbolic link put in place of a parent is never followed out of the run directory.
TEST(UringTreeFailures, ALinkInPlaceOfAParentIsNotFollowed) {
  SKIP_WITHOUT_URING();
  TempDir dir, outside;
  auto writer = make_writer(uring(1, 8));
  writer->open_target(dir.path());
  ASSERT_EQ(::mkdir((dir / "a").c_str(), 0755), 0);
  ASSERT_EQ(::symlink(outside.path().c_str(), (dir / "b").c_str()), 0);
  std::vector<std::string> made;
  const SliceResult r =
      run_tree_listing(*writer, Phase::TreeCreate, {{"a/0", "b/0", "b/1"}}, made);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->message(), dir.path() + "/b/0: mkdir: Not a directory");
  EXPECT_EQ(made, std::vector<std::string>{"a/0"});
  EXPECT_EQ(entries(outside.path()), 0u);
  writer->close_target();
}

// With 8 directories in flight, those after a failed one may still be made: they are removed
// again, so that what is on disk is exactly what `made` says (and the count agrees).
TEST(UringTreeFailures, WhatIsMadeIsAPrefixOfTheBlock) {
  SKIP_WITHOUT_URING();
  TempDir dir;
  auto writer = make_writer(uring(1, 8));
  writer->open_target(dir.path());
  std::vector<std::string> level;
  for (int i = 0; i < 12; ++i) level.push_back("d" + std::to_string(i));
  ASSERT_EQ(::mkdir((dir / "d3").c_str(), 0755), 0);  // taken: its mkdir fails
  std::vector<std::string> made;
  const SliceResult r = run_tree_listing(*writer, Phase::TreeCreate, {level}, made);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->message(), dir.path() + "/d3: mkdir: File exists");
  EXPECT_EQ(made, (std::vector<std::string>{"d0", "d1", "d2"}));
  EXPECT_EQ(r.files, 3u);
  EXPECT_EQ(entries(dir.path()), 4u);  // d0-d2 and the one put there
  writer->close_target();
}

}  // namespace
}  // namespace mpiwrite
