#include "mpiwrite/core/wear_out.hpp"

#include <algorithm>

namespace mpiwrite {

std::vector<Progression> wear_out_parts(const std::vector<Progression>& parts,
                                        const std::vector<std::uint64_t>& written,
                                        std::uint64_t target) {
  std::vector<Progression> rest;
  rest.reserve(parts.size());
  for (std::size_t t = 0; t < parts.size(); ++t) {
    const Progression& part = parts[t];
    const std::uint64_t done = written[t];
    const std::uint64_t goal = std::min(target, part.count);
    rest.push_back(goal > done ? Progression{part.at(done), goal - done, part.stride}
                               : Progression{part.first, 0, part.stride});
  }
  return rest;
}

}  // namespace mpiwrite
