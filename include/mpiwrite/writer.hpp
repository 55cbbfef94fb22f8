#pragma once
// Writer backends: write a rank's slice of files into one directory and record what happened.
// Writers record; the coordinator (app.cpp) decides. A failed file is never counted.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "mpiwrite/config.hpp"
#include "mpiwrite/file_namer.hpp"
#include "mpiwrite/histogram.hpp"
#include "mpiwrite/progression.hpp"

namespace mpiwrite {

// The slice of RunConfig the writers need.
struct WriteOptions {
  FilePattern pattern;
  std::uint64_t lines = 100;
  std::string text = "Hello, world!";
  WriteMode mode = WriteMode::Line;
  bool fsync = false;
  bool overwrite = false;  // O_TRUNC an existing file instead of O_EXCL creation
  Engine engine = Engine::Posix;
  unsigned threads = 1;
  Partition partition = Partition::Block;  // how threads split the rank's slice
};
WriteOptions write_options_from(const RunConfig& config);

// The first failure seen: "PATH: OPERATION: strerror".
struct WriteFailure {
  std::string path;
  int errno_value = 0;
  std::string operation;
  std::string message() const;
};

struct SliceResult {
  std::uint64_t files = 0;  // written, synced if asked, and closed without error
  std::uint64_t bytes = 0;
  LatencyHistogram latency;  // open → close per successful file, nanoseconds
  std::optional<WriteFailure> failure;
  void merge(const SliceResult& other);  // keeps this failure if both have one
};

// Where one repetition writes: an open directory and its path (for messages only).
struct WriteTarget {
  int dir_fd = -1;
  std::string dir_path;
};

class Writer {
 public:
  virtual ~Writer() = default;
  // Writes every index of `slice`. Stops at the first failure (other threads stop at their
  // next file). Never throws for I/O errors: they come back in SliceResult::failure.
  virtual SliceResult write(const WriteTarget& target, const Progression& slice) = 0;
};

// threads == 1: the calling thread writes sequentially; otherwise a persistent pool of
// `threads` workers, created here, outside any timed phase.
std::unique_ptr<Writer> make_writer(const WriteOptions& options);

// The per-thread loop every writer runs over its part (writers/file_loop.cpp).
class FileLoop {
 public:
  explicit FileLoop(const WriteOptions& options);
  void run(const WriteTarget& target, const Progression& part, SliceResult& result,
           std::atomic<bool>& stop) const;

 private:
  void run_posix(const WriteTarget& target, const Progression& part, SliceResult& result,
                 std::atomic<bool>& stop) const;
  void run_null(const Progression& part, SliceResult& result, std::atomic<bool>& stop) const;

  WriteOptions options_;
  std::string line_;   // text + '\n'
  std::string whole_;  // the whole file, only in Whole mode
  int open_flags_ = 0;
};

}  // namespace mpiwrite
