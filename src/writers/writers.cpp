// The two ways a rank drives FileLoop: on its own thread, or on a pool of worker threads that
// split the rank's slice with the same partition rule the ranks use.
#include <vector>

#include "mpiwrite/thread_pool.hpp"
#include "mpiwrite/writer.hpp"

namespace mpiwrite {

namespace {

class SequentialWriter final : public Writer {
 public:
  explicit SequentialWriter(const WriteOptions& options) : loop_(options) {}

  SliceResult write(const WriteTarget& target, const Progression& slice) override {
    SliceResult result;
    std::atomic<bool> stop{false};
    loop_.run(target, slice, result, stop);
    return result;
  }

 private:
  FileLoop loop_;
};

class ThreadPoolWriter final : public Writer {
 public:
  explicit ThreadPoolWriter(const WriteOptions& options)
      : loop_(options), partition_(options.partition), pool_(options.threads),
        results_(options.threads) {}

  SliceResult write(const WriteTarget& target, const Progression& slice) override {
    std::atomic<bool> stop{false};
    const unsigned threads = pool_.size();
    for (SliceResult& r : results_) r = SliceResult{};
    pool_.run_on_all([&](unsigned t) {
      loop_.run(target, split(slice, threads, t, partition_), results_[t], stop);
    });
    SliceResult total;
    for (const SliceResult& r : results_) total.merge(r);
    return total;
  }

 private:
  FileLoop loop_;
  Partition partition_;
  ThreadPool pool_;
  std::vector<SliceResult> results_;  // one per worker, reused: no allocation per repetition
};

}  // namespace

std::unique_ptr<Writer> make_writer(const WriteOptions& options) {
  if (options.threads <= 1) return std::make_unique<SequentialWriter>(options);
  return std::make_unique<ThreadPoolWriter>(options);
}

}  // namespace mpiwrite
