// The posix and null engines' other phases through the rank's writer (Writer::run_files,
// run_tree) on real files: stat, read (with and without --verify's comparison) and remove of
// files the same writer wrote, and a directory tree made and removed, at 1 and 3 threads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpiwrite/engines/writer.hpp"
#include "temp_dir.hpp"

namespace mpiwrite {
namespace {

using testing::TempDir;

constexpr std::uint64_t kFiles = 20;

WriteOptions options(unsigned threads, Engine engine = Engine::Posix) {
  WriteOptions o;
  o.engine = engine;
  o.pattern = parse_pattern("write{}.txt");
  o.lines = 100;
  o.text = "Hello, world!";  // 1400 bytes a file
  o.mode = WriteMode::Whole;
  o.threads = threads;
  return o;
}

std::string file(const TempDir& dir, std::uint64_t index) {
  return dir / ("write" + std::to_string(index) + ".txt");
}

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir),
                                                std::filesystem::directory_iterator()));
}

// The counts each phase must show: every item in the per-item histogram and in each of its
// operations' (and in no other operation's), the operations' time within the items'.
void expect_counts(const SliceResult& r, Phase phase, std::uint64_t items) {
  EXPECT_EQ(r.files, items) << phase_name(phase);
  EXPECT_EQ(r.latency.count(), items) << phase_name(phase);
  const auto own = operations_of(phase);
  for (std::size_t op = 0; op < kOperations; ++op) {
    const auto operation = static_cast<Operation>(op);
    const bool mine = std::find(own.begin(), own.end(), operation) != own.end();
    EXPECT_EQ(r.operations[operation].count(), mine ? items : 0u)
        << phase_name(phase) << " " << operation_name(operation);
  }
  EXPECT_LE(r.operations.total_ns(), r.latency.total_ns());
  // A phase of one call per item: that call's histogram is the items' histogram, value for
  // value (the engine records the latency and copies it once).
  if (own.size() == 1) {
    const LatencyHistogram& op = r.operations[own.front()];
    EXPECT_EQ(op.total_ns(), r.latency.total_ns()) << phase_name(phase);
    EXPECT_EQ(op.max_ns(), r.latency.max_ns()) << phase_name(phase);
    EXPECT_EQ(op.percentile_ns(0.5), r.latency.percentile_ns(0.5)) << phase_name(phase);
  }
}

SliceResult run_phase(Writer& writer, Phase phase, const std::string& dir, unsigned threads,
                      std::uint64_t files = kFiles) {
  writer.open_target(dir);
  StaticSource source(Progression{1, files, 1}, threads, Partition::Block);
  SliceResult result = writer.run_files(phase, source);
  writer.close_target();
  return result;
}

// Writes kFiles files into `dir` with a writer of its own.
void write_files(const std::string& dir, unsigned threads, std::uint64_t files = kFiles,
                 std::uint64_t lines = 100) {
  WriteOptions o = options(threads);
  o.lines = lines;
  const auto writer = make_writer(o);
  writer->open_target(dir);
  StaticSource source(Progression{1, files, 1}, threads, Partition::Block);
  const SliceResult written = writer->write(source);
  writer->close_target();
  ASSERT_FALSE(written.failure) << written.failure->message();
  ASSERT_EQ(written.files, files);
}

SliceResult run_tree(Writer& writer, Phase phase, const std::string& dir,
                     const std::vector<std::vector<std::string>>& levels,
                     std::vector<std::string>& done);

class FilePhases : public ::testing::TestWithParam<unsigned> {};

