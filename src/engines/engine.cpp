// The engine seam: the file recipe, the one choice of engine, and the one way failures are
// recorded (engine.hpp).
#include "engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

#include "posix_engine.hpp"

namespace mpiwrite {

FileRecipe::FileRecipe(const WriteOptions& options)
    : pattern(options.pattern),
      line(options.text + '\n'),
      file_bytes(options.bytes().file),
      write_bytes(std::max<std::uint64_t>(1, options.bytes().write)),
      writes(options.bytes().writes()),
      fsync(options.fsync),
      overwrite(options.overwrite),
      per_file_delay_us(options.per_file_delay_us),
      interrupt(options.interrupt),
      verify_reads(options.verify_reads) {
  if (!options.writes_nothing && file_bytes > 0) {
    const std::uint64_t wanted = std::min(write_bytes, file_bytes) + line.size() - 1;
    content.reserve(wanted + line.size());
    while (content.size() < wanted) content += line;
  }
}

namespace {

// Runs one of an engine's loops: an exception is a failure like any other, recorded as the
// failure of `operation` in the target's directory, and the other threads stop at their next
// item; the ranks then agree on it at the phase boundary.
template <typename Body>
void run_recorded(const WriteTarget& target, std::string_view operation, SliceResult& result,
                  std::atomic<bool>& stop, Body&& body) noexcept {
  try {
    body();
  } catch (const std::exception& e) {
    record_failure(result, stop,
                   WriteFailure{target.dir_path, 0, std::string(operation), e.what()});
  } catch (...) {
    record_failure(
        result, stop,
        WriteFailure{target.dir_path, 0, std::string(operation),
                     fmt::format("{}: {}: unknown exception", target.dir_path, operation)});
  }
}

}  // namespace

void FileEngine::write(const WriteTarget& target, WorkSource& source, unsigned thread,
                       SliceResult& result, std::atomic<bool>& stop) noexcept {
  run_recorded(target, "write", result, stop, [&] { run(target, source, thread, result, stop); });
}

void FileEngine::files(Phase phase, const WriteTarget& target, WorkSource& source,
                       unsigned thread, SliceResult& result, std::atomic<bool>& stop) noexcept {
  run_recorded(target, phase_name(phase), result, stop,
               [&] { run_files(phase, target, source, thread, result, stop); });
}

void FileEngine::tree(Phase phase, const WriteTarget& target,
                      const std::vector<std::string>& level, const Progression& part,
                      SliceResult& result, std::atomic<bool>& stop) noexcept {
  run_recorded(target, phase_name(phase), result, stop,
               [&] { run_tree(phase, target, level, part, result, stop); });
}

std::unique_ptr<FileEngine> make_engine(const WriteOptions& options, const FileRecipe& recipe) {
  switch (options.engine) {
    case Engine::Posix:
      return std::make_unique<PosixEngine>(recipe);
    case Engine::Null:
      return std::make_unique<NullEngine>(recipe);
    case Engine::Uring:
      return make_uring_engine(recipe, options.queue_depth, options.verify_reads);
  }
  throw std::logic_error("make_engine: unknown engine");
}

bool creates_files(Engine engine) { return engine != Engine::Null; }

void record_failure(SliceResult& result, std::atomic<bool>& stop, WriteFailure failure) {
  if (!result.failure) result.failure = std::move(failure);
  stop.store(true, std::memory_order_relaxed);
}

WriteFailure wrong_phase_failure(const WriteTarget& target, Phase phase, std::string_view hook) {
  return WriteFailure{{}, 0, {},
                      fmt::format("{}: the {} phase has no loop in {}", target.dir_path,
                                  phase_name(phase), hook)};
}

WriteFailure file_failure(const std::string& dir_path, const char* name, const char* operation,
                          int error) {
  if (error == 0) {
    return WriteFailure{
        {}, 0, {}, fmt::format("{}/{}: {}: {}", dir_path, name, operation, kNotOwnFile)};
  }
  return WriteFailure{dir_path + "/" + name, error, operation, {}};
}

// The content is `line` repeated: byte k of the file is line[k % line.size()].
bool FileRecipe::content_matches(std::uint64_t offset, std::string_view data) const {
  if (offset + data.size() > file_bytes) return false;
  std::size_t at = static_cast<std::size_t>(offset % line.size());
  for (std::size_t i = 0; i < data.size();) {
    const std::size_t n = std::min(line.size() - at, data.size() - i);
    if (data.compare(i, n, line, at, n) != 0) return false;
    i += n;
    at = 0;
  }
  return true;
}

void FileRecipe::sleep_per_file_delay() const {
  for (std::uint64_t us = per_file_delay_us; us > 0 && !interrupted();) {
    const std::uint64_t slice = std::min<std::uint64_t>(us, 10'000);
    std::this_thread::sleep_for(std::chrono::microseconds(slice));
    us -= slice;
  }
}

}  // namespace mpiwrite
