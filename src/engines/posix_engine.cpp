// The posix and null engines: for each index, open → write(s) → [fsync] → close, timed per
// file and per operation (null: the same without the system calls). One loop for both
// (write_chunks): the chunks, the stop, the deadline, the clock reads and the records are the
// same; only a file's own calls differ (PosixFile, NullFile), and those are inlined into the
// loop. This is the hot path: no allocation, one name formatted into a reused buffer, four
// clock reads per file (one more with --fsync, one more after --slow-rank's sleep), no
// virtual call.
#include "posix_engine.hpp"

#include <cerrno>
#include <chrono>

#include "directory_in_use.hpp"

namespace mpiwrite {

namespace {

using Clock = std::chrono::steady_clock;

// A posix file: its directory's descriptor while it is written, and its system calls.
class PosixFile {
 public:
  static constexpr bool kCreatesFiles = true;

  PosixFile(const FileRecipe& recipe, const WriteTarget& target)
      : recipe_(recipe), target_(target), directories_(*target.directories) {}

  // The file's directory, held while the file is written.
  using Directory = DirectoryInUse;
  Directory directory(std::uint64_t index) { return Directory(directories_, index); }

  // From the open to the close, with the clock reads of `t` after start. False: it failed
  // (recorded, and the file removed again).
  bool write(const Directory& dir, const char* name, FileTimes& t, SliceResult& result,
             std::atomic<bool>& stop) const {
    UniqueFd fd(recipe_.open(target_, dir.fd(), name));
    if (!fd) {
      record_failure(result, stop, file_failure(dir.path(), name, "open", errno));
      return false;
    }
    t.opened = Clock::now();
    int error = 0;
    if (recipe_.mode == WriteMode::Line) {
      for (std::uint64_t line = 0; line < recipe_.lines && error == 0; ++line) {
        error = write_all(fd.get(), recipe_.line.data(), recipe_.line.size());
      }
    } else {
      error = write_all(fd.get(), recipe_.whole.data(), recipe_.whole.size());
    }
    t.written = t.synced = Clock::now();
    const char* operation = "write";
    if (error == 0 && recipe_.fsync) {
      if (sys::fsync(fd.get()) != 0) {
        error = errno;
        operation = "fsync";
      }
      t.synced = Clock::now();
    }
    t.closing = t.synced;
    if (recipe_.per_file_delay_us != 0) {
      recipe_.sleep_per_file_delay();
      t.closing = Clock::now();
    }
    if (error == 0) {
      error = fd.close();
      operation = "close";
    }
    if (error != 0) {
      // A file this run could not complete is not left looking like output: removed, also
      // with --overwrite (its earlier content went when it was emptied) — if the name still
      // is this file, and not something put there since.
      unlink_if_same(dir.fd(), name, fd.get());
      record_failure(result, stop, file_failure(dir.path(), name, operation, error));
      return false;
    }
    t.end = Clock::now();
    return true;
  }

 private:
  const FileRecipe& recipe_;
  const WriteTarget& target_;
  FileDirectories& directories_;
};

// Everything but the system calls: naming, the clock reads and histograms of a posix file (its
// operations' too), so that the null engine measures mpiwrite's own per-file cost. It creates
// nothing, so it records nothing taken, and opens no directory.
class NullFile {
 public:
  static constexpr bool kCreatesFiles = false;

  NullFile(const FileRecipe& recipe, const WriteTarget& /*target*/) : recipe_(recipe) {}

  struct Directory {};
  Directory directory(std::uint64_t /*index*/) const { return {}; }

  bool write(const Directory& /*dir*/, const char* name, FileTimes& t, SliceResult& /*result*/,
             std::atomic<bool>& /*stop*/) const {
    asm volatile("" : : "r"(name) : "memory");   // keep the name from being optimized away
    t.opened = Clock::now();                     // where posix opens
    t.written = t.synced = Clock::now();         // where posix writes
    if (recipe_.fsync) t.synced = Clock::now();  // where posix syncs
    t.closing = t.synced;
    if (recipe_.per_file_delay_us != 0) {
      recipe_.sleep_per_file_delay();
      t.closing = Clock::now();
    }
    t.end = Clock::now();  // where posix closes
    return true;
  }

 private:
  const FileRecipe& recipe_;
};

// The files of `part` in order, until a failure, a stop, an interrupt or the deadline.
// Whatever way this returns, the files a creating engine took are recorded: a prefix of
// `part`, less the one that failed (its open failed, or it was removed again).
template <typename File>
void write_part(File& file, const FileRecipe& recipe, const WriteTarget& target,
                const Progression& part, FileNamer& namer, SliceResult& result,
                std::atomic<bool>& stop) {
  std::uint64_t i = 0;
  struct RecordTaken {
    const Progression& part;
    const std::uint64_t& taken;
    CreatedFiles* created;
    ~RecordTaken() {
      if (created != nullptr) created->take({part.first, taken, part.stride});
    }
  } record{part, i, File::kCreatesFiles ? &result.created : nullptr};
  for (; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || recipe.interrupted()) return;
    const std::uint64_t index = part.at(i);
    const char* name = namer.name(index);
    const typename File::Directory dir = file.directory(index);
    FileTimes t;
    t.start = Clock::now();
    // --time-limit: the file's own start clock says whether it may still be taken (no clock
    // read of its own); the files before it are the writer's prefix.
    if (t.start >= target.deadline) {
      result.time_limited = true;
      return;
    }
    if (!file.write(dir, name, t, result, stop)) return;
    record_file(result, t, recipe.fsync);
    ++result.files;
    publish_files_done(target, result.files);
    result.bytes += recipe.file_bytes;
  }
}

// The one loop of the posix and null engines: every chunk the source hands thread `thread`.
template <typename File>
void write_chunks(const FileRecipe& recipe, const WriteTarget& target, WorkSource& source,
                  unsigned thread, SliceResult& result, std::atomic<bool>& stop) {
  File file(recipe, target);
  FileNamer namer(recipe.pattern);
  Progression chunk;
  while (!stop.load(std::memory_order_relaxed) && !result.time_limited &&
         source.next(thread, chunk)) {
    write_part(file, recipe, target, chunk, namer, result, stop);
  }
}

}  // namespace

void PosixEngine::run(const WriteTarget& target, WorkSource& source, unsigned thread,
                      SliceResult& result, std::atomic<bool>& stop) {
  write_chunks<PosixFile>(recipe_, target, source, thread, result, stop);
}

void NullEngine::run(const WriteTarget& target, WorkSource& source, unsigned thread,
                     SliceResult& result, std::atomic<bool>& stop) {
  write_chunks<NullFile>(recipe_, target, source, thread, result, stop);
}

}  // namespace mpiwrite