// stat, read, read with --verify's comparison and remove, each over every file once.
TEST_P(FilePhases, StatReadAndRemoveEveryFileOnce) {
  const unsigned threads = GetParam();
  TempDir dir;
  write_files(dir.path(), threads);
  const auto writer = make_writer(options(threads));

  const SliceResult stat = run_phase(*writer, Phase::Stat, dir.path(), threads);
  ASSERT_FALSE(stat.failure) << stat.failure->message();
  expect_counts(stat, Phase::Stat, kFiles);
  EXPECT_EQ(stat.bytes, 0u);

  const SliceResult read = run_phase(*writer, Phase::Read, dir.path(), threads);
  ASSERT_FALSE(read.failure) << read.failure->message();
  expect_counts(read, Phase::Read, kFiles);
  EXPECT_EQ(read.bytes, kFiles * 1400);
  EXPECT_EQ(read.mismatches, 0u);

  WriteOptions verifying = options(threads);
  verifying.verify_reads = true;
  const SliceResult checked = run_phase(*make_writer(verifying), Phase::Read, dir.path(), threads);
  ASSERT_FALSE(checked.failure) << checked.failure->message();
  expect_counts(checked, Phase::Read, kFiles);
  EXPECT_EQ(checked.mismatches, 0u);
  EXPECT_TRUE(checked.problems.empty());

  EXPECT_EQ(writer->files_done(), kFiles);  // --progress's counters, published per file

  // --random-order's source: the files shuffled into lists of single files per thread.
  writer->open_target(dir.path());
  PartsSource shuffled(shuffled_parts({Progression{1, kFiles, 1}}, threads, 7));
  const SliceResult random = writer->run_files(Phase::Stat, shuffled);
  writer->close_target();
  ASSERT_FALSE(random.failure) << random.failure->message();
  expect_counts(random, Phase::Stat, kFiles);

  const SliceResult removed = run_phase(*writer, Phase::Remove, dir.path(), threads);
  ASSERT_FALSE(removed.failure) << removed.failure->message();
  expect_counts(removed, Phase::Remove, kFiles);
  EXPECT_EQ(removed.created.files_taken(), 0u);
  EXPECT_EQ(entries(dir.path()), 0u);
}

