#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/system_facts.hpp"
#include "temp_dir.hpp"
#include "uring_skip.hpp"

namespace mpiwrite {
namespace {

using testing::TempDir;

std::string repeated(const std::string& line, int times) {
  std::string all;
  for (int i = 0; i < times; ++i) all += line;
  return all;
}

WriteOptions options(unsigned threads, WriteMode mode, Engine engine = Engine::Posix,
                     unsigned queue_depth = 1) {
  WriteOptions o;
  o.engine = engine;
  o.queue_depth = queue_depth;
  o.pattern = parse_pattern("write{}.txt");
  o.lines = 100;
  o.text = "Hello, world!";
  o.mode = mode;
  o.threads = threads;
  return o;
}

// Every operation's histogram counts the files that count (fsync's only with --fsync), and
// their summed time is at most the files' summed latency (docs/metrics.md).
void expect_operations_add_up(const SliceResult& r, bool fsync) {
  EXPECT_EQ(r.latency.count(), r.files);
  EXPECT_EQ(r.operations[Operation::Create].count(), r.files);
  EXPECT_EQ(r.operations[Operation::Writes].count(), r.files);
  EXPECT_EQ(r.operations[Operation::Fsync].count(), fsync ? r.files : 0u);
  EXPECT_EQ(r.operations[Operation::Close].count(), r.files);
  EXPECT_LE(r.operations.total_ns(), r.latency.total_ns());
}

SliceResult write_into(const std::string& dir, const WriteOptions& o, const Progression& slice) {
  const auto writer = make_writer(o);
  writer->open_target(dir);
  StaticSource source(slice, o.threads, Partition::Block);
  SliceResult result = writer->write(source);
  writer->close_target();
  return result;
}

// A writer's phase ends when its last thread finished (Writer::finished_at): empty before its
// first phase, then within each phase's call, from the write to the stat of the same files.
TEST(Writers, SayWhenTheirLastPhaseEnded) {
  using Clock = std::chrono::steady_clock;
  TempDir dir;
  const WriteOptions o = options(2, WriteMode::Whole);
  const auto writer = make_writer(o);
  EXPECT_FALSE(writer->finished_at());
  writer->open_target(dir.path());
  EXPECT_FALSE(writer->finished_at()) << "opening the target is no phase";
  StaticSource source(Progression{1, 10, 1}, 2, Partition::Block);
  const Clock::time_point before_write = Clock::now();
  const SliceResult written = writer->write(source);
  const Clock::time_point after_write = Clock::now();
  ASSERT_FALSE(written.failure);
  ASSERT_TRUE(writer->finished_at());
  EXPECT_GE(*writer->finished_at(), before_write);
  EXPECT_LE(*writer->finished_at(), after_write);
  StaticSource again(Progression{1, 10, 1}, 2, Partition::Block);
  const SliceResult stated = writer->run_files(Phase::Stat, again);
  ASSERT_FALSE(stated.failure);
  EXPECT_EQ(stated.files, 10u);
  ASSERT_TRUE(writer->finished_at());
  EXPECT_GE(*writer->finished_at(), after_write);
  EXPECT_LE(*writer->finished_at(), Clock::now());
  writer->close_target();
}

// Threads, write mode, and the uring engine's queue depth (0: the posix engine).
class WritersWrite : public ::testing::TestWithParam<std::tuple<unsigned, WriteMode, unsigned>> {};

TEST_P(WritersWrite, ExactlyTheSliceWithExactContent) {
  const auto [threads, mode, depth] = GetParam();
  if (depth != 0) MPIWRITE_SKIP_WITHOUT_URING();
  TempDir dir;
  const Progression slice{5, 20, 3};  // 5, 8, ..., 62
  const WriteOptions o =
      depth == 0 ? options(threads, mode) : options(threads, mode, Engine::Uring, depth);
  const SliceResult result = write_into(dir.path(), o, slice);
  ASSERT_FALSE(result.failure) << result.failure->message();
  EXPECT_EQ(result.files, 20u);
  EXPECT_EQ(result.bytes, 20u * 1400u);
  EXPECT_EQ(result.latency.count(), 20u);
  expect_operations_add_up(result, false);
  const std::string expected = repeated("Hello, world!\n", 100);
  std::size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++entries;
    EXPECT_EQ(testing::read_file(entry.path()), expected) << entry.path();
  }
  EXPECT_EQ(entries, 20u);
  for (std::uint64_t i = 0; i < slice.count; ++i) {
    EXPECT_TRUE(std::filesystem::exists(dir / ("write" + std::to_string(slice.at(i)) + ".txt")));
  }
}

INSTANTIATE_TEST_SUITE_P(ThreadsAndModes, WritersWrite,
                         ::testing::Combine(::testing::Values(1u, 3u, 8u),
                                            ::testing::Values(WriteMode::Line, WriteMode::Whole),
                                            ::testing::Values(0u, 1u, 7u, 64u)));

// The uring engine on files longer than one linked chain (256 operations): the file
// continues in further chains from the offset the kernel confirmed.
TEST(UringWriter, FilesLongerThanOneChainAreComplete) {
  MPIWRITE_SKIP_WITHOUT_URING();
  TempDir dir;
  WriteOptions o = options(2, WriteMode::Line, Engine::Uring, 3);
  o.lines = 700;
  o.fsync = true;
  const SliceResult result = write_into(dir.path(), o, Progression{1, 9, 1});
  ASSERT_FALSE(result.failure) << result.failure->message();
  EXPECT_EQ(result.files, 9u);
  expect_operations_add_up(result, true);  // 3 chains a file: still one writes span each
  for (int i = 1; i <= 9; ++i) {
    EXPECT_EQ(testing::read_file(dir / ("write" + std::to_string(i) + ".txt")),
              repeated("Hello, world!\n", 700));
  }
}

// As with posix: an existing name is never clobbered, never counted, never removed, and
// the failure names the path and the open.
TEST(UringWriter, AnExistingFileStopsTheRunAndIsLeftAlone) {
  MPIWRITE_SKIP_WITHOUT_URING();
  TempDir dir;
  { std::ofstream(dir / "write4.txt") << "precious"; }
  const SliceResult result =
      write_into(dir.path(), options(1, WriteMode::Whole, Engine::Uring, 1), Progression{1, 8, 1});
  ASSERT_TRUE(result.failure);
  EXPECT_EQ(result.failure->operation, "open");
  EXPECT_EQ(result.failure->errno_value, EEXIST);
  EXPECT_EQ(result.files, 3u);              // queue depth 1: files 1-3 before it, none after
  expect_operations_add_up(result, false);  // the refused open recorded nothing
  EXPECT_EQ(testing::read_file(dir / "write4.txt"), "precious");
  EXPECT_FALSE(std::filesystem::exists(dir / "write5.txt"));
}

// A write that fails (here: the file-size limit, EFBIG) leaves no incomplete file behind.
TEST(UringWriter, AFailedWriteRemovesItsIncompleteFile) {
  MPIWRITE_SKIP_WITHOUT_URING();
  TempDir dir;
  WriteOptions o = options(1, WriteMode::Line, Engine::Uring, 4);
  o.lines = 400;  // 5600 B per file, over the 4096 B limit below
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  ::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
  rlimit small = old;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const SliceResult result = write_into(dir.path(), o, Progression{1, 6, 1});
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, SIG_DFL);
  ASSERT_TRUE(result.failure);
  EXPECT_EQ(result.failure->operation, "write");
  EXPECT_EQ(result.failure->errno_value, EFBIG);
  EXPECT_EQ(result.files, 0u);
  expect_operations_add_up(result, false);  // nothing counted, nothing recorded
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(Writers, AnExistingFileIsNeverClobberedAndNeverCounted) {
  for (unsigned threads : {1u, 3u}) {
    TempDir dir;
    testing::write_text(dir / "write5.txt", "precious");
    const SliceResult result =
        write_into(dir.path(), options(threads, WriteMode::Line), {1, 10, 1});
    ASSERT_TRUE(result.failure);
    EXPECT_EQ(result.failure->path, dir / "write5.txt");
    EXPECT_EQ(result.failure->errno_value, EEXIST);
    EXPECT_EQ(result.failure->operation, "open");
    EXPECT_NE(result.failure->message().find("File exists"), std::string::npos);
    EXPECT_EQ(testing::read_file(dir / "write5.txt"), "precious");
    // Whatever was counted is on disk, complete.
    std::uint64_t complete = 0;
    for (int i = 1; i <= 10; ++i) {
      if (i != 5 && testing::read_file(dir / ("write" + std::to_string(i) + ".txt")).size() == 1400)
        ++complete;
    }
    EXPECT_EQ(result.files, complete);
    EXPECT_LT(result.files, 10u);
  }
}

TEST(Writers, OverwriteTruncatesExistingFiles) {
  TempDir dir;
  testing::write_text(dir / "write1.txt", std::string(5000, 'x'));
  WriteOptions o = options(1, WriteMode::Whole);
  o.overwrite = true;
  const SliceResult result = write_into(dir.path(), o, {1, 2, 1});
  ASSERT_FALSE(result.failure);
  EXPECT_EQ(testing::read_file(dir / "write1.txt"), repeated("Hello, world!\n", 100));
}

TEST(Writers, ARemovedDirectoryGivesErrnoAndPath) {
  TempDir dir;
  const std::string gone = dir / "gone";
  std::filesystem::create_directory(gone);
  const auto writer = make_writer(options(2, WriteMode::Line));
  writer->open_target(gone);
  std::filesystem::remove(gone);
  StaticSource source({1, 4, 1}, 2, Partition::Block);
  const SliceResult result = writer->write(source);
  ASSERT_TRUE(result.failure);
  EXPECT_EQ(result.failure->errno_value, ENOENT);
  EXPECT_EQ(result.failure->path.rfind(gone + "/write", 0), 0u);
  EXPECT_EQ(result.files, 0u);
}

TEST(Writers, OneWriterServesManyTargetsFromPrivateDescriptorTables) {
  TempDir a, b;
  const auto writer = make_writer(options(3, WriteMode::Whole));
  EXPECT_TRUE(writer->private_fd_tables());
  for (const TempDir* dir : {&a, &b}) {
    writer->open_target(dir->path());
    StaticSource source({1, 9, 1}, 3, Partition::Cyclic);
    const SliceResult result = writer->write(source);
    writer->close_target();
    ASSERT_FALSE(result.failure) << result.failure->message();
    EXPECT_EQ(result.files, 9u);
  }
  EXPECT_EQ(testing::read_file(b / "write9.txt").size(), 1400u);
}

TEST(Writers, OpeningAMissingTargetThrowsWithThePath) {
  TempDir dir;
  const auto writer = make_writer(options(2, WriteMode::Line));
  try {
    writer->open_target(dir / "missing");
    FAIL() << "no error";
  } catch (const IoError& e) {
    EXPECT_EQ(e.path(), dir / "missing");
    EXPECT_EQ(e.code().value(), ENOENT);
  }
}

TEST(Writers, DynamicSourceWritesEveryIndexOnceAtAnyChunkSize) {
  for (std::uint64_t chunk : {1u, 3u, 50u, 1000u}) {
    TempDir dir;
    const auto writer = make_writer(options(4, WriteMode::Whole));
    writer->open_target(dir.path());
    AtomicCounterSource source({1, 101, 1}, chunk);
    int polls = 0;
    const SliceResult result = writer->write(source, [&] {
      ++polls;
      return std::chrono::microseconds(50);
    });
    writer->close_target();
    ASSERT_FALSE(result.failure);
    EXPECT_EQ(result.files, 101u) << "chunk " << chunk;
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path()))
      ++entries;
    EXPECT_EQ(entries, 101u);
    EXPECT_TRUE(std::filesystem::exists(dir / "write101.txt"));
  }
}

