#include "mpiwrite/core/created_files.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/sys/run_directory.hpp"
#include "temp_dir.hpp"
#include "uring_skip.hpp"

namespace mpiwrite {
namespace {

using testing::TempDir;

std::set<std::uint64_t> indices(const CreatedFiles& created) {
  std::set<std::uint64_t> all;
  for (const Progression& part : created.taken) {
    for (std::uint64_t i = 0; i < part.count; ++i) {
      if (!created.excluded(part.at(i))) all.insert(part.at(i));
    }
  }
  return all;
}

TEST(CreatedFiles, AdjacentChunksMergeIntoOneProgression) {
  CreatedFiles c;
  c.take({1, 8, 1});
  c.take({9, 8, 1});
  c.take({17, 0, 1});  // an empty prefix adds nothing
  ASSERT_EQ(c.taken.size(), 1u);
  EXPECT_EQ(c.taken[0], (Progression{1, 16, 1}));
  c.take({33, 8, 1});  // a gap: another progression
  EXPECT_EQ(c.taken.size(), 2u);
  EXPECT_EQ(c.files_taken(), 24u);
}

TEST(CreatedFiles, SingleFilesAdoptTheStrideThatFits) {
  CreatedFiles c;
  c.take({3, 1, 1});
  c.take({7, 1, 1});
  c.take({11, 2, 4});
  ASSERT_EQ(c.taken.size(), 1u);
  EXPECT_EQ(c.taken[0], (Progression{3, 4, 4}));
  c.take({16, 1, 1});  // 15 would continue it, 16 does not
  EXPECT_EQ(c.taken.size(), 2u);
}

TEST(CreatedFiles, MergeKeepsEveryIndexAndEveryExclusion) {
  CreatedFiles a, b;
  a.take({1, 4, 2});  // 1 3 5 7
  b.take({2, 3, 2});  // 2 4 6
  b.not_created.push_back(4);
  a.merge(b);
  EXPECT_EQ(indices(a), (std::set<std::uint64_t>{1, 2, 3, 5, 6, 7}));
  a.clear();
  EXPECT_TRUE(a.taken.empty());
  EXPECT_TRUE(a.not_created.empty());
}

// The writers' record is exactly the files they created and kept, whichever way they stop,
// and removal by the record touches nothing else.
TEST(CreatedFiles, RemovalByTheRecordLeavesAPlantedFile) {
  for (Engine engine : {Engine::Posix, Engine::Uring}) {
    if (engine == Engine::Uring && !testing::uring_runs_here()) continue;  // skipped below
    for (unsigned threads : {1u, 3u}) {
      TempDir dir;
      testing::write_text(dir / "write7.txt", "planted");
      WriteOptions o;
      o.pattern = parse_pattern("write{}.txt");
      o.lines = 2;
      o.engine = engine;
      o.queue_depth = engine == Engine::Uring ? 4 : 1;
      o.threads = threads;
      std::unique_ptr<Writer> writer = make_writer(o);
      writer->open_target(dir.path());
      StaticSource source({1, 12, 1}, threads, Partition::Block);
      const SliceResult result = writer->write(source);
      writer->close_target();
      ASSERT_TRUE(result.failure);
      std::set<std::uint64_t> on_disk;
      for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        const std::string name = entry.path().filename().string();
        if (name != "write7.txt") on_disk.insert(std::stoull(name.substr(5)));
      }
      EXPECT_EQ(indices(result.created), on_disk) << to_string(engine) << " " << threads;
      EXPECT_EQ(result.files, on_disk.size());
      remove_created(dir.path(), o.pattern, result.created);
      EXPECT_EQ(testing::read_file(dir / "write7.txt"), "planted");
      EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
    }
  }
  MPIWRITE_SKIP_WITHOUT_URING();  // after the posix part, which ran
}

// A source that throws in the middle of the write phase: the writer reports a failure (the
// ranks agree on it) instead of letting the exception end the process.
class ThrowingSource final : public WorkSource {
 public:
  bool next(unsigned, Progression& chunk) override {
    if (calls_.fetch_add(1) >= 2) throw std::runtime_error("the source broke");
    chunk = {calls_.load() * 10, 2, 1};
    return true;
  }

 private:
  std::atomic<std::uint64_t> calls_{0};
};

TEST(Writers, AnExceptionInAWriterThreadBecomesAFailure) {
  for (Engine engine : {Engine::Posix, Engine::Uring}) {
    if (engine == Engine::Uring && !testing::uring_runs_here()) continue;  // skipped below
    TempDir dir;
    WriteOptions o;
    o.pattern = parse_pattern("write{}.txt");
    o.lines = 1;
    o.engine = engine;
    o.threads = 2;
    std::unique_ptr<Writer> writer = make_writer(o);
    writer->open_target(dir.path());
    ThrowingSource source;
    SliceResult result;
    ASSERT_NO_THROW(result = writer->write(source));
    writer->close_target();
    ASSERT_TRUE(result.failure);
    EXPECT_NE(result.failure->message().find("the source broke"), std::string::npos);
  }
  MPIWRITE_SKIP_WITHOUT_URING();  // after the posix part, which ran
}

}  // namespace
}  // namespace mpiwrite