// A file whose content is not what was written is counted and named, and the phase reads on:
// not a failure. Without --verify nothing is compared.
TEST_P(FilePhases, AWrongFileIsAMismatchNamedNotAFailure) {
  const unsigned threads = GetParam();
  TempDir dir;
  write_files(dir.path(), threads);
  {
    std::fstream f(file(dir, 7), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(30);
    f.put('X');
  }
  WriteOptions o = options(threads);
  o.verify_reads = true;
  const SliceResult read = run_phase(*make_writer(o), Phase::Read, dir.path(), threads);
  ASSERT_FALSE(read.failure) << read.failure->message();
  expect_counts(read, Phase::Read, kFiles);
  EXPECT_EQ(read.mismatches, 1u);
  EXPECT_EQ(read.problems, std::vector<std::string>{file(dir, 7) + ": content differs at byte 30"});

  const SliceResult unchecked =
      run_phase(*make_writer(options(threads)), Phase::Read, dir.path(), threads);
  EXPECT_EQ(unchecked.mismatches, 0u);
}

INSTANTIATE_TEST_SUITE_P(Threads, FilePhases, ::testing::Values(1u, 3u));

// A file shorter or longer than written, and a wrong byte past the first read (a file over the
// 1 MiB read buffer is read in several pieces, each compared at its offset); the first three
// wrong files are described, every one counted.
TEST(ReadPhase, WrongSizesAndALateWrongByteAreDescribed) {
  TempDir dir;
  const std::uint64_t lines = 80'000;  // 1,120,000 bytes: two reads of the 1 MiB buffer
  const std::uint64_t bytes = 14 * lines;
  write_files(dir.path(), 1, 5, lines);
  ASSERT_EQ(::truncate(file(dir, 1).c_str(), 100), 0);
  { std::ofstream(file(dir, 2), std::ios::app) << "Hello"; }  // longer, and right so far
  {
    std::fstream f(file(dir, 3), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(1'100'000);
    f.put('X');
  }
  ASSERT_EQ(::truncate(file(dir, 5).c_str(), 0), 0);
  WriteOptions o = options(1);
  o.lines = lines;
  o.verify_reads = true;
  const SliceResult read = run_phase(*make_writer(o), Phase::Read, dir.path(), 1, 5);
  ASSERT_FALSE(read.failure) << read.failure->message();
  expect_counts(read, Phase::Read, 5);
  EXPECT_EQ(read.bytes, 100 + (bytes + 5) + bytes + bytes + 0);
  EXPECT_EQ(read.mismatches, 4u);
  EXPECT_EQ(read.problems, (std::vector<std::string>{
                               file(dir, 1) + ": read 100 bytes, expected " + std::to_string(bytes),
                               file(dir, 2) + ": read " + std::to_string(bytes + 5) +
                                   " bytes, expected " + std::to_string(bytes),
                               file(dir, 3) + ": content differs at byte 1100000"}));
}

// A file gone before the phase is the phase's failure, named with its operation and errno; the
// files before it (one thread: in order) count.
TEST(FilePhaseFailures, AMissingFileFailsEachPhaseByName) {
  TempDir dir;
  write_files(dir.path(), 1);
  std::filesystem::remove(file(dir, 4));
  const auto writer = make_writer(options(1));
  const struct {
    Phase phase;
    const char* operation;
  } cases[] = {{Phase::Stat, "stat"}, {Phase::Read, "open"}, {Phase::Remove, "unlink"}};
  for (const auto& c : cases) {
    const SliceResult r = run_phase(*writer, c.phase, dir.path(), 1);
    ASSERT_TRUE(r.failure) << phase_name(c.phase);
    EXPECT_EQ(r.failure->message(),
              file(dir, 4) + ": " + c.operation + ": No such file or directory");
    EXPECT_EQ(r.failure->errno_value, ENOENT);
    expect_counts(r, c.phase, 3);
  }
  EXPECT_EQ(entries(dir.path()), kFiles - 4);  // the remove took 1-3, stopped at 4
}

// A directory put at a file's name: the read-only open succeeds, and the read is the failure
// (EISDIR); remove's unlink refuses it (EISDIR) and never removes a directory.
TEST(FilePhaseFailures, ADirectoryAtAFileNameFailsTheReadAndTheUnlink) {
  TempDir dir;
  write_files(dir.path(), 1, 2);
  std::filesystem::remove(file(dir, 2));
  std::filesystem::create_directory(file(dir, 2));
  const auto writer = make_writer(options(1));
  const SliceResult read = run_phase(*writer, Phase::Read, dir.path(), 1, 2);
  ASSERT_TRUE(read.failure);
  EXPECT_EQ(read.failure->message(), file(dir, 2) + ": read: Is a directory");
  expect_counts(read, Phase::Read, 1);
  const SliceResult removed = run_phase(*writer, Phase::Remove, dir.path(), 1, 2);
  ASSERT_TRUE(removed.failure);
  EXPECT_EQ(removed.failure->message(), file(dir, 2) + ": unlink: Is a directory");
  EXPECT_TRUE(std::filesystem::is_directory(file(dir, 2)));
}

// An interrupt (SIGINT, SIGTERM) stops every phase before its next item, without a failure.
TEST(FilePhaseFailures, AnInterruptStopsBeforeTheNextItem) {
  TempDir dir;
  write_files(dir.path(), 1, 3);
  std::atomic<int> interrupt{SIGTERM};
  WriteOptions o = options(2);
  o.interrupt = &interrupt;
  const auto writer = make_writer(o);
  for (Phase phase : {Phase::Stat, Phase::Read, Phase::Remove}) {
    const SliceResult r = run_phase(*writer, phase, dir.path(), 2, 3);
    EXPECT_FALSE(r.failure) << phase_name(phase);
    EXPECT_EQ(r.files, 0u) << phase_name(phase);
  }
  std::vector<std::string> done;
  const SliceResult tree = run_tree(*writer, Phase::TreeCreate, dir.path(), {{"t0"}}, done);
  EXPECT_FALSE(tree.failure);
  EXPECT_EQ(tree.files, 0u);
  EXPECT_TRUE(done.empty());
  EXPECT_EQ(entries(dir.path()), 3u);  // nothing removed, nothing made
}

// A symbolic link put at a file's name is not read through (to a file outside the run).
TEST(FilePhaseFailures, ALinkAtAFileNameIsNotFollowed) {
  TempDir dir, outside;
  write_files(dir.path(), 1, 2);
  testing::write_text(outside / "secret", "secret");
  std::filesystem::remove(file(dir, 2));
  std::filesystem::create_symlink(outside / "secret", file(dir, 2));
  const SliceResult read = run_phase(*make_writer(options(1)), Phase::Read, dir.path(), 1, 2);
  ASSERT_TRUE(read.failure);
  EXPECT_EQ(read.failure->path, file(dir, 2));
  EXPECT_EQ(read.failure->operation, "open");
  EXPECT_EQ(read.failure->errno_value, ELOOP);
  EXPECT_EQ(read.bytes, 1400u);  // file 1 only
}

// A tree of 3 levels, 2 branches: 2 + 4 + 8 directories.
std::vector<std::vector<std::string>> tree_levels() {
  std::vector<std::vector<std::string>> levels{{"t0", "t1"}};
  for (int depth = 1; depth < 3; ++depth) {
    std::vector<std::string> next;
    for (const std::string& parent : levels.back()) {
      for (int b = 0; b < 2; ++b) next.push_back(parent + "/t" + std::to_string(b));
    }
    levels.push_back(next);
  }
  return levels;
}

std::set<std::string> all_of(const std::vector<std::vector<std::string>>& levels) {
  std::set<std::string> all;
  for (const auto& level : levels) all.insert(level.begin(), level.end());
  return all;
}

SliceResult run_tree(Writer& writer, Phase phase, const std::string& dir,
                     const std::vector<std::vector<std::string>>& levels,
                     std::vector<std::string>& done) {
  writer.open_target(dir);
  TreeProgress progress;
  SliceResult result = writer.run_tree(phase, levels, progress);
  writer.close_target();
  done = progress.paths(levels);
  EXPECT_EQ(progress.directories(), result.files);
  return result;
}

class TreePhases : public ::testing::TestWithParam<unsigned> {};

TEST_P(TreePhases, EveryDirectoryMadeOnceThenRemoved) {
  const unsigned threads = GetParam();
  TempDir dir;
  const auto levels = tree_levels();
  const auto writer = make_writer(options(threads));
  std::vector<std::string> made;
  const SliceResult create = run_tree(*writer, Phase::TreeCreate, dir.path(), levels, made);
  ASSERT_FALSE(create.failure) << create.failure->message();
  expect_counts(create, Phase::TreeCreate, 14);
  EXPECT_EQ(made.size(), 14u);
  EXPECT_EQ(std::set<std::string>(made.begin(), made.end()), all_of(levels));
  for (const std::string& d : made) EXPECT_TRUE(std::filesystem::is_directory(dir / d)) << d;
  EXPECT_EQ(entries(dir.path()), 2u);

  std::vector<std::string> removed;
  const SliceResult remove = run_tree(*writer, Phase::TreeRemove, dir.path(), levels, removed);
  ASSERT_FALSE(remove.failure) << remove.failure->message();
  expect_counts(remove, Phase::TreeRemove, 14);
  EXPECT_EQ(std::set<std::string>(removed.begin(), removed.end()), all_of(levels));
  EXPECT_EQ(removed.size(), 14u);
  EXPECT_EQ(entries(dir.path()), 0u);
}

// A leaf that holds something not the tree's is never emptied: its rmdir fails, named, and it
// stays with its parents.
TEST_P(TreePhases, AFileInALeafFailsItsRmdirByName) {
  const unsigned threads = GetParam();
  TempDir dir;
  const auto levels = tree_levels();
  const auto writer = make_writer(options(threads));
  std::vector<std::string> made;
  ASSERT_FALSE(run_tree(*writer, Phase::TreeCreate, dir.path(), levels, made).failure);
  testing::write_text(dir / "t1/t0/t1/planted", "not the run's");
  std::vector<std::string> removed;
  const SliceResult remove = run_tree(*writer, Phase::TreeRemove, dir.path(), levels, removed);
  ASSERT_TRUE(remove.failure);
  EXPECT_EQ(remove.failure->message(), dir / "t1/t0/t1" + ": rmdir: Directory not empty");
  EXPECT_EQ(remove.failure->errno_value, ENOTEMPTY);
  EXPECT_EQ(remove.files, removed.size());
  EXPECT_EQ(std::count(removed.begin(), removed.end(), "t1/t0/t1"), 0);
  EXPECT_EQ(testing::read_file(dir / "t1/t0/t1/planted"), "not the run's");
}

// A poll that throws in a tree phase (an MPI error in --progress's rounds) stops the threads
// and reaches the caller once they have stopped; what they made is still recorded, every
// directory on disk and no other (the ledger removes what the run made, and only that).
TEST_P(TreePhases, APollThatThrowsStopsTheTreeAndKeepsWhatWasMade) {
  const unsigned threads = GetParam();
  TempDir dir;
  std::vector<std::vector<std::string>> levels{{"t0", "t1"}};
  for (int depth = 1; depth < 4; ++depth) {  // 2 + 20 + 200 + 2000 directories
    std::vector<std::string> next;
    for (const std::string& parent : levels.back()) {
      for (int b = 0; b < 10; ++b) next.push_back(parent + "/t" + std::to_string(b));
    }
    levels.push_back(next);
  }
  const auto writer = make_writer(options(threads));
  writer->open_target(dir.path());
  TreeProgress done;
  EXPECT_THROW(
      writer->run_tree(
          Phase::TreeCreate, levels, done,
          []() -> std::chrono::microseconds { throw std::runtime_error("MPI_Iprobe failed"); },
          std::chrono::microseconds(1)),
      std::runtime_error);
  writer->close_target();
  EXPECT_FALSE(writer->finished_at()) << "a phase that threw has no end of its own";
  const std::vector<std::string> made = done.paths(levels);
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
    on_disk.insert(std::filesystem::relative(entry.path(), dir.path()).string());
  }
  EXPECT_EQ(std::set<std::string>(made.begin(), made.end()), on_disk);
  EXPECT_EQ(made.size(), on_disk.size());
}

INSTANTIATE_TEST_SUITE_P(Threads, TreePhases, ::testing::Values(1u, 3u));

// A symbolic link where a tree path goes, to a directory outside the run directory: nothing
// is made or removed through it, on the way (a parent) or at the end (the directory itself).
TEST(TreePhaseFailures, ALinkOnATreePathIsNeverFollowed) {
  TempDir dir, outside;
  std::filesystem::create_directory(outside / "kept");
  std::filesystem::create_directory_symlink(outside.path(), dir / "t0");
  const auto writer = make_writer(options(1));
  std::vector<std::string> done;
  const SliceResult create = run_tree(*writer, Phase::TreeCreate, dir.path(), {{"t0/made"}}, done);
  ASSERT_TRUE(create.failure);
  EXPECT_EQ(create.failure->path, dir / "t0/made");
  EXPECT_EQ(create.failure->operation, "mkdir");
  EXPECT_TRUE(done.empty());
  EXPECT_FALSE(std::filesystem::exists(outside / "made"));

  const SliceResult through = run_tree(*writer, Phase::TreeRemove, dir.path(), {{"t0/kept"}}, done);
  ASSERT_TRUE(through.failure);
  EXPECT_EQ(through.failure->operation, "rmdir");
  const SliceResult itself = run_tree(*writer, Phase::TreeRemove, dir.path(), {{"t0"}}, done);
  ASSERT_TRUE(itself.failure);
  EXPECT_EQ(itself.failure->errno_value, ENOTDIR);
  EXPECT_TRUE(done.empty());
  EXPECT_TRUE(std::filesystem::is_directory(outside / "kept"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "t0"));
}

// The null engine: the counts and histograms of every phase, nothing on disk (it opens no
// directory: the run directory is not even looked at).
TEST(NullEnginePhases, CountsEveryItemAndTouchesNothing) {
  TempDir dir;
  const auto writer = make_writer(options(3, Engine::Null));
  for (Phase phase : {Phase::Stat, Phase::Read, Phase::Remove}) {
    const SliceResult r = run_phase(*writer, phase, dir / "never-made", 3);
    ASSERT_FALSE(r.failure) << r.failure->message();
    expect_counts(r, phase, kFiles);
    EXPECT_EQ(r.bytes, phase == Phase::Read ? kFiles * 1400 : 0u);
  }
  const auto levels = tree_levels();
  for (Phase phase : {Phase::TreeCreate, Phase::TreeRemove}) {
    std::vector<std::string> done;
    const SliceResult r = run_tree(*writer, phase, dir / "never-made", levels, done);
    ASSERT_FALSE(r.failure) << r.failure->message();
    expect_counts(r, phase, 14);
    EXPECT_EQ(std::set<std::string>(done.begin(), done.end()), all_of(levels));
  }
  EXPECT_EQ(entries(dir.path()), 0u);
}

}  // namespace
}  // namespace mpiwrite