TEST(WorkSources, StaticHandsEachThreadItsPartOnce) {
  StaticSource source({1, 10, 1}, 3, Partition::Block);
  Progression chunk;
  ASSERT_TRUE(source.next(1, chunk));
  EXPECT_EQ(chunk, (Progression{5, 3, 1}));
  EXPECT_FALSE(source.next(1, chunk));
  StaticSource tiny({1, 2, 1}, 3, Partition::Block);
  EXPECT_FALSE(tiny.next(2, chunk));  // nothing for the third thread
}

TEST(WorkSources, ChunkAtCutsTheLastChunkShort) {
  Progression out;
  EXPECT_TRUE(chunk_at({1, 10, 1}, 8, 4, out));
  EXPECT_EQ(out, (Progression{9, 2, 1}));
  EXPECT_FALSE(chunk_at({1, 10, 1}, 10, 4, out));
  EXPECT_TRUE(chunk_at({2, 5, 3}, 1, 2, out));  // over a strided slice: 5, 8
  EXPECT_EQ(out, (Progression{5, 2, 3}));
}

TEST(Writers, ASlowWriterSleepsInsideTheFile) {
  TempDir dir;
  WriteOptions o = options(1, WriteMode::Whole);
  o.per_file_delay_us = 2000;
  const SliceResult result = write_into(dir.path(), o, {1, 3, 1});
  ASSERT_FALSE(result.failure);
  EXPECT_GE(result.latency.percentile_ns(0.5), 2'000'000u);
  // The sleep is in the file's latency and in none of its operations.
  expect_operations_add_up(result, false);
  EXPECT_GE(result.latency.total_ns() - result.operations.total_ns(), 3 * 2'000'000u);
}

