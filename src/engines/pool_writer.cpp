// The rank's writer: a pool of worker threads, each with a private descriptor table and its
// own engine, that take their files from a WorkSource. The pool does not know which engine it
// runs: each worker makes its engine (make_engine) in its own thread, so that what the engine
// holds (the uring engine's ring) lives in that worker's table, and tears it down there.
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "mpiwrite/core/rank_plan.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/sys/file_directories.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/system_facts.hpp"
#include "mpiwrite/sys/thread_pool.hpp"

namespace mpiwrite {

namespace {

class PoolWriter final : public Writer {
 public:
  explicit PoolWriter(const WriteOptions& options)
      : recipe_(options),
        null_engine_(!creates_files(options.engine)),
        workers_(options.threads),
        pool_(options.threads, [this](unsigned) {
          if (::unshare(CLONE_FILES) == 0) private_tables_.fetch_add(1);
        }) {
    pool_.run_on_all([&](unsigned t) {  // also: every worker has run its start hook
      workers_[t].engine = make_engine(options, recipe_);
    });
  }

  // An engine is torn down by the worker that made it.
  ~PoolWriter() override {
    pool_.run_on_all([&](unsigned t) { workers_[t].engine.reset(); });
  }

  void open_target(const DirectoryAt& dir, bool exclusive, const DirectoryLayout* layout,
                   const std::vector<std::span<const Progression>>* thread_files) override {
    dir_path_ = dir.path;
    exclusive_ = exclusive;
    // The null engine opens nothing: no directory of the step or of its layout, which it
    // never made (steps.cpp), so it runs every layout without touching the file system.
    if (null_engine_) return;
    const std::size_t share = std::clamp<std::size_t>(descriptor_limit() / 2 / workers_.size(), 8,
                                                      kMaxPreopenedDirectories);
    pool_.run_on_all([&](unsigned t) {  // rethrows a worker's IoError here
      Worker& w = workers_[t];
      w.dir_fd = open_at(dir, true);
      w.directories = FileDirectories(w.dir_fd.get(), dir.path, layout);
      w.directories.wait_for_missing();
      if (thread_files != nullptr && t < thread_files->size()) {
        w.directories.preopen((*thread_files)[t], share);
      } else {
        w.directories.keep_open(share);
      }
    });
  }

  SliceResult write(WorkSource& source, const ThreadPool::Poll& progress,
                    std::chrono::microseconds poll_every,
                    std::chrono::steady_clock::time_point deadline) override {
    return run_phase(
        exclusive_, deadline, progress, poll_every,
        [&](Worker& w, unsigned t, const WriteTarget& target, std::atomic<bool>& stop) {
          w.engine->write(target, source, t, w.result, stop);
        });
  }

  SliceResult run_files(Phase phase, WorkSource& source, const ThreadPool::Poll& progress,
                        std::chrono::microseconds poll_every) override {
    return run_phase(
        false, kNoDeadline, progress, poll_every,
        [&](Worker& w, unsigned t, const WriteTarget& target, std::atomic<bool>& stop) {
          w.engine->files(phase, target, source, t, w.result, stop);
        });
  }

  // One pool round for the whole tree: each level's directories in contiguous blocks, one per
  // thread, and the threads meet at a barrier between two levels, so every parent exists
  // before its children are made (and is empty before it is removed). Until session 15 the
  // main thread ran a round per level: two thread wake-ups per level (20-70 us each on the
  // project's VM), and on 2 cores the main thread, woken on the core of the worker that
  // finished last, made the kernel move that worker to the other core at the next level's
  // wake-up, beside the other worker (perf sched: both on one core in 4 ms slices for ~15 ms,
  // the other core idle). At the barrier the last thread to arrive wakes the others, each
  // where it ran; after the last level there is none, so the round ends with the last thread
  // to finish its own block, not with a wake-up (the rank's end, Writer::finished_at). What
  // each thread did of its block is a prefix (it stops at the first failure, and the others
  // then do no further level), counted per level and thread and recorded after the round,
  // also when the round throws: the paths are made from it after the phase
  // (tree_progress.hpp).
  SliceResult run_tree(Phase phase, const std::vector<std::vector<std::string>>& levels,
                       TreeProgress& done, const ThreadPool::Poll& progress,
                       std::chrono::microseconds poll_every) override {
    const std::size_t threads = workers_.size();
    done.clear(levels.size() * threads);
    // The levels in the order walked (deepest first to remove), each split over the threads.
    const bool removing = phase == Phase::TreeRemove;
    std::vector<std::size_t> order(levels.size());
    std::vector<std::vector<Progression>> parts(levels.size());
    for (std::size_t k = 0; k < levels.size(); ++k) {
      order[k] = removing ? levels.size() - 1 - k : k;
      parts[k] = thread_parts(Progression{0, levels[order[k]].size(), 1},
                              static_cast<unsigned>(threads), Partition::Block);
    }
    std::vector<std::uint64_t> did(levels.size() * threads, 0);  // [k * threads + t]
    const auto record = [&] {
      for (std::size_t k = 0; k < levels.size(); ++k) {
        for (std::size_t t = 0; t < parts[k].size(); ++t) {
          Progression part = parts[k][t];
          part.count = did[k * threads + t];
          done.record(order[k], part);
        }
      }
    };
    std::barrier level_done(static_cast<std::ptrdiff_t>(threads));
    const auto body = [&](Worker& w, unsigned t, const WriteTarget& target,
                          std::atomic<bool>& stop) {
      for (std::size_t k = 0; k < levels.size(); ++k) {
        if (t < parts[k].size() && !stop.load()) {
          const std::uint64_t before = w.result.files;
          w.engine->tree(phase, target, levels[order[k]], parts[k][t], w.result, stop);
          did[k * threads + t] = w.result.files - before;
        }
        // Every thread between every two levels, whatever it did: none waits forever.
        if (k + 1 < levels.size()) level_done.arrive_and_wait();
      }
    };
    try {
      SliceResult total = run_phase(false, kNoDeadline, progress, poll_every, body);
      record();
      return total;
    } catch (...) {  // a poll that threw, once every worker finished: what they made counts
      record();
      throw;
    }
  }

