#pragma once
// A rank's writer: writes the files a WorkSource hands its threads into one directory and
// records what happened. Writers record; the coordinator (src/app) decides. A failed file is
// never counted. Which engine (posix, uring, null) does the I/O is decided once, by
// make_engine (src/engines/engine.cpp); the engines are private to src/engines.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/created_files.hpp"
#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/engine_options.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/histogram.hpp"
#include "mpiwrite/core/operation_latency.hpp"
#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/tree_progress.hpp"
#include "mpiwrite/core/work_source.hpp"
#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/thread_pool.hpp"

namespace mpiwrite {

// What a rank's writer needs: its point's engine options (PointPlan::engine, the same on
// every rank of the point), with queue_depth this rank's ring depth, and what only this rank
// knows.
struct WriteOptions : EngineOptions {
  // This rank writes no file (its plan gives every thread an empty share): --write-mode whole
  // then keeps no copy of the file's content (up to 1 GiB) for writes that never come.
  bool writes_nothing = false;
  // --slow-rank: a sleep in every phase's item, inside its time (a written file's before
  // its close, another phase's item after its last call).
  std::uint64_t per_file_delay_us = 0;
  const std::atomic<int>* interrupt = nullptr;  // non-zero: stop before the next file
  // --verify with the read phase: every read compares the file's content with what the
  // write phase wrote (SliceResult::mismatches), inside the read phase's time.
  bool verify_reads = false;
};

// Directories a writer thread opens before the timed phase (FileDirectories::preopen): half
// the descriptor limit (RLIMIT_NOFILE, often 1024-4096 on clusters) shared by the rank's
// threads, at most kMaxPreopenedDirectories each.
inline constexpr std::size_t kMaxPreopenedDirectories = 4096;

// The first failure seen: "PATH: OPERATION: strerror", or `text` for a failure that is not
// one system call (an exception in a writer thread, a name --overwrite refuses).
struct WriteFailure {
  std::string path;
  int errno_value = 0;
  std::string operation;
  std::string text;
  std::string message() const;
};

struct SliceResult {
  std::uint64_t files = 0;  // written, synced if asked, and closed without error
  std::uint64_t bytes = 0;
  LatencyHistogram latency;        // open → close per successful file, nanoseconds
  OperationHistograms operations;  // the same files' create, writes, fsync, close
  std::optional<WriteFailure> failure;
  // --time-limit: a writer reached the deadline with files of its share still to write.
  bool time_limited = false;
  CreatedFiles created;  // what this run created (removal goes by it, never by the pattern)
  // The read phase with --verify: files whose content was not what was written, and the
  // first few of them described ("PATH: N bytes, expected M"). Not a failure: the phase
  // reads on, and the coordinator says how many were wrong.
  std::uint64_t mismatches = 0;
  std::vector<std::string> problems;
  void merge(const SliceResult& other);  // keeps this failure if both have one
  void reset();  // empties it for the next step, keeping the memory of `created`
};

// A rank's writer: a pool of `threads` worker threads (1 = sequential), started once, outside
// any timed phase, each running its own engine. Each worker gives itself a private file
// descriptor table (unshare(CLONE_FILES)): every MPI rank is a multi-threaded process (Open
// MPI starts helper threads), and with a shared table the kernel takes a reference and the
// file's f_pos_lock on every write(), about 10% of a 14-byte write. With a private table each
// writer gets the single-threaded fast path. The main thread, which MPI uses, keeps the
// shared table.
class Writer {
 public:
  virtual ~Writer() = default;
  // Untimed: every writer thread opens `dir` in its own table. Throws IoError. `exclusive`:
  // create every file with O_EXCL even with --overwrite, for a step whose names must all be
  // new (--overwrite --cleanup's first step into --dir), so that a file put at a name during
  // the run is refused rather than rewritten and removed. `layout` (kept by the caller until
  // close_target; nullptr: every file in `dir`): which of its subdirectories holds each file;
  // they exist already. `thread_files` (each thread's files as progressions, where known
  // before the phase: a static partition's write, the later phases' shares, with
  // --random-order the whole share): each thread opens the directories of its files here,
  // untimed, up to its share of the descriptors (see kMaxPreopenedDirectories; the rest as it
  // reaches them). Without it (a dynamic write; the tree phases, which pass no layout), a
  // thread keeps every directory it opens, up to the same share.
  // `dir` is reached from a directory the run holds (held_directory.hpp), whose descriptor
  // was open before the writer threads started (each copied it into its own table).
  virtual void open_target(
      const DirectoryAt& dir, bool exclusive = false, const DirectoryLayout* layout = nullptr,
      const std::vector<std::span<const Progression>>* thread_files = nullptr) = 0;
  // Timed: every writer thread writes what `source` hands it into the open target. Stops at
  // the first failure (other threads stop at their next file). Never throws: I/O errors, and
  // anything a writer thread threw (e.g. the work source), come back in
  // SliceResult::failure. If `progress` is given, the calling thread runs it until the
  // writers finish, first after `poll_every`, then after what it returns (a dynamic source
  // needs MPI progress on the main thread every 50 µs; --progress far less often). `deadline`
  // (--time-limit): a writer starts no file at or after it (each engine compares the clock it reads
  // at a file's start anyway), and SliceResult::time_limited says whether one stopped there. What
  // each thread wrote is then a prefix of what it took.
  virtual SliceResult write(WorkSource& source, const ThreadPool::Poll& progress = {},
                            std::chrono::microseconds poll_every = std::chrono::microseconds(50),
                            std::chrono::steady_clock::time_point deadline =
                                std::chrono::steady_clock::time_point::max()) = 0;
  // Timed: every writer thread runs `phase` (Phase::Stat, Read or Remove) over the files
  // `source` hands it, in the target open_target opened (the layout says each file's
  // directory). Per file: stat, one statx; read, open read-only (O_NOFOLLOW), read to the end
  // of the file, close (with WriteOptions::verify_reads comparing the content); remove, one
  // unlinkat. SliceResult counts the files done (`files`), the bytes read, the latency of each
  // file and of each of its operations (operations_of(phase)); a failure stops the phase as
  // in write() (a file missing is "PATH: stat: No such file or directory"). Never throws.
  // `created` stays empty; for Remove the files removed are those counted, a prefix of each
  // thread's share (what failed stays).
  virtual SliceResult run_files(Phase phase, WorkSource& source,
                                const ThreadPool::Poll& progress = {},
                                std::chrono::microseconds poll_every =
                                    std::chrono::microseconds(50)) = 0;
  // Timed: makes (Phase::TreeCreate) or removes (Phase::TreeRemove) directories below the open
  // target (open_target with no layout): `levels` as they are made, parents first (removal
  // walks them deepest level first). Each level's directories are split over the threads in
  // contiguous blocks, the threads meeting at a barrier after each level (one pool round in
  // all), so a parent exists before its children are made and is empty before it is removed.
  // mkdirat(…, 0755) / unlinkat(…, AT_REMOVEDIR) per directory; `files` counts the
  // directories, the latency is per directory (mkdir or rmdir).
  // Stops at the first failure; `done` says which directories were made (or removed), also
  // when it stopped part-way: done.paths(levels), relative to the target. Never throws.
  virtual SliceResult run_tree(Phase phase, const std::vector<std::vector<std::string>>& levels,
                               TreeProgress& done,
                               const ThreadPool::Poll& progress = {},
                               std::chrono::microseconds poll_every =
                                   std::chrono::microseconds(50)) = 0;
  // The files each writer thread wrote in the last write(), by thread.
  virtual std::vector<std::uint64_t> thread_files() const = 0;
  // The files this rank's writers have completed so far in the current write (0 before the
  // first). Safe from the calling thread while write() runs: relaxed reads of one counter
  // per writer thread, each on its own cache line, which the writer stores after each file.
  virtual std::uint64_t files_done() const = 0;
  // When the last write(), run_files() or run_tree() ended: its last writer thread's finish
  // (steady_clock, read by that thread), not the caller's return, which comes one thread
  // wake-up later (20-70 us on the project's VM). Empty before the first, and from the start
  // of each of them until it returns.
  virtual std::optional<std::chrono::steady_clock::time_point> finished_at() const = 0;
  // Untimed: closes the target in every writer thread.
  virtual void close_target() = 0;
  // Whether every writer thread got its private descriptor table (false: they share the
  // process's, which is correct, only slower).
  virtual bool private_fd_tables() const = 0;
};

// Throws IoError if the engine cannot start (the uring engine's ring, in each worker).
std::unique_ptr<Writer> make_writer(const WriteOptions& options);

// Whether `engine` creates files and directories (the null engine creates none): what the
// run's creation ledger is told, beside make_engine's one switch on the engine.
bool creates_files(Engine engine);

}  // namespace mpiwrite
