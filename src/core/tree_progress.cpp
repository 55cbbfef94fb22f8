// Counts of a tree phase's work, turned into paths after it (tree_progress.hpp).
#include "mpiwrite/core/tree_progress.hpp"

namespace mpiwrite {

void TreeProgress::clear(std::size_t records) {
  blocks_.clear();
  blocks_.reserve(records);
}

void TreeProgress::record(std::size_t level, const Progression& done) {
  if (done.count > 0) blocks_.push_back(Block{level, done});
}

std::vector<std::string> TreeProgress::paths(
    const std::vector<std::vector<std::string>>& levels) const {
  std::vector<std::string> made;
  made.reserve(directories());
  for (const Block& block : blocks_) {
    const std::vector<std::string>& level = levels.at(block.level);
    for (std::uint64_t i = 0; i < block.positions.count; ++i)
      made.push_back(level.at(block.positions.at(i)));
  }
  return made;
}

std::size_t TreeProgress::directories() const {
  std::size_t sum = 0;
  for (const Block& block : blocks_) sum += block.positions.count;
  return sum;
}

}  // namespace mpiwrite
