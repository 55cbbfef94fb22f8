// The posix and null engines: for each index, open → write(s) → [fsync] → close, timed per
// file and per operation (null: the same without the system calls). This is the hot path: no
// allocation, one name formatted into a reused buffer, four clock reads per file (one more
// with --fsync, one more after --slow-rank's sleep), no virtual call.
#include "posix_engine.hpp"

#include <cerrno>
#include <chrono>

namespace mpiwrite {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

void PosixEngine::run(const WriteTarget& target, WorkSource& source, unsigned thread,
                      SliceResult& result, std::atomic<bool>& stop) {
  FileNamer namer(recipe_.pattern);
  Progression chunk;
  while (!stop.load(std::memory_order_relaxed) && !result.time_limited &&
         source.next(thread, chunk)) {
    write_part(target, chunk, namer, result, stop);
  }
}

void PosixEngine::write_part(const WriteTarget& target, const Progression& part,
                             FileNamer& namer, SliceResult& result,
                             std::atomic<bool>& stop) const {
  // Whatever way this returns, the files it took are recorded: a prefix of `part`, less the one
  // that failed (its open failed, or it was removed again).
  std::uint64_t i = 0;
  struct RecordTaken {
    const Progression& part;
    const std::uint64_t& taken;
    CreatedFiles& created;
    ~RecordTaken() { created.take({part.first, taken, part.stride}); }
  } record{part, i, result.created};
  FileDirectories& directories = *target.directories;
  for (; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || recipe_.interrupted()) return;
    const std::uint64_t index = part.at(i);
    const char* name = namer.name(index);
    // The file's directory (opened here when the layout moves on to a new one: a phase cost,
    // outside the file's own time). Throws IoError: FileEngine::write records it.
    const FileDirectories::Handle dir = directories.acquire(index);
    struct Release {
      FileDirectories& directories;
      const FileDirectories::Handle& dir;
      ~Release() { directories.release(dir); }
    } release{directories, dir};
    FileTimes t;
    t.start = Clock::now();
    // --time-limit: the file's own start clock says whether it may still be taken (no clock
    // read of its own); the files before it are the writer's prefix.
    if (t.start >= target.deadline) {
      result.time_limited = true;
      return;
    }
    UniqueFd fd(recipe_.open(target, dir.fd, name));
    if (!fd) {
      return record_failure(result, stop,
                            file_failure(directories.path(dir), name, "open", errno));
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
      // A file this run could not complete is not left looking like output: removed, also with
      // --overwrite (its earlier content went when it was emptied) — if the name still is
      // this file, and not something put there since.
      unlink_if_same(dir.fd, name, fd.get());
      return record_failure(result, stop,
                            file_failure(directories.path(dir), name, operation, error));
    }
    t.end = Clock::now();
    record_file(result, t, recipe_.fsync);
    ++result.files;
    publish_files_done(target, result.files);
    result.bytes += recipe_.file_bytes;
  }
}

void NullEngine::run(const WriteTarget& target, WorkSource& source, unsigned thread,
                     SliceResult& result, std::atomic<bool>& stop) {
  FileNamer namer(recipe_.pattern);
  Progression chunk;
  while (!stop.load(std::memory_order_relaxed) && !result.time_limited &&
         source.next(thread, chunk)) {
    write_part(target, chunk, namer, result, stop);
  }
}

// Everything but the system calls: naming, the clock reads and histograms of a posix file (its
// operations' too), so that the null engine measures mpiwrite's own per-file cost. It creates
// nothing, so it records nothing taken.
void NullEngine::write_part(const WriteTarget& target, const Progression& part,
                            FileNamer& namer, SliceResult& result,
                            std::atomic<bool>& stop) const {
  for (std::uint64_t i = 0; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || recipe_.interrupted()) return;
    FileTimes t;
    t.start = Clock::now();
    if (t.start >= target.deadline) {  // --time-limit, as the posix engine
      result.time_limited = true;
      return;
    }
    const char* name = namer.name(part.at(i));
    asm volatile("" : : "r"(name) : "memory");  // keep the name from being optimized away
    t.opened = Clock::now();                      // where posix opens
    t.written = t.synced = Clock::now();          // where posix writes
    if (recipe_.fsync) t.synced = Clock::now();   // where posix syncs
    t.closing = t.synced;
    if (recipe_.per_file_delay_us != 0) {
      recipe_.sleep_per_file_delay();
      t.closing = Clock::now();
    }
    t.end = Clock::now();                         // where posix closes
    record_file(result, t, recipe_.fsync);
    ++result.files;
    publish_files_done(target, result.files);
    result.bytes += recipe_.file_bytes;
  }
}

}  // namespace mpiwrite
