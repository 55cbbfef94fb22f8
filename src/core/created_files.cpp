#include "mpiwrite/core/created_files.hpp"

#include <algorithm>

namespace mpiwrite {

void CreatedFiles::take(const Progression& part) {
  if (part.count == 0) return;
  if (!taken.empty()) {
    // part continues the last progression when it starts one stride after its end and steps
    // by the same stride (a single file adopts whatever stride fits).
    Progression& last = taken.back();
    const std::uint64_t stride =
        last.count == 1 ? (part.first > last.first ? part.first - last.first : 0) : last.stride;
    if (stride > 0 && part.first == last.first + last.count * stride &&
        (part.count == 1 || part.stride == stride)) {
      last.stride = stride;
      last.count += part.count;
      return;
    }
  }
  taken.push_back(part);
}

void CreatedFiles::merge(const CreatedFiles& other) {
  for (const Progression& part : other.taken) take(part);
  not_created.insert(not_created.end(), other.not_created.begin(), other.not_created.end());
}

void CreatedFiles::clear() {
  taken.clear();
  not_created.clear();
}

bool CreatedFiles::excluded(std::uint64_t index) const {
  return std::find(not_created.begin(), not_created.end(), index) != not_created.end();
}

std::uint64_t CreatedFiles::files_taken() const {
  std::uint64_t total = 0;
  for (const Progression& part : taken) total += part.count;
  return total;
}

}  // namespace mpiwrite
