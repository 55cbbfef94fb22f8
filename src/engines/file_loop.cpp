// The per-thread loop: for each index, open → write(s) → [fsync] → close, timed per file.
// This is the hot path: no allocation, one name formatted into a reused buffer, two clock
// reads per file.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fmt/format.h>

#include <thread>

#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/engines/writer.hpp"

namespace mpiwrite {

namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t nanoseconds(Clock::duration d) {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

}  // namespace

FileLoop::FileLoop(const WriteOptions& options) : options_(options), line_(options.text + '\n') {
  if (options_.mode == WriteMode::Whole) {
    whole_.reserve(line_.size() * options_.lines);
    for (std::uint64_t i = 0; i < options_.lines; ++i) whole_ += line_;
  }
  // O_EXCL refuses every existing name, links included (and O_NOFOLLOW says so); --overwrite
  // opens with open_for_overwrite instead.
  exclusive_flags_ = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW;
}

bool FileLoop::interrupted() const {
  return options_.interrupt != nullptr && options_.interrupt->load(std::memory_order_relaxed) != 0;
}

void FileLoop::run(const WriteTarget& target, WorkSource& source, unsigned thread,
                   SliceResult& result, std::atomic<bool>& stop) const {
  FileNamer namer(options_.pattern);
  Progression chunk;
  while (!stop.load(std::memory_order_relaxed) && source.next(thread, chunk)) {
    if (options_.engine == Engine::Null) {
      run_null(chunk, namer, result, stop);
    } else {
      run_posix(target, chunk, namer, result, stop);
    }
  }
}

void FileLoop::run_posix(const WriteTarget& target, const Progression& part, FileNamer& namer,
                         SliceResult& result, std::atomic<bool>& stop) const {
  const std::uint64_t file_bytes = line_.size() * options_.lines;
  // Whatever way this returns, the files it took are recorded: a prefix of `part`, less the one
  // that failed (its open failed, or it was removed again).
  std::uint64_t i = 0;
  struct RecordTaken {
    const Progression& part;
    const std::uint64_t& taken;
    CreatedFiles& created;
    ~RecordTaken() { created.take({part.first, taken, part.stride}); }
  } record{part, i, result.created};
  auto fail = [&](const char* name, int error, const char* operation) {
    result.failure = WriteFailure{target.dir_path + "/" + name, error, operation, {}};
    stop.store(true, std::memory_order_relaxed);
  };
  for (; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || interrupted()) return;
    const char* name = namer.name(part.at(i));
    const Clock::time_point start = Clock::now();
    const bool rewrite = options_.overwrite && !target.exclusive;
    UniqueFd fd(rewrite ? open_for_overwrite(target.dir_fd, name, true)
                        : sys::openat(target.dir_fd, name, exclusive_flags_, 0644));
    if (!fd) {
      if (rewrite && errno == 0) {
        result.failure = WriteFailure{{}, 0, {}, fmt::format("{}/{}: open: {}", target.dir_path, name, kNotOwnFile)};
        stop.store(true, std::memory_order_relaxed);
        return;
      }
      return fail(name, errno, "open");
    }
    int error = 0;
    if (options_.mode == WriteMode::Line) {
      for (std::uint64_t line = 0; line < options_.lines && error == 0; ++line) {
        error = write_all(fd.get(), line_.data(), line_.size());
      }
    } else {
      error = write_all(fd.get(), whole_.data(), whole_.size());
    }
    const char* operation = "write";
    if (error == 0 && options_.fsync && sys::fsync(fd.get()) != 0) {
      error = errno;
      operation = "fsync";
    }
    if (options_.per_file_delay_us != 0) {
      // Sleeps in slices so that an interrupt or the end of the run is seen within 10 ms.
      for (std::uint64_t us = options_.per_file_delay_us; us > 0 && !interrupted();) {
        const std::uint64_t slice = std::min<std::uint64_t>(us, 10'000);
        std::this_thread::sleep_for(std::chrono::microseconds(slice));
        us -= slice;
      }
    }
    if (error == 0) {
      error = fd.close();
      operation = "close";
    }
    if (error != 0) {
      // A file this run could not complete is not left looking like output: removed, also with
      // --overwrite (its earlier content went when it was emptied) — if the name still is
      // this file, and not something put there since.
      unlink_if_same(target.dir_fd, name, fd.get());
      return fail(name, error, operation);
    }
    result.latency.record(nanoseconds(Clock::now() - start));
    ++result.files;
    result.bytes += file_bytes;
  }
}

// Everything but the system calls: naming, clock reads and histogram, so that the null engine
// measures mpiwrite's own per-file cost.
void FileLoop::run_null(const Progression& part, FileNamer& namer, SliceResult& result,
                        std::atomic<bool>& stop) const {
  const std::uint64_t file_bytes = line_.size() * options_.lines;
  for (std::uint64_t i = 0; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || interrupted()) return;
    const Clock::time_point start = Clock::now();
    const char* name = namer.name(part.at(i));
    asm volatile("" : : "r"(name) : "memory");  // keep the name from being optimized away
    if (options_.per_file_delay_us != 0) {
      std::this_thread::sleep_for(std::chrono::microseconds(options_.per_file_delay_us));
    }
    result.latency.record(nanoseconds(Clock::now() - start));
    ++result.files;
    result.bytes += file_bytes;
  }
}

WriteOptions write_options_from(const RunConfig& c) {
  WriteOptions o;
  o.pattern = parse_pattern(c.pattern);
  o.lines = c.lines;
  o.text = c.text;
  o.mode = c.write_mode;
  o.fsync = c.fsync;
  o.overwrite = c.overwrite;
  o.engine = c.engine;
  o.queue_depth = c.queue_depth;
  o.threads = c.threads;
  return o;
}

std::string WriteFailure::message() const {
  if (!text.empty()) return text;
  return fmt::format("{}: {}: {}", path, operation, std::generic_category().message(errno_value));
}

void SliceResult::merge(const SliceResult& other) {
  files += other.files;
  bytes += other.bytes;
  latency.merge(other.latency);
  if (!failure) failure = other.failure;
  created.merge(other.created);
}

void SliceResult::reset() {
  files = bytes = 0;
  latency = LatencyHistogram{};
  failure.reset();
  created.clear();
}

}  // namespace mpiwrite
