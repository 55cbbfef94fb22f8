// The writers' value types (writer.hpp): the failure, and the result a writer thread fills
// and the pool merges.
#include "mpiwrite/engines/writer.hpp"

#include <fmt/format.h>

#include <system_error>

namespace mpiwrite {

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
  mismatches += other.mismatches;
  for (const std::string& p : other.problems) {
    if (problems.size() < 3) problems.push_back(p);
  }
}

void SliceResult::reset() {
  files = bytes = 0;
  latency = LatencyHistogram{};
  operations = OperationHistograms{};
  failure.reset();
  time_limited = false;
  created.clear();
  mismatches = 0;
  problems.clear();
}

}  // namespace mpiwrite