  std::vector<std::uint64_t> thread_files() const override {
    std::vector<std::uint64_t> files;
    files.reserve(workers_.size());
    for (const Worker& w : workers_) files.push_back(w.result.files);
    return files;
  }

  // A descriptor lives in its worker's table, so only that worker may close it.
  void close_target() override {
    pool_.run_on_all([&](unsigned t) {
      workers_[t].directories = FileDirectories();
      workers_[t].dir_fd = UniqueFd();
    });
  }

  std::uint64_t files_done() const override {
    std::uint64_t sum = 0;
    for (const Worker& w : workers_) sum += w.done.files.load(std::memory_order_relaxed);
    return sum;
  }

  bool private_fd_tables() const override { return private_tables_.load() == pool_.size(); }

  std::optional<std::chrono::steady_clock::time_point> finished_at() const override {
    return finished_at_;
  }

 private:
  static constexpr std::chrono::steady_clock::time_point kNoDeadline =
      std::chrono::steady_clock::time_point::max();

  // What every timed phase of the pool (write, run_files, run_tree) shares: each worker's
  // --progress counter and result start from zero; one pool round runs body(worker, thread,
  // target, stop) in every worker against the open target while the calling thread runs
  // `progress`, and `stop` is set once a worker failed or the poll threw (an MPI error: the
  // workers stop at their next item, and the poll's exception reaches the caller once they
  // have); the workers' results are merged once the round is joined. A body never throws
  // (FileEngine's entry points record what fails).
  template <typename Body>
  SliceResult run_phase(bool exclusive, std::chrono::steady_clock::time_point deadline,
                        const ThreadPool::Poll& progress, std::chrono::microseconds poll_every,
                        const Body& body) {
    std::atomic<bool> stop{false};
    finished_at_.reset();
    for (Worker& w : workers_) {
      w.done.files.store(0, std::memory_order_relaxed);
      w.result.reset();
    }
    ThreadPool::Poll poll;  // empty without a poll: the pool then only waits
    if (progress) {
      poll = [&]() -> std::chrono::microseconds {
        try {
          return progress();
        } catch (...) {
          stop.store(true);
          throw;
        }
      };
    }
    pool_.run_on_all(
        [&](unsigned t) {
          Worker& w = workers_[t];
          const WriteTarget target{&w.directories, dir_path_,     exclusive,
                                   deadline,       &w.done.files, w.dir_fd.get()};
          body(w, t, target, stop);
        },
        poll, poll_every);
    finished_at_ = pool_.last_finish();  // the round's end; the caller's wake-up not in it
    SliceResult total;
    for (const Worker& w : workers_) total.merge(w.result);
    return total;
  }

  // A writer's --progress counter, alone on its cache line: the writer's store after each
  // file never shares a line with another writer's (or with what the writer reads).
  struct alignas(64) DoneCounter {
    std::atomic<std::uint64_t> files{0};
  };
  struct Worker {
    DoneCounter done;
    UniqueFd dir_fd;                     // valid in this worker's descriptor table only
    FileDirectories directories;         // the layout's directories, in this worker's table too
    SliceResult result;                  // reused: no allocation per repetition
    std::unique_ptr<FileEngine> engine;  // made, used and destroyed in this worker
  };

  FileRecipe recipe_;  // shared read-only by every worker's engine
  bool null_engine_;
  std::string dir_path_;
  bool exclusive_ = false;
  std::vector<Worker> workers_;
  std::atomic<unsigned> private_tables_{0};
  std::optional<std::chrono::steady_clock::time_point> finished_at_;  // see finished_at()
  ThreadPool pool_;  // last: its threads use the members above
};

}  // namespace

std::unique_ptr<Writer> make_writer(const WriteOptions& options) {
  return std::make_unique<PoolWriter>(options);
}

}  // namespace mpiwrite
