#include "mpiwrite/core/partition.hpp"

#include <algorithm>

namespace mpiwrite {

Progression split(const Progression& whole, std::uint64_t parts, std::uint64_t part,
                  Partition partition) {
  if (partition == Partition::Cyclic) {
    const std::uint64_t count = whole.count > part ? (whole.count - part + parts - 1) / parts : 0;
    return {whole.first + part * whole.stride, count, whole.stride * parts};
  }
  const std::uint64_t base = whole.count / parts;
  const std::uint64_t extra = whole.count % parts;  // the first `extra` parts take one more
  const std::uint64_t offset = part * base + std::min(part, extra);
  const std::uint64_t count = base + (part < extra ? 1 : 0);
  return {whole.first + offset * whole.stride, count, whole.stride};
}

PartPosition part_of(std::uint64_t position, std::uint64_t count, std::uint64_t parts,
                     Partition partition) {
  if (partition == Partition::Cyclic) return {position % parts, position / parts};
  const std::uint64_t base = count / parts;
  const std::uint64_t extra = count % parts;
  const std::uint64_t boundary = extra * (base + 1);  // the first `extra` parts end here
  if (position < boundary) return {position / (base + 1), position % (base + 1)};
  return {extra + (position - boundary) / base, (position - boundary) % base};
}

}  // namespace mpiwrite
