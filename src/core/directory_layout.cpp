// Directory layouts (directory_layout.hpp).
#include "mpiwrite/core/directory_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <limits>

#include "mpiwrite/core/partition.hpp"

namespace mpiwrite {
namespace {

// Decimal digits of the largest of 0..count-1 (at least 1).
int width_of(std::uint64_t count) {
  int width = 1;
  for (std::uint64_t n = count > 0 ? count - 1 : 0; n >= 10; n /= 10) ++width;
  return width;
}

}  // namespace

bool is_layout_directory_name(std::string_view name) {
  std::string_view digits;
  if (name.starts_with("rank"))
    digits = name.substr(4);
  else if (name.starts_with("d") || name.starts_with("t"))
    digits = name.substr(1);
  return !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
}

bool has_layout_directories(const RunConfig& config) {
  if (config.files_per_dir > 0 || config.tree_depth > 0) return true;
  for (Layout layout : config.layouts) {
    if (layout != Layout::Shared) return true;
  }
  return false;
}

std::uint64_t tree_directories(unsigned depth, std::uint64_t branch) {
  constexpr std::uint64_t kTooMany = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t level = 1, total = 0;
  for (unsigned d = 0; d < depth; ++d) {
    if (__builtin_mul_overflow(level, branch, &level) ||
        __builtin_add_overflow(total, level, &total))
      return kTooMany;
  }
  return total;
}

DirectoryLayout::DirectoryLayout(const LayoutSpec& spec)
    : spec_(spec),
      rank_width_(width_of(static_cast<std::uint64_t>(spec.ranks))),
      thread_width_(width_of(spec.threads)),
      bucket_width_(spec.files_per_dir > 0
                        ? width_of((spec.files + spec.files_per_dir - 1) / spec.files_per_dir)
                        : 1),
      branch_width_(width_of(spec.branch)) {
  // B^D <= the directories of a tree, which validate() bounds (config.cpp).
  for (unsigned d = 0; d < spec.tree_depth; ++d) leaves_ *= spec.branch;
}

bool DirectoryLayout::flat() const {
  return spec_.layout == Layout::Shared && spec_.files_per_dir == 0 && spec_.tree_depth == 0;
}

FileLocation DirectoryLayout::locate(std::uint64_t index) const {
  const std::uint64_t q = index - 1;
  if (spec_.layout == Layout::Shared) return {0, 0, q};
  const auto ranks = static_cast<std::uint64_t>(spec_.ranks);
  const PartPosition by_rank = part_of(q, spec_.files, ranks, spec_.partition);
  FileLocation where{static_cast<int>(by_rank.part), 0, by_rank.position};
  if (spec_.layout == Layout::Thread && spec_.threads > 1) {
    const Progression slice = rank_slice(spec_.work(), where.rank);
    const PartPosition by_thread =
        part_of(by_rank.position, slice.count, spec_.threads, spec_.partition);
    where.thread = static_cast<unsigned>(by_thread.part);
    where.position = by_thread.position;
  }
  return where;
}

std::string DirectoryLayout::layout_directory(int rank, unsigned thread) const {
  switch (spec_.layout) {
    case Layout::Shared:
      return {};
    case Layout::Rank:
      return fmt::format("rank{:0{}}", rank, rank_width_);
    case Layout::Thread:
      return fmt::format("rank{:0{}}/thread{:0{}}", rank, rank_width_, thread, thread_width_);
  }
  return {};
}

// Per file (key_of): arithmetic only, no allocation.
std::uint64_t DirectoryLayout::bucket_of(const FileLocation& where) const {
  if (spec_.files_per_dir > 0) return where.position / spec_.files_per_dir;
  if (spec_.tree_depth == 0) return 0;
  const std::uint64_t files = layout_files(where.rank, where.thread);
  return part_of(where.position, files, leaves_, Partition::Block).part;
}

// Leaf `bucket` spelled in base B, the most significant digit the top level.
std::string DirectoryLayout::subdirectory(std::uint64_t bucket) const {
  if (spec_.files_per_dir > 0) return fmt::format("d{:0{}}", bucket, bucket_width_);
  std::string path;
  std::uint64_t below = leaves_;  // leaves under one directory of the level
  for (unsigned d = 0; d < spec_.tree_depth; ++d) {
    below /= spec_.branch;
    if (d > 0) path += '/';
    path += fmt::format("t{:0{}}", bucket / below % spec_.branch, branch_width_);
  }
  return path;
}

std::string DirectoryLayout::directory(const FileLocation& where) const {
  return directory(DirectoryKey{where.rank, where.thread, bucket_of(where)});
}

DirectoryKey DirectoryLayout::key_of(std::uint64_t index) const {
  if (flat()) return {};
  const FileLocation where = locate(index);
  return {where.rank, where.thread, bucket_of(where)};
}

std::string DirectoryLayout::directory(const DirectoryKey& key) const {
  std::string dir = layout_directory(key.rank, key.thread);
  const std::string below = subdirectory(key.bucket);
  if (dir.empty() || below.empty()) return dir + below;
  return dir + '/' + below;
}

std::uint64_t DirectoryLayout::layout_files(int rank, unsigned thread) const {
  if (spec_.layout == Layout::Shared) return spec_.files;
  const Progression slice = rank_slice(spec_.work(), rank);
  if (spec_.layout == Layout::Rank) return slice.count;
  return split(slice, spec_.threads, thread, spec_.partition).count;
}

void DirectoryLayout::add_subdirectories(
    const std::vector<std::pair<std::string, std::uint64_t>>& parents, std::size_t first,
    const Progression* top, Levels& levels) const {
  if (spec_.files_per_dir == 0 && spec_.tree_depth == 0) return;
  // Sized first: a reference to one level stays valid while the next one grows.
  levels.resize(std::max(levels.size(), first + std::max(spec_.tree_depth, 1u)));
  for (const auto& [parent, files] : parents) {
    const std::uint64_t count = spec_.files_per_dir > 0
                                    ? (files + spec_.files_per_dir - 1) / spec_.files_per_dir
                                    : spec_.branch;
    const Progression mine = top != nullptr ? *top : whole_run(count);
    const std::string prefix = parent.empty() ? std::string() : parent + '/';
    for (std::uint64_t i = 0; i < mine.count; ++i) {
      const std::uint64_t k = mine.at(i) - 1;
      levels[first].push_back(prefix + (spec_.files_per_dir > 0
                                            ? fmt::format("d{:0{}}", k, bucket_width_)
                                            : fmt::format("t{:0{}}", k, branch_width_)));
    }
  }
  for (unsigned d = 1; d < spec_.tree_depth; ++d) {
    const std::vector<std::string>& above = levels[first + d - 1];
    std::vector<std::string>& level = levels[first + d];
    for (const std::string& dir : above) {
      for (std::uint64_t k = 0; k < spec_.branch; ++k) {
        level.push_back(fmt::format("{}/t{:0{}}", dir, k, branch_width_));
      }
    }
  }
}

std::vector<std::vector<std::string>> DirectoryLayout::rank_directory_levels(int rank) const {
  Levels levels;
  if (spec_.layout == Layout::Shared) {
    // The run directory's subdirectories, block `rank` of them, so creation is spread.
    if (flat()) return levels;
    const std::uint64_t count =
        spec_.files_per_dir > 0 ? (spec_.files + spec_.files_per_dir - 1) / spec_.files_per_dir
                                : spec_.branch;
    const Progression mine = split(whole_run(count), static_cast<std::uint64_t>(spec_.ranks),
                                   static_cast<std::uint64_t>(rank), Partition::Block);
    add_subdirectories({{std::string(), spec_.files}}, 0, &mine, levels);
  } else if (spec_.layout == Layout::Rank) {
    const std::uint64_t files = layout_files(rank, 0);
    if (files == 0) return levels;
    const std::string dir = layout_directory(rank, 0);
    levels.push_back({dir});
    add_subdirectories({{dir, files}}, 1, nullptr, levels);
  } else {
    if (rank_slice(spec_.work(), rank).count == 0) return levels;
    levels.push_back({fmt::format("rank{:0{}}", rank, rank_width_)});
    std::vector<std::pair<std::string, std::uint64_t>> parents;
    levels.emplace_back();
    for (unsigned t = 0; t < spec_.threads; ++t) {
      const std::uint64_t files = layout_files(rank, t);
      if (files == 0) continue;
      parents.emplace_back(layout_directory(rank, t), files);
      levels.back().push_back(parents.back().first);
    }
    add_subdirectories(parents, 2, nullptr, levels);
  }
  while (!levels.empty() && levels.back().empty()) levels.pop_back();
  return levels;
}

std::vector<std::string> DirectoryLayout::rank_directories(int rank) const {
  std::vector<std::string> out;
  for (std::vector<std::string>& level : rank_directory_levels(rank)) {
    out.insert(out.end(), std::make_move_iterator(level.begin()),
               std::make_move_iterator(level.end()));
  }
  return out;
}

}  // namespace mpiwrite
