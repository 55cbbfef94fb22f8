// The coordinator under a real communicator: run() with injected streams.
#include "mpiwrite/app/app.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <algorithm>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "../../src/app/phase_agreement.hpp"
#include "../unit/temp_dir.hpp"

namespace mpiwrite {
namespace {

namespace fs = std::filesystem;
boost::mpi::communicator world;

struct Outcome {
  int code;
  std::string out, err;
};

Outcome run_with(std::vector<std::string> words) {
  words.insert(words.begin(), "mpiwrite");
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  std::ostringstream out, err;
  const int code = run(static_cast<int>(argv.size()), argv.data(), world, out, err);
  return {code, out.str(), err.str()};
}

// One directory for all ranks: rank 0 makes it and tells the others.
class SharedTempDir {
 public:
  SharedTempDir() {
    if (world.rank() == 0) {
      dir_.emplace();
      path_ = dir_->path();
    }
    boost::mpi::broadcast(world, path_, 0);
  }
  ~SharedTempDir() { world.barrier(); }  // nobody leaves before rank 0 removes it
  const std::string& path() const { return path_; }

 private:
  std::optional<testing::TempDir> dir_;
  std::string path_;
};

TEST(Run, NullEngineCountsEveryFileAndWritesNothing) {
  SharedTempDir tmp;
  const Outcome o = run_with({"--engine", "null", "-n", "1001", "-t", "3", "-r", "3", "--format",
                              "json", "-d", tmp.path() + "/d"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.err, "");
  if (world.rank() != 0) {
    EXPECT_EQ(o.out, "");
    return;
  }
  const auto doc = nlohmann::json::parse(o.out);
  ASSERT_EQ(doc.at("points").size(), 1u);
  ASSERT_EQ(doc.at("points").at(0).at("repetitions").size(), 3u);
  for (const auto& rep : doc.at("points").at(0).at("repetitions")) {
    EXPECT_EQ(rep.at("files"), 1001);
    EXPECT_EQ(rep.at("per_rank").size(), static_cast<std::size_t>(world.size()));
  }
  EXPECT_EQ(doc.at("context").at("ranks"), world.size());
  // Scratch directories of the first two repetitions were made and removed; no file exists.
  EXPECT_TRUE(fs::is_empty(tmp.path() + "/d"));
}

TEST(Run, WritesTheSeedFilesFromEveryRankAndThread) {
  SharedTempDir tmp;
  const Outcome o = run_with({"-n", "37", "-l", "3", "-t", "3", "--partition", "cyclic", "-r", "2",
                              "--format", "csv", "-d", tmp.path() + "/d"});
  ASSERT_EQ(o.code, 0) << o.err;
  if (world.rank() != 0) return;
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(tmp.path() + "/d")) {
    ++count;
    EXPECT_EQ(testing::read_file(entry.path()), "Hello, world!\nHello, world!\nHello, world!\n");
  }
  EXPECT_EQ(count, 37u);  // the last repetition's files only: the first one's were removed
  EXPECT_NE(o.out.find("repetition,run," + std::to_string(world.size()) + ",3,2,"),
            std::string::npos)
      << o.out;
}

// Files per rank for every repetition of every point, from a JSON report.
std::vector<std::vector<int>> files_per_rank(const nlohmann::json& point) {
  std::vector<std::vector<int>> result;
  for (const auto& rep : point.at("repetitions")) {
    std::vector<int> files;
    for (const auto& rank : rep.at("per_rank")) files.push_back(rank.at("files"));
    result.push_back(files);
  }
  return result;
}

TEST(Run, CompareMeasuresEveryPointWithItsOwnRanksAndRemovesItsFiles) {
  SharedTempDir tmp;
  const Outcome o = run_with({"--compare", "-t", "2", "-n", "24", "-l", "2", "-r", "2", "--format",
                              "json", "-d", tmp.path() + "/d", "--seed", "5"});
  ASSERT_EQ(o.code, 0) << o.err;
  if (world.rank() != 0) return;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc.at("kind"), "compare");
  EXPECT_EQ(doc.at("seed"), 5);
  std::set<std::string> labels;
  for (const auto& point : doc.at("points")) {
    labels.insert(point.at("label").get<std::string>());
    const int ranks = point.at("ranks");
    EXPECT_LE(ranks, world.size());
    for (const auto& files : files_per_rank(point)) {
      ASSERT_EQ(files.size(), static_cast<std::size_t>(ranks));
      EXPECT_EQ(std::accumulate(files.begin(), files.end(), 0), 24);
    }
  }
  EXPECT_TRUE(labels.count("1x1"));
  EXPECT_TRUE(labels.count(fmt::format("1x{}", 2 * world.size())));
  // One row per concurrency 1, 2, 4, ... up to ranks x 2 threads.
  std::size_t rows = 1;
  for (int c = 2; c <= 2 * world.size(); c *= 2) ++rows;
  EXPECT_EQ(doc.at("comparison").size(), rows);
  EXPECT_TRUE(fs::is_empty(tmp.path() + "/d"));  // every step's scratch directory is gone
}

// Every rank plans for itself (plan_rank): what the ranks write, read back and remove must
// still add up to every file exactly once, with any partition.
TEST(Run, VerifyAndRemovalCoverEveryFileWhateverThePartition) {
  for (const char* partition : {"block", "cyclic", "dynamic"}) {
    SharedTempDir tmp;
    const Outcome o =
        run_with({"-n", "29", "-l", "2", "-t", "2", "--partition", partition, "-r", "2", "--warmup",
                  "1", "--verify", "--cleanup", "--format", "json", "-d", tmp.path() + "/d"});
    ASSERT_EQ(o.code, 0) << partition << ": " << o.err;
    if (world.rank() != 0) continue;
    const auto doc = nlohmann::json::parse(o.out);
    for (const auto& rep : doc.at("points").at(0).at("repetitions")) {
      EXPECT_EQ(rep.at("files"), 29) << partition;
      EXPECT_EQ(rep.at("verify").at("files_checked"), 29) << partition;
      EXPECT_EQ(rep.at("verify").at("mismatches"), 0) << partition;
    }
    // A warm-up and a timed repetition in scratch directories, the last in --dir.
    EXPECT_EQ(doc.at("cleanup").at("files_removed"), 3 * 29) << partition;
    EXPECT_FALSE(fs::exists(tmp.path() + "/d")) << partition;  // --cleanup removed what it made
  }
}

TEST(Run, DynamicPartitionWritesEveryFileOnceAndASlowRankWritesFewer) {
  SharedTempDir tmp;
  const std::string slow = std::to_string(world.size() - 1);
  for (const char* chunk : {"1", "4", "1000"}) {
    const std::string dir = tmp.path() + "/d" + chunk;
    const Outcome o = run_with({"--partition", "dynamic", "--chunk", chunk, "-n", "60", "-l", "1",
                                "-t", "2", "--format", "json", "-d", dir, "--slow-rank", slow,
                                "--slow-delay-us", "20000"});  // 3 ms lost to a loaded VM once
    ASSERT_EQ(o.code, 0) << o.err;
    if (world.rank() != 0) continue;
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++count;
    EXPECT_EQ(count, 60u) << "chunk " << chunk;
    const auto files = files_per_rank(nlohmann::json::parse(o.out).at("points").at(0)).at(0);
    EXPECT_EQ(std::accumulate(files.begin(), files.end(), 0), 60);
    if (world.size() > 1 && std::string(chunk) == "1") {
      // Against the busiest other rank, not rank 0: with 4 ranks on 2 cores any one fast rank
      // can be descheduled for the whole phase (CI saw rank 0 take 2 of 60, as the slow rank did).
      const int busiest = *std::max_element(files.begin(), files.end() - 1);
      EXPECT_LT(files.back(), busiest) << "the slow rank should take fewer files";
    }
  }
}

TEST(Run, BadOptionGivesExitTwoOnEveryRankAndOneMessage) {
  const Outcome o = run_with({"--files", "abc"});
  EXPECT_EQ(o.code, 2);
  if (world.rank() == 0) {
    EXPECT_EQ(o.err.rfind("mpiwrite: error: --files: abc is not a whole number", 0), 0u) << o.err;
  } else {
    EXPECT_EQ(o.err, "");
  }
  EXPECT_EQ(o.out, "");
}

TEST(Run, ARegularFileAsDirectoryGivesExitTwoOnEveryRank) {
  SharedTempDir tmp;
  if (world.rank() == 0) testing::write_text(tmp.path() + "/file", "x");
  world.barrier();
  const Outcome o = run_with({"-d", tmp.path() + "/file"});
  EXPECT_EQ(o.code, 2);
  if (world.rank() == 0) {
    EXPECT_NE(o.err.find("--dir " + tmp.path() + "/file is not a directory"), std::string::npos)
        << o.err;
  }
}

// The one shape of the write, verify and removal phases: the work runs on the phase's ranks
// between the clock readings, and every rank of the world learns the verdict.
class TestPhase final : public TimedPhase {
 public:
  TestPhase(const boost::mpi::communicator& some, PhaseAgreement& phases)
      : TimedPhase("test", &some), some_(some), phases_(phases) {}
  void before() override { before_ran = true; }
  void work(std::string& failure) override {
    ran = true;
    if (fail && world.rank() == 0) failure = "boom";
  }
  void after(const PhaseClock& clock, std::string& failure) override {
    after_ran = true;
    EXPECT_LE(clock.start_ns, clock.end_ns);
    EXPECT_GE(phases_.span_on_root(some_, clock), 0.0);  // collective over the phase
    EXPECT_EQ(failure, fail && world.rank() == 0 ? "boom" : "");
  }
  bool fail = true;
  bool ran = false, before_ran = false, after_ran = false;