TEST(UringWriter, ASlowWriterSleepsInsideTheFileOutsideEveryOperation) {
  MPIWRITE_SKIP_WITHOUT_URING();
  TempDir dir;
  WriteOptions o = options(1, WriteMode::Whole, Engine::Uring, 1);
  o.per_file_delay_us = 2000;
  const SliceResult result = write_into(dir.path(), o, {1, 6, 1});
  ASSERT_FALSE(result.failure) << result.failure->message();
  expect_operations_add_up(result, false);
  // A span ends when the thread sees the completion: on a loaded machine the thread may run
  // only after the delay expired too, and the last write's span then takes in the delay
  // (documented). So not all 6 sleeps need show as the gap, but at least one.
  EXPECT_GE(result.latency.total_ns() - result.operations.total_ns(), 2'000'000u)
      << "create " << result.operations[Operation::Create].total_ns() << " writes "
      << result.operations[Operation::Writes].total_ns() << " close "
      << result.operations[Operation::Close].total_ns() << " latency " << result.latency.total_ns();
}

TEST(Writers, FsyncModeWritesTheSameBytes) {
  TempDir dir;
  WriteOptions o = options(1, WriteMode::Line);
  o.fsync = true;
  const SliceResult result = write_into(dir.path(), o, {1, 3, 1});
  ASSERT_FALSE(result.failure);
  EXPECT_EQ(testing::read_file(dir / "write3.txt").size(), 1400u);
  expect_operations_add_up(result, true);
}

