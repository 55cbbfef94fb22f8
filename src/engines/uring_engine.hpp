#pragma once
// The uring engine (docs/uring.md): up to --queue-depth files in flight through one io_uring
// owned by the thread that created it. Private to src/engines; made by make_engine.

#include <liburing.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "engine.hpp"

namespace mpiwrite {

class UringEngine final : public FileEngine {
 public:
  // Creates the ring and its fixed-file table (one slot per file in flight, `queue_depth`)
  // in the calling thread, which must be the only one to use it. Throws IoError if the
  // kernel refuses.
  UringEngine(const FileRecipe& recipe, unsigned queue_depth);
  ~UringEngine() override;
  UringEngine(const UringEngine&) = delete;
  UringEngine& operator=(const UringEngine&) = delete;

 protected:
  // Keeps up to queue_depth files in flight, across the chunks of `source`. Stops starting
  // files at the first failure, on `stop` or on an interrupt, and returns once nothing is in
  // flight (or the ring itself failed: recorded as the failure of io_uring_enter).
  void run(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
           std::atomic<bool>& stop) override;

 private:
  using Clock = std::chrono::steady_clock;

  // One file in flight, in fixed-file slot number `this - slots_.data()`.
  struct Slot {
    bool busy = false;
    bool opened = false;           // known to be open in its fixed slot (a later operation ran)
    bool failed = false;           // being closed and removed after a failure
    std::uint16_t generation = 0;  // tags its current chain; older completions are stale
    std::uint64_t written = 0;     // bytes the kernel confirmed
    // Its clock reads (FileTimes): `start` just before the submission that carried its open,
    // then the time each operation's completion was seen (one clock read per batch of them).
    FileTimes times;
    char* name = nullptr;         // its file name, in names_
    std::uint64_t index = 0;      // its file index
    FileDirectories::Handle dir;  // its directory, held until the file is finished
  };

  bool next_index(WorkSource& source, unsigned thread, std::uint64_t& index);
  io_uring_sqe* take_sqe();
  void queue_segment(std::uint32_t slot, bool first);
  void queue_cleanup_close(std::uint32_t slot);
  bool open_to_rewrite(std::uint32_t slot);
  void release_slot(std::uint32_t slot);
  const std::string& directory_path(const Slot& slot) const;
  void complete(const io_uring_cqe& cqe, Clock::time_point now);
  void mark_failed(std::uint32_t slot, const char* operation, int error);
  void fail(std::uint32_t slot, const char* operation, int error);
  void fail_closed(std::uint32_t slot, int error);
  void finish(std::uint32_t slot);
  bool start_files(FileNamer& namer, WorkSource& source, unsigned thread);
  bool submit_and_complete();

  const FileRecipe& recipe_;
  unsigned segment_sqes_ = 0;  // the most operations one linked chain may hold
  io_uring ring_{};
  __kernel_timespec delay_{};  // --slow-rank's per-file delay, as a linked timeout
  std::vector<Slot> slots_;
  std::vector<char> names_;                // queue_depth names of up to kMaxNameBytes + 1
  std::vector<std::uint32_t> free_slots_;  // a stack
  std::vector<std::uint32_t> starting_;    // slots whose open goes out with the next submit

  // The current run's state.
  const WriteTarget* target_ = nullptr;
  SliceResult* result_ = nullptr;
  std::atomic<bool>* stop_ = nullptr;
  Progression chunk_;
  std::uint64_t chunk_position_ = 0;
  Clock::time_point clock_;  // the latest clock reading (run start, then each completion wait)
};

}  // namespace mpiwrite
