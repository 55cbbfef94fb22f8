// The engine seam (src/engines/engine.hpp, private to the engines): the engine is chosen from
// the configuration in one place, the file recipe is what every engine writes and how it
// opens, and every engine reports a failure the same way.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <sys/resource.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine.hpp"
#include "mpiwrite/engines/uring_support.hpp"
#include "posix_engine.hpp"
#include "temp_dir.hpp"
#include "uring_skip.hpp"
#if MPIWRITE_URING_BUILT  // its header includes liburing.h
#include "uring_engine.hpp"
#endif

namespace mpiwrite {
namespace {

using testing::TempDir;

bool uring_available() { return uring_unavailable_reason().empty(); }

WriteOptions options_for(Engine engine, WriteMode mode = WriteMode::Whole) {
  WriteOptions options;
  options.pattern = parse_pattern(RunConfig{}.pattern);
  options.engine = engine;
  options.lines = 3;
  options.mode = mode;
  return options;
}

// What one engine did with `slice` in `dir` (the engine made and used in this thread, as a
// pool worker does), with `dir` taken out of the failure, so that engines run in different
// directories compare equal.
SliceResult run_engine(const WriteOptions& options, const std::string& dir,
                       const Progression& slice, bool exclusive = false) {
  const FileRecipe recipe(options);
  const std::unique_ptr<FileEngine> engine = make_engine(options, recipe);
  const UniqueFd dir_fd = open_directory(dir);
  FileDirectories directories(dir_fd.get(), dir, nullptr);
  const WriteTarget target{&directories, dir, exclusive};
  StaticSource source(slice, 1, Partition::Block);
  SliceResult result;
  std::atomic<bool> stop{false};
  engine->write(target, source, 0, result, stop);
  EXPECT_EQ(stop.load(), result.failure.has_value());  // a failure stops the other threads
  if (result.failure) {
    for (std::string* text : {&result.failure->path, &result.failure->text}) {
      if (text->rfind(dir, 0) == 0) text->erase(0, dir.size());
    }
  }
  return result;
}

TEST(EngineChoice, TheConfiguredEngineIsTheOneMade) {
  for (Engine engine : {Engine::Posix, Engine::Null, Engine::Uring}) {
    if (engine == Engine::Uring && !uring_available()) continue;
    const WriteOptions options = options_for(engine);
    const FileRecipe recipe(options);
    const std::unique_ptr<FileEngine> made = make_engine(options, recipe);
    EXPECT_EQ(dynamic_cast<PosixEngine*>(made.get()) != nullptr, engine == Engine::Posix);
    EXPECT_EQ(dynamic_cast<NullEngine*>(made.get()) != nullptr, engine == Engine::Null);
#if MPIWRITE_URING_BUILT
    EXPECT_EQ(dynamic_cast<UringEngine*>(made.get()) != nullptr, engine == Engine::Uring);
#endif
  }
  MPIWRITE_SKIP_WITHOUT_URING();  // after posix and null, which ran
}

TEST(FileRecipe, WritesALinePerCallOrTheWholeFileInOne) {
  WriteOptions options = options_for(Engine::Posix, WriteMode::Line);
  options.text = "ab";
  const FileRecipe line(options);
  EXPECT_EQ(line.line, "ab\n");
  EXPECT_EQ(line.file_bytes, 9u);
  EXPECT_EQ(line.writes, 3u);
  EXPECT_EQ(line.piece(0), "ab\n");
  EXPECT_EQ(line.piece(4), "b\n");  // the rest of a short write's line
  EXPECT_EQ(line.piece(6), "ab\n");
  options.mode = WriteMode::Whole;
  const FileRecipe whole(options);
  EXPECT_EQ(whole.writes, 1u);
  EXPECT_EQ(whole.piece(0), "ab\nab\nab\n");
  EXPECT_EQ(whole.piece(5), "\nab\n");
}

// --file-size and --write-size: the line repeated and cut at the size, in pieces of the write
// size from offset 0; the buffer is made once, about a piece long, not a file.
TEST(FileRecipe, CutsTheLinesAtTheFileSizeInPiecesOfTheWriteSize) {
  WriteOptions options = options_for(Engine::Posix);
  options.text = "abc";  // a line of 4 bytes
  options.file_size = 10;
  options.write_size = 3;
  const FileRecipe recipe(options);
  EXPECT_EQ(recipe.file_bytes, 10u);
  EXPECT_EQ(recipe.writes, 4u);
  std::string file;
  std::vector<std::size_t> sizes;
  for (std::uint64_t offset = 0; offset < recipe.file_bytes; offset += sizes.back()) {
    file += recipe.piece(offset);
    sizes.push_back(recipe.piece(offset).size());
  }
  EXPECT_EQ(file, "abc\nabc\nab");
  EXPECT_EQ(sizes, (std::vector<std::size_t>{3, 3, 3, 1}));
  EXPECT_TRUE(recipe.content_matches(0, file));
  EXPECT_EQ(recipe.piece(5), "b");  // after a short write: the rest of its piece, [3, 6)
  EXPECT_LE(recipe.content.size(), 3u + 4u + 4u);

  options.file_size = 0;  // created and closed: no write, no buffer
  const FileRecipe empty(options);
  EXPECT_EQ(empty.writes, 0u);
  EXPECT_TRUE(empty.content.empty());
  options.file_size = 100000;  // one write of the whole file when no write size is given
  options.write_size.reset();
  const FileRecipe one(options);
  EXPECT_EQ(one.writes, 1u);
  EXPECT_EQ(one.piece(0).size(), 100000u);
  EXPECT_TRUE(one.content_matches(0, one.piece(0)));
}

TEST(FileRecipe, RewritesOnlyWithOverwriteOutsideAnExclusiveStep) {
  WriteOptions options = options_for(Engine::Posix);
  EXPECT_FALSE(FileRecipe(options).rewrites(WriteTarget{}));
  options.overwrite = true;
  const FileRecipe recipe(options);
  EXPECT_TRUE(recipe.rewrites(WriteTarget{nullptr, "d", false}));
  EXPECT_FALSE(recipe.rewrites(WriteTarget{nullptr, "d", true}));
  constexpr int kWanted = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
  EXPECT_EQ(FileRecipe::kCreateFlags & kWanted, kWanted);
}

// The engines that do I/O, and the same failure from each.
std::vector<WriteOptions> io_engines() {
  std::vector<WriteOptions> all{options_for(Engine::Posix)};
  if (uring_available()) all.push_back(options_for(Engine::Uring));  // queue depth 1
  return all;
}

// --file-size: every I/O engine writes the same bytes, an empty file as well (uring with a
// chain of open and close alone), and counts them; the writes of an empty file take 0 ns.
TEST(EngineSizes, EveryEngineWritesTheCutLinesAndEmptyFiles) {
  for (WriteOptions options : io_engines()) {
    for (const std::uint64_t size : {std::uint64_t{0}, std::uint64_t{10000}}) {
      TempDir dir;
      options.file_size = size;
      options.write_size = 4096;
      const SliceResult r = run_engine(options, dir.path(), Progression{1, 3, 1});
      ASSERT_FALSE(r.failure) << r.failure->message();
      EXPECT_EQ(r.files, 3u);
      EXPECT_EQ(r.bytes, 3 * size);
      std::string expected;
      while (expected.size() < size) expected += "Hello, world!\n";
      expected.resize(size);
      for (int i = 1; i <= 3; ++i) {
        EXPECT_EQ(testing::read_file(dir / ("write" + std::to_string(i) + ".txt")), expected)
            << to_string(options.engine) << " " << size;
      }
      const LatencyHistogram& writes = r.operations[Operation::Writes];
      EXPECT_EQ(writes.count(), 3u);
      if (size == 0) {
        EXPECT_EQ(writes.total_ns(), 0u);
      }
    }
  }
}

void expect_same_failure(const std::vector<SliceResult>& results) {
  ASSERT_FALSE(results.empty());
  ASSERT_TRUE(results[0].failure);
  for (const SliceResult& r : results) {
    ASSERT_TRUE(r.failure);
    EXPECT_EQ(r.failure->path, results[0].failure->path);
    EXPECT_EQ(r.failure->errno_value, results[0].failure->errno_value);
    EXPECT_EQ(r.failure->operation, results[0].failure->operation);
    EXPECT_EQ(r.failure->message(), results[0].failure->message());
    EXPECT_EQ(r.files, results[0].files);
  }
}

TEST(EngineFailures, AnExistingNameIsTheFailureOfItsOpen) {
  std::vector<SliceResult> results;
  for (const WriteOptions& options : io_engines()) {
    TempDir dir;
    testing::write_text(dir / "write3.txt", "precious");
    results.push_back(run_engine(options, dir.path(), {1, 5, 1}));
    EXPECT_EQ(testing::read_file(dir / "write3.txt"), "precious");
  }
  expect_same_failure(results);
  EXPECT_EQ(results[0].failure->errno_value, EEXIST);
  EXPECT_EQ(results[0].failure->operation, "open");
  EXPECT_EQ(results[0].files, 2u);
}

TEST(EngineFailures, AnExclusiveStepRefusesAnExistingNameEvenWithOverwrite) {
  std::vector<SliceResult> results;
  for (WriteOptions options : io_engines()) {
    options.overwrite = true;
    TempDir dir;
    testing::write_text(dir / "write1.txt", "precious");
    results.push_back(run_engine(options, dir.path(), {1, 2, 1}, true));
    EXPECT_EQ(testing::read_file(dir / "write1.txt"), "precious");
  }
  expect_same_failure(results);
  EXPECT_EQ(results[0].failure->errno_value, EEXIST);
}

TEST(EngineFailures, OverwriteOfADirectoryIsTheFailureOfItsOpen) {
  std::vector<SliceResult> results;
  for (WriteOptions options : io_engines()) {
    options.overwrite = true;
    TempDir dir;
    std::filesystem::create_directory(dir / "write2.txt");
    results.push_back(run_engine(options, dir.path(), {1, 3, 1}));
  }
  expect_same_failure(results);
  EXPECT_EQ(results[0].failure->path, "/write2.txt");
  EXPECT_EQ(results[0].failure->errno_value, EISDIR);
  EXPECT_EQ(results[0].files, 1u);
}

TEST(EngineFailures, OverwriteRefusesAHardLinkWithTheSameMessage) {
  std::vector<SliceResult> results;
  for (WriteOptions options : io_engines()) {
    options.overwrite = true;
    TempDir dir;
    testing::write_text(dir / "outside", "precious");
    std::filesystem::create_hard_link(dir / "outside", dir / "write1.txt");
    results.push_back(run_engine(options, dir.path(), {1, 2, 1}));
    EXPECT_EQ(testing::read_file(dir / "outside"), "precious");
  }
  expect_same_failure(results);
  EXPECT_EQ(results[0].failure->errno_value, 0);
  EXPECT_EQ(results[0].failure->message(), "/write1.txt: open: " + std::string(kNotOwnFile));
  EXPECT_EQ(results[0].files, 0u);
}

// A write over the file-size limit (EFBIG): the failure of the write, and no incomplete file.
TEST(EngineFailures, AFailedWriteIsTheFailureOfTheWriteAndLeavesNoFile) {
  std::vector<SliceResult> results;
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  ::signal(SIGXFSZ, SIG_IGN);  // EFBIG instead of the signal
  for (WriteOptions options : io_engines()) {
    options.lines = 400;  // 5600 B, over the limit below
    options.mode = WriteMode::Line;
    TempDir dir;
    rlimit small = old;
    small.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    results.push_back(run_engine(options, dir.path(), {1, 2, 1}));
    ::setrlimit(RLIMIT_FSIZE, &old);
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  }
  ::signal(SIGXFSZ, SIG_DFL);
  expect_same_failure(results);
  EXPECT_EQ(results[0].failure->path, "/write1.txt");
  EXPECT_EQ(results[0].failure->errno_value, EFBIG);
  EXPECT_EQ(results[0].failure->operation, "write");
}

// A directory removed after it was opened: the first open fails with ENOENT, in every engine.
TEST(EngineFailures, ARemovedDirectoryIsTheFailureOfTheFirstOpen) {
  std::vector<SliceResult> results;
  for (const WriteOptions& options : io_engines()) {
    TempDir dir;
    const std::string gone = dir / "gone";
    std::filesystem::create_directory(gone);
    const FileRecipe recipe(options);
    const std::unique_ptr<FileEngine> engine = make_engine(options, recipe);
    const UniqueFd dir_fd = open_directory(gone);
    std::filesystem::remove(gone);
    StaticSource source({1, 3, 1}, 1, Partition::Block);
    SliceResult result;
    std::atomic<bool> stop{false};
    FileDirectories directories(dir_fd.get(), gone, nullptr);
    engine->write(WriteTarget{&directories, gone, false}, source, 0, result, stop);
    ASSERT_TRUE(result.failure);
    EXPECT_EQ(result.failure->path, gone + "/write1.txt");
    result.failure->path.erase(0, gone.size());
    results.push_back(result);
  }
  expect_same_failure(results);
  EXPECT_EQ(results[0].failure->errno_value, ENOENT);
  EXPECT_EQ(results[0].failure->operation, "open");
}

class ThrowingSource final : public WorkSource {
 public:
  explicit ThrowingSource(bool standard) : standard_(standard) {}
  bool next(unsigned, Progression&) override {
    if (standard_) throw std::runtime_error("the source broke");
    throw 42;
  }

