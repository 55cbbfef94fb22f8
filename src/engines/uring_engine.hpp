#pragma once
// The uring engine (docs/uring.md): up to --queue-depth files (or directories) in flight
// through one io_uring owned by the thread that created it, in every phase: the write loop in
// uring_engine.cpp, stat, read and remove in uring_files.cpp, the tree in uring_tree.cpp.
// Private to src/engines; made by make_engine.

#include <liburing.h>  // with <sys/stat.h>: struct statx

#include <atomic>
#include <bitset>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine.hpp"

namespace mpiwrite {

class UringEngine final : public FileEngine {
 public:
  // Creates the ring and its fixed-file table (one slot per file in flight, `queue_depth`)
  // in the calling thread, which must be the only one to use it. Throws IoError if the
  // kernel refuses. `verify_reads`: the read phase compares what it reads with the recipe.
  UringEngine(const FileRecipe& recipe, unsigned queue_depth, bool verify_reads = false);
  ~UringEngine() override;
  UringEngine(const UringEngine&) = delete;
  UringEngine& operator=(const UringEngine&) = delete;

 protected:
  // Keeps up to queue_depth files in flight, across the chunks of `source`. Stops starting
  // files at the first failure, on `stop` or on an interrupt, and returns once nothing is in
  // flight (or the ring itself failed: recorded as the failure of io_uring_enter).
  void run(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
           std::atomic<bool>& stop) override;
  // Stat (one STATX), read (OPENAT into the slot's direct descriptor, READs, CLOSE) or remove
  // (one UNLINKAT) of every file `source` hands thread `thread`, queue_depth at a time; the
  // same stops and failures as run(). Nothing is recorded in result.created.
  void run_files(Phase phase, const WriteTarget& target, WorkSource& source, unsigned thread,
                 SliceResult& result, std::atomic<bool>& stop) override;
  // MKDIRAT or UNLINKAT(AT_REMOVEDIR) of level[part.at(i)], queue_depth at a time, each in
  // its parent directory, opened component by component with O_NOFOLLOW (uring_tree.cpp).
  void run_tree(Phase phase, const WriteTarget& target, const std::vector<std::string>& level,
                const Progression& part, SliceResult& result, std::atomic<bool>& stop) override;

 private:
  using Clock = std::chrono::steady_clock;
  using Completion = void (UringEngine::*)(const io_uring_cqe&, Clock::time_point);
  // The longest chain of the other phases: a read's open, read, end-of-file read and close.
  static constexpr unsigned kItemChainSqes = 4;

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
    std::uint64_t index = 0;      // its file index (the tree: its position in the block)
    FileDirectories::Handle dir;  // its directory, held until the file is finished
    // The other phases (uring_files.cpp, uring_tree.cpp): completions still to come for its
    // chain, and what they said.
    unsigned pending = 0;
    bool at_end = false;         // a read returned 0
    bool closed = false;         // its close ran (successfully or not)
    bool cancelled = false;      // an operation was cancelled (an earlier one of its chain failed)
    bool differs = false;        // --verify: a piece read was not what was written
    bool delayed = false;        // --slow-rank: its delay is queued (after its last operation)
    std::uint64_t read = 0;      // bytes read so far
    std::uint64_t taken = 0;     // stat, read, remove: the how-manieth file the thread took
    const char* item = nullptr;  // the tree: its path below the run directory (in `level`)
    unsigned parent = 0;         // the tree: its parent directory's entry, or kRunDirectory
  };
  // The tree: a parent directory held open while directories in flight are made or removed
  // in it (uring_tree.cpp).
  struct Parent {
    UniqueFd fd;
    std::string path;  // relative to the run directory; its capacity is kept
    unsigned users = 0;
  };
  static constexpr unsigned kRunDirectory = ~0u;

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
  bool submit_and_complete(Completion on_completion);
  // The other phases (uring_files.cpp, uring_tree.cpp).
  void probe_operations();
  bool lacks_operation(Phase phase);
  void begin(const WriteTarget& target, SliceResult& result, std::atomic<bool>& stop);
  bool start_items(Phase phase, FileNamer& namer, WorkSource& source, unsigned thread);
  void queue_item(Phase phase, std::uint32_t slot);
  void queue_read(std::uint32_t slot, std::uint16_t generation, unsigned char flags,
                  std::uint64_t offset);
  void queue_item_close(std::uint32_t slot);
  bool queue_item_delay(std::uint32_t slot);
  void complete_item(const io_uring_cqe& cqe, Clock::time_point now);
  void advance_item(std::uint32_t slot);
  void fail_item(std::uint32_t slot, const char* operation, int error);
  void count_item(std::uint32_t slot);
  void note_mismatch(const Slot& slot);
  bool start_directory(Phase phase, const std::string& path, std::uint64_t position);
  int parent_of(std::string_view parent);
  void complete_directory(const io_uring_cqe& cqe, Clock::time_point now);

  const FileRecipe& recipe_;
  const bool verify_reads_;
  unsigned segment_sqes_ = 0;  // the most operations one linked chain may hold
  io_uring ring_{};
  // --slow-rank's per-item delay: a linked timeout before a written file's close, a timeout
  // after another phase's item's last completion.
  __kernel_timespec delay_{};
  std::vector<Slot> slots_;
  std::vector<char> names_;                // queue_depth names of up to kMaxNameBytes + 1
  std::vector<std::uint32_t> free_slots_;  // a stack
  std::vector<std::uint32_t> starting_;    // slots whose open goes out with the next submit
  std::bitset<256> supported_;             // the opcodes this kernel's io_uring has
  // The other phases' per-slot buffers, made at their first use (a write-only run has none).
  std::unique_ptr<struct statx[]> statx_;  // the stat phase: one per slot
  std::vector<char> read_buffers_;         // the read phase: read_bytes_ per slot
  std::size_t read_bytes_ = 0;             // min(file_bytes, 1 MiB), at least 1
  std::vector<Parent> parents_;            // the tree: one per slot
  unsigned last_parent_ = kRunDirectory;   // the parent the last directory started used
  std::vector<unsigned char> tree_done_;   // the tree: which positions of the block are done
  // Stat, read, remove: the files taken so far, and the first that failed (kNoItem: none).
  static constexpr std::uint64_t kNoItem = ~std::uint64_t{0};
  std::uint64_t items_taken_ = 0;
  std::uint64_t first_failed_ = kNoItem;

  // The current run's state.
  const WriteTarget* target_ = nullptr;
  SliceResult* result_ = nullptr;
  std::atomic<bool>* stop_ = nullptr;
  bool records_created_ = true;  // the write phase records what it took; the others do not
  Phase phase_ = Phase::Write;   // the phase of the current run_files or run_tree
  Progression chunk_;
  std::uint64_t chunk_position_ = 0;
  Clock::time_point clock_;  // the latest clock reading (run start, then each completion wait)
};

}  // namespace mpiwrite
