#pragma once
// The engine seam (private to src/engines): what every file is and how it is opened
// (FileRecipe, built once per writer), the per-thread interface every engine implements
// (FileEngine: posix, null, uring), the one place that picks the engine (make_engine), and
// the one way engines report a failure (record_failure). The pool (pool_writer.cpp) runs an
// engine per worker without knowing which.

#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/core/work_source.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/sys/file_directories.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

// Where one writer thread writes: the run directory's path (for messages), and the
// descriptors of the layout's directories in that thread's descriptor table (every file in
// the run directory itself with the flat layout). `exclusive`: see Writer::open_target.
// `deadline` (--time-limit): no file is started at or after it (see Writer::write).
// `files_done` (if given): this thread's files so far, stored (relaxed) after every file, for
// --progress; on its own cache line, read by the rank's main thread at the interval.
struct WriteTarget {
  FileDirectories* directories = nullptr;
  std::string dir_path;
  bool exclusive = false;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::atomic<std::uint64_t>* files_done = nullptr;
  int dir_fd = -1;  // the run directory itself, in this thread's table (the tree phases)
};

// The one thing an engine does for --progress, after counting a file in result.files.
inline void publish_files_done(const WriteTarget& target, std::uint64_t files) {
  if (target.files_done != nullptr) target.files_done->store(files, std::memory_order_relaxed);
}

// Every file of a run: its name, its bytes, and how it is opened, set up once from the
// options and shared read-only by every engine of a writer.
struct FileRecipe {
  explicit FileRecipe(const WriteOptions& options);

  // Whether files in `target` are rewritten in place (--overwrite, not an exclusive step):
  // opened by open_for_overwrite, which checks what it opened. Otherwise every file is new.
  bool rewrites(const WriteTarget& target) const { return overwrite && !target.exclusive; }
  // How a new file is created: O_EXCL refuses every existing name, links included (and
  // O_NOFOLLOW says so). A regular descriptor adds O_CLOEXEC; an io_uring direct descriptor
  // cannot (the kernel refuses it there, and no exec can inherit one).
  static constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;
  // Opens file `name` of `target` in directory `dir_fd` into a regular descriptor, as the run
  // opens its files: rewritten, or created new. -1 and errno on failure; errno 0: a name
  // --overwrite refuses.
  int open(const WriteTarget& target, int dir_fd, const char* name) const {
    return rewrites(target) ? open_for_overwrite(dir_fd, name, true)
                            : sys::openat(dir_fd, name, kCreateFlags | O_CLOEXEC, 0644);
  }
  bool interrupted() const {
    return interrupt != nullptr && interrupt->load(std::memory_order_relaxed) != 0;
  }
  // --slow-rank's per-item sleep for the posix and null engines, in every phase (uring waits
  // in the ring): in slices of at most 10 ms, so an interrupt is seen within 10 ms. No-op
  // without a delay.
  void sleep_per_file_delay() const;
  // The read phase with --verify (WriteOptions::verify_reads): whether `data`, read from
  // offset `offset` of a file, is what the write phase put there; `size` the whole file's
  // bytes as read. A file is right when every piece matches and size == file_bytes.
  bool content_matches(std::uint64_t offset, std::string_view data) const;

  // The bytes of the write() call that writes `offset` (< file_bytes) of a file, from there to
  // the end of that call's piece: pieces are write_bytes long from offset 0, the last one cut
  // at file_bytes. After a short write the rest of its piece follows (the uring engine's).
  std::string_view piece(std::uint64_t offset) const {
    const std::uint64_t end = std::min(file_bytes, (offset / write_bytes + 1) * write_bytes);
    return {content.data() + offset % line.size(), static_cast<std::size_t>(end - offset)};
  }

  FilePattern pattern;
  std::string line;  // text + '\n'
  std::uint64_t file_bytes;
  std::uint64_t write_bytes;  // per write() call, at least 1 (core/file_bytes.hpp)
  std::uint64_t writes;       // write() calls per file: 0 for an empty file
  // `line` repeated, made once: at least write_bytes + line.size() - 1 bytes (no more than the
  // file needs), so every piece is one run of it, whatever line offset it starts at. Empty
  // when the rank writes nothing.
  std::string content;
  bool fsync;
  bool overwrite;
  // --slow-rank, inside each item's time: a written file's before its close, every other
  // phase's item after its last call (posix_phases.cpp, uring_files.cpp, uring_tree.cpp).
  std::uint64_t per_file_delay_us;
  const std::atomic<int>* interrupt;
  bool verify_reads;  // the read phase compares what it reads (WriteOptions::verify_reads)
};