 private:
  const boost::mpi::communicator& some_;
  PhaseAgreement& phases_;
};

TEST(TimedPhase, AFailingRankFailsEveryRankAndRankZeroSaysSoOnce) {
  std::ostringstream err;
  PhaseAgreement phases(world, err);
  const int last = world.size() - 1;
  // A phase of all ranks but the last (the whole world on one rank).
  const boost::mpi::communicator some =
      world.split(world.size() == 1 || world.rank() < last ? 0 : MPI_UNDEFINED);
  TestPhase phase(some, phases);
  EXPECT_FALSE(phases.timed_phase(phase));  // every rank, in the phase or not
  const bool inside = static_cast<bool>(some);
  EXPECT_EQ(phase.ran, inside);
  EXPECT_EQ(phase.before_ran, inside);
  EXPECT_EQ(phase.after_ran, inside);
  EXPECT_EQ(err.str(), world.rank() == 0 ? "mpiwrite: error: rank 0: boom\n" : "");

  phase.fail = false;
  EXPECT_TRUE(phases.timed_phase(phase));
}

// A phase that knows when its work ended (the writer's last thread, Writer::finished_at):
// that is the rank's end, not the main thread's read after work() returns; an end it
// reports from before the phase's start (a writer that did not run) or after that read is
// not taken.
class EndingPhase final : public TimedPhase {
 public:
  enum class Report { AtTheWorksEnd, BeforeTheStart, InTheFuture, Nothing };
  EndingPhase(const boost::mpi::communicator& comm, Report report)
      : TimedPhase("ending", &comm), report_(report) {}
  void work(std::string& /*failure*/) override {
    began_ns_ = now_ns();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ended_ns_ = now_ns();  // the work ends here; the caller's read comes 40 ms later
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
  }
  std::optional<std::int64_t> work_ended_ns() const override {
    switch (report_) {
      case Report::AtTheWorksEnd:
        return ended_ns_;
      case Report::BeforeTheStart:
        return began_ns_ - 1'000'000'000;
      case Report::InTheFuture:
        return now_ns() + 1'000'000'000;
      case Report::Nothing:
        break;
    }
    return std::nullopt;
  }
  void after(const PhaseClock& clock, std::string& /*failure*/) override { clock_ = clock; }