 private:
  bool standard_;
};

// Whatever is thrown inside an engine comes back as its failure, from every engine alike.
TEST(EngineFailures, AnythingThrownBecomesTheFailure) {
  for (Engine kind : {Engine::Posix, Engine::Null, Engine::Uring}) {
    if (kind == Engine::Uring && !uring_available()) continue;
    for (bool standard : {true, false}) {
      const WriteOptions options = options_for(kind);
      const FileRecipe recipe(options);
      const std::unique_ptr<FileEngine> engine = make_engine(options, recipe);
      FileDirectories directories(-1, "/some/dir", nullptr);
      const WriteTarget target{&directories, "/some/dir", false};
      ThrowingSource source(standard);
      SliceResult result;
      std::atomic<bool> stop{false};
      engine->write(target, source, 0, result, stop);
      ASSERT_TRUE(result.failure) << to_string(kind);
      EXPECT_TRUE(stop.load());
      EXPECT_EQ(result.failure->path, "/some/dir");
      EXPECT_EQ(result.failure->operation, "write");
      EXPECT_EQ(result.failure->message(),
                standard ? "the source broke" : "/some/dir: write: unknown exception");
    }
  }
  MPIWRITE_SKIP_WITHOUT_URING();  // after posix and null, which ran
}

TEST(EngineFailures, TheFirstFailureIsKept) {
  SliceResult result;
  std::atomic<bool> stop{false};
  record_failure(result, stop, file_failure("/d", "a", "open", EEXIST));
  record_failure(result, stop, file_failure("/d", "b", "write", ENOSPC));
  EXPECT_TRUE(stop.load());
  EXPECT_EQ(result.failure->message(), "/d/a: open: File exists");
}

}  // namespace
}  // namespace mpiwrite
