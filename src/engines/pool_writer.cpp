// The rank's writer: a pool of worker threads, each with a private descriptor table, that take
// their files from a WorkSource. With the uring engine each worker also owns an io_uring, made
// in that worker (its descriptor lives in the worker's table, and the ring is single-issuer).
#include <sched.h>

#include <atomic>
#include <exception>
#include <vector>

#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/thread_pool.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "uring_loop.hpp"

namespace mpiwrite {

namespace {

class PoolWriter final : public Writer {
 public:
  explicit PoolWriter(const WriteOptions& options)
      : loop_(options), workers_(options.threads),
        pool_(options.threads, [this](unsigned) {
          if (::unshare(CLONE_FILES) == 0) private_tables_.fetch_add(1);
        }) {
    pool_.run_on_all([&](unsigned t) {  // also: every worker has run its start hook
      if (options.engine == Engine::Uring) workers_[t].uring = std::make_unique<UringFileLoop>(options);
    });
  }

  // A ring is torn down by the worker that made it.
  ~PoolWriter() override {
    pool_.run_on_all([&](unsigned t) { workers_[t].uring.reset(); });
  }

  void open_target(const std::string& dir, bool exclusive) override {
    dir_path_ = dir;
    exclusive_ = exclusive;
    pool_.run_on_all([&](unsigned t) { workers_[t].dir_fd = open_directory(dir); });
  }

  SliceResult write(WorkSource& source, const std::function<void()>& progress) override {
    std::atomic<bool> stop{false};
    pool_.run_on_all(
        [&](unsigned t) {
          Worker& w = workers_[t];
          w.result.reset();
          const WriteTarget target{w.dir_fd.get(), dir_path_, exclusive_};
          // An exception is a failure like any other: recorded, and the other threads stop at
          // their next file; the ranks then agree on it at the phase boundary.
          try {
            if (w.uring) {
              w.uring->run(target, source, t, w.result, stop);
            } else {
              loop_.run(target, source, t, w.result, stop);
            }
          } catch (const std::exception& e) {
            if (!w.result.failure) w.result.failure = WriteFailure{dir_path_, 0, "write", e.what()};
            stop.store(true, std::memory_order_relaxed);
          }
        },
        progress);
    SliceResult total;
    for (const Worker& w : workers_) total.merge(w.result);
    return total;
  }

  // A descriptor lives in its worker's table, so only that worker may close it.
  void close_target() override {
    pool_.run_on_all([&](unsigned t) { workers_[t].dir_fd = UniqueFd(); });
  }

  bool private_fd_tables() const override { return private_tables_.load() == pool_.size(); }

 private:
  struct Worker {
    UniqueFd dir_fd;     // valid in this worker's descriptor table only
    SliceResult result;  // reused: no allocation per repetition
    std::unique_ptr<UringFileLoop> uring;  // the uring engine's loop and ring
  };

  FileLoop loop_;
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