  PhaseClock clock_;
  std::int64_t began_ns_ = 0, ended_ns_ = 0;

 private:
  Report report_;
};

TEST(TimedPhase, ARanksEndIsWhenItsWorkEndedWhereThePhaseKnowsIt) {
  std::ostringstream err;
  PhaseAgreement phases(world, err);
  using Report = EndingPhase::Report;
  EndingPhase at_end(world, Report::AtTheWorksEnd);
  ASSERT_TRUE(phases.timed_phase(at_end));
  EXPECT_EQ(at_end.clock_.end_ns, at_end.ended_ns_);
  EXPECT_LE(at_end.clock_.start_ns, at_end.began_ns_);
  for (const Report report : {Report::BeforeTheStart, Report::InTheFuture, Report::Nothing}) {
    EndingPhase other(world, report);
    ASSERT_TRUE(phases.timed_phase(other));
    const std::int64_t returned_ns = now_ns();
    // The main thread's own read, after the 40 ms that follow the work's end, and before
    // timed_phase returned (not the end a phase reports from the future).
    EXPECT_GE(other.clock_.end_ns - other.ended_ns_, 40'000'000) << static_cast<int>(report);
    EXPECT_LE(other.clock_.end_ns, returned_ns) << static_cast<int>(report);
  }
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace mpiwrite