// A file's time for its latency histogram (every engine times open → close the same way).
inline std::uint64_t nanoseconds(std::chrono::steady_clock::duration d) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

// The clock reads of one file (steady_clock), shared between adjacent operations: the end of
// one is the start of the next where nothing runs between them. `synced` is `written` without
// --fsync; `closing` (the close's start) is `synced` unless --slow-rank's sleep runs between.
// posix and null read the clock between the calls; uring at the submission and at each
// completion (docs/metrics.md, "Per-operation latency").
struct FileTimes {
  std::chrono::steady_clock::time_point start, opened, written, synced, closing, end;
};

// Records a completed file: its latency (start → end) and each operation's. Called once per
// file that counts, so every histogram's count is the files' (fsync's only with --fsync).
// An empty file (--file-size 0) makes no write(): its writes are recorded as 0 ns (written ==
// opened), so the writes' count stays the files'.
inline void record_file(SliceResult& result, const FileTimes& t, bool fsync) {
  result.latency.record(nanoseconds(t.end - t.start));
  result.operations.record(Operation::Create, nanoseconds(t.opened - t.start));
  result.operations.record(Operation::Writes, nanoseconds(t.written - t.opened));
  if (fsync) result.operations.record(Operation::Fsync, nanoseconds(t.synced - t.written));
  result.operations.record(Operation::Close, nanoseconds(t.end - t.closing));
}

// One writer thread's engine. Made in, used by and destroyed in that thread only.
class FileEngine {
 public:
  virtual ~FileEngine() = default;
  // Writes every file `source` hands thread `thread` into `target`, adding to `result`. Stops
  // at the first failure, on `stop` or on an interrupt. Never throws: a failed system call,
  // and anything thrown on the way (the work source, the ring), is recorded in
  // result.failure (record_failure), which also sets `stop` for the other threads. Every
  // file it took is in result.created, less those it did not create or removed again.
  void write(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
             std::atomic<bool>& stop) noexcept;
  // The same for Writer::run_files' phases (stat, read, remove) over the files of `target`.
  void files(Phase phase, const WriteTarget& target, WorkSource& source, unsigned thread,
             SliceResult& result, std::atomic<bool>& stop) noexcept;
  // One thread's block `part` (positions in `level`) of one level of Writer::run_tree: makes
  // or removes each directory, relative to the target's run directory.
  void tree(Phase phase, const WriteTarget& target, const std::vector<std::string>& level,
            const Progression& part, SliceResult& result, std::atomic<bool>& stop) noexcept;

 protected:
  // The engine's loops, one per kind of phase: one virtual call per run, none per file. Every
  // engine has all three. May throw (write(), files() and tree() record it). A phase a loop is
  // not for (run_files given write) is recorded as wrong_phase_failure.
  virtual void run(const WriteTarget& target, WorkSource& source, unsigned thread,
                   SliceResult& result, std::atomic<bool>& stop) = 0;
  virtual void run_files(Phase phase, const WriteTarget& target, WorkSource& source,
                         unsigned thread, SliceResult& result, std::atomic<bool>& stop) = 0;
  virtual void run_tree(Phase phase, const WriteTarget& target,
                        const std::vector<std::string>& level, const Progression& part,
                        SliceResult& result, std::atomic<bool>& stop) = 0;
};

// The one choice of engine: options.engine (the one switch on it; creates_files, writer.hpp,
// says beside it what each engine leaves on disk). Call it in the thread that will use the
// engine (the uring engine's ring belongs to it). `recipe` must outlive the engine. Throws IoError
// if the engine cannot start.
std::unique_ptr<FileEngine> make_engine(const WriteOptions& options, const FileRecipe& recipe);
// The uring engine, for make_engine: defined in uring_engine.cpp, or in uring_absent.cpp (which
// throws std::logic_error: validate() refuses --engine uring first) in a build without io_uring.
std::unique_ptr<FileEngine> make_uring_engine(const FileRecipe& recipe, unsigned queue_depth,
                                              bool verify_reads);

// Keeps the thread's first failure, and tells the other threads to stop at their next file.
void record_failure(SliceResult& result, std::atomic<bool>& stop, WriteFailure failure);
// The failure of a phase that engine loop `hook` ("run_files", "run_tree") is not for: a
// caller's mistake, named like any other failure.
WriteFailure wrong_phase_failure(const WriteTarget& target, Phase phase, std::string_view hook);
// The failure of `operation` on file `name` in directory `dir_path` with errno `error`;
// error 0 (only from open_for_overwrite): the name is not a file --overwrite may write.
WriteFailure file_failure(const std::string& dir_path, const char* name, const char* operation,
                          int error);

}  // namespace mpiwrite
