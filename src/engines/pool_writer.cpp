// The rank's writer: a pool of worker threads, each with a private descriptor table and its
// own engine, that take their files from a WorkSource. The pool does not know which engine it
// runs: each worker makes its engine (make_engine) in its own thread, so that what the engine
// holds (the uring engine's ring) lives in that worker's table, and tears it down there.
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

#include "engine.hpp"
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
                   const std::vector<Progression>* thread_files) override {
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
      }
    });
  }

  SliceResult write(WorkSource& source, const ThreadPool::Poll& progress,
                    std::chrono::microseconds poll_every,
                    std::chrono::steady_clock::time_point deadline) override {
    std::atomic<bool> stop{false};
    for (Worker& w : workers_) w.done.files.store(0, std::memory_order_relaxed);
    pool_.run_on_all(
        [&](unsigned t) {
          Worker& w = workers_[t];
          w.result.reset();
          const WriteTarget target{&w.directories, dir_path_, exclusive_, deadline, &w.done.files};
          w.engine->write(target, source, t, w.result, stop);  // never throws
        },
        progress, poll_every);
    SliceResult total;
    for (const Worker& w : workers_) total.merge(w.result);
    return total;
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

 private:
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
  ThreadPool pool_;  // last: its threads use the members above
};

}  // namespace

std::unique_ptr<Writer> make_writer(const WriteOptions& options) {
  return std::make_unique<PoolWriter>(options);
}

}  // namespace mpiwrite
