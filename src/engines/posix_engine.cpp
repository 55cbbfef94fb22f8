// The posix and null engines: for each index, open → write(s) → [fsync] → close, timed per
// file (null: the same without the system calls). This is the hot path: no allocation, one
// name formatted into a reused buffer, two clock reads per file, no virtual call.
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
  while (!stop.load(std::memory_order_relaxed) && source.next(thread, chunk)) {
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
    const Clock::time_point start = Clock::now();
    UniqueFd fd(recipe_.open(target, dir.fd, name));
    if (!fd) {
      return record_failure(result, stop,
                            file_failure(directories.path(dir), name, "open", errno));
    }
    int error = 0;
    if (recipe_.mode == WriteMode::Line) {
      for (std::uint64_t line = 0; line < recipe_.lines && error == 0; ++line) {
        error = write_all(fd.get(), recipe_.line.data(), recipe_.line.size());
      }
    } else {
      error = write_all(fd.get(), recipe_.whole.data(), recipe_.whole.size());
    }
    const char* operation = "write";
    if (error == 0 && recipe_.fsync && sys::fsync(fd.get()) != 0) {
      error = errno;
      operation = "fsync";
    }
    if (recipe_.per_file_delay_us != 0) recipe_.sleep_per_file_delay();
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
    result.latency.record(nanoseconds(Clock::now() - start));
    ++result.files;
    publish_files_done(target, result.files);
    result.bytes += recipe_.file_bytes;
  }
}

void NullEngine::run(const WriteTarget& target, WorkSource& source, unsigned thread,
                     SliceResult& result, std::atomic<bool>& stop) {
  FileNamer namer(recipe_.pattern);
  Progression chunk;
  while (!stop.load(std::memory_order_relaxed) && source.next(thread, chunk)) {
    write_part(target, chunk, namer, result, stop);
  }
}

// Everything but the system calls: naming, clock reads and histogram, so that the null engine
// measures mpiwrite's own per-file cost. It creates nothing, so it records nothing taken.
void NullEngine::write_part(const WriteTarget& target, const Progression& part,
                            FileNamer& namer, SliceResult& result,
                            std::atomic<bool>& stop) const {
  for (std::uint64_t i = 0; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || recipe_.interrupted()) return;
    const Clock::time_point start = Clock::now();
    const char* name = namer.name(part.at(i));
    asm volatile("" : : "r"(name) : "memory");  // keep the name from being optimized away
    if (recipe_.per_file_delay_us != 0) recipe_.sleep_per_file_delay();
    result.latency.record(nanoseconds(Clock::now() - start));
    ++result.files;
    publish_files_done(target, result.files);
    result.bytes += recipe_.file_bytes;
  }
}

}  // namespace mpiwrite
