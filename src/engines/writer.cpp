// The writers' value types (writer.hpp): the options taken from the configuration, the
// failure, and the result a writer thread fills and the pool merges.
#include "mpiwrite/engines/writer.hpp"

#include <fmt/format.h>

#include <system_error>

namespace mpiwrite {

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
  operations.merge(other.operations);
  if (!failure) failure = other.failure;
  time_limited = time_limited || other.time_limited;
  created.merge(other.created);
}

void SliceResult::reset() {
  files = bytes = 0;
  latency = LatencyHistogram{};
  operations = OperationHistograms{};
  failure.reset();
  time_limited = false;
  created.clear();
}

}  // namespace mpiwrite