TEST(Writers, NullEngineTouchesNothingButCountsEveryFile) {
  TempDir dir;
  WriteOptions o = options(3, WriteMode::Line);
  o.engine = Engine::Null;
  const SliceResult result = write_into(dir.path(), o, {1, 1000, 1});
  EXPECT_FALSE(result.failure);
  EXPECT_EQ(result.files, 1000u);
  EXPECT_EQ(result.latency.count(), 1000u);
  expect_operations_add_up(result, false);  // the same bookkeeping as posix
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(WriteAll, ReportsTheErrnoOfAFailedWrite) {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) GTEST_SKIP() << "/dev/full is not available";
  UniqueFd full(fd);
  EXPECT_EQ(write_all(full.get(), "abc", 3), ENOSPC);
}

TEST(FilesystemName, KnownMagicNumbers) {
  EXPECT_EQ(filesystem_name(0xEF53), "ext4");
  EXPECT_EQ(filesystem_name(0x01021994), "tmpfs");
  EXPECT_EQ(filesystem_name(0x0BD00BD0), "lustre");
  EXPECT_EQ(filesystem_name(0x1234), "0x1234");
  EXPECT_EQ(filesystem_type("/dev/shm"), "tmpfs");
}

}  // namespace
}  // namespace mpiwrite
