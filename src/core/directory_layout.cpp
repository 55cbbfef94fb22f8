// Directory layouts (directory_layout.hpp).
#include "mpiwrite/core/directory_layout.hpp"

#include <fmt/format.h>

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
  else if (name.starts_with("d"))
    digits = name.substr(1);
  return !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
}

bool has_layout_directories(const RunConfig& config) {
  if (config.files_per_dir > 0) return true;
  for (Layout layout : config.layouts) {
    if (layout != Layout::Shared) return true;
  }
  return false;
}

DirectoryLayout::DirectoryLayout(const LayoutSpec& spec)
    : spec_(spec),
      rank_width_(width_of(static_cast<std::uint64_t>(spec.ranks))),
      thread_width_(width_of(spec.threads)),
      bucket_width_(spec.files_per_dir > 0
                        ? width_of((spec.files + spec.files_per_dir - 1) / spec.files_per_dir)
                        : 1) {}

bool DirectoryLayout::flat() const {
  return spec_.layout == Layout::Shared && spec_.files_per_dir == 0;
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

std::string DirectoryLayout::directory(const FileLocation& where) const {
  std::string dir = layout_directory(where.rank, where.thread);
  if (spec_.files_per_dir == 0) return dir;
  if (!dir.empty()) dir += '/';
  return dir + fmt::format("d{:0{}}", where.position / spec_.files_per_dir, bucket_width_);
}

DirectoryKey DirectoryLayout::key_of(std::uint64_t index) const {
  if (flat()) return {};
  const FileLocation where = locate(index);
  return {where.rank, where.thread,
          spec_.files_per_dir > 0 ? where.position / spec_.files_per_dir : 0};
}

std::string DirectoryLayout::directory(const DirectoryKey& key) const {
  return directory(FileLocation{key.rank, key.thread,
                                spec_.files_per_dir > 0 ? key.bucket * spec_.files_per_dir : 0});
}

std::uint64_t DirectoryLayout::layout_files(int rank, unsigned thread) const {
  if (spec_.layout == Layout::Shared) return spec_.files;
  const Progression slice = rank_slice(spec_.work(), rank);
  if (spec_.layout == Layout::Rank) return slice.count;
  return thread_parts(slice, spec_.threads, spec_.partition).at(thread).count;
}

void DirectoryLayout::add_subdirectories(const std::string& parent, std::uint64_t files,
                                         std::vector<std::string>& out) const {
  if (files == 0) return;
  if (!parent.empty()) out.push_back(parent);
  if (spec_.files_per_dir == 0) return;
  const std::uint64_t buckets = (files + spec_.files_per_dir - 1) / spec_.files_per_dir;
  const std::string prefix = parent.empty() ? std::string() : parent + '/';
  for (std::uint64_t k = 0; k < buckets; ++k) {
    out.push_back(prefix + fmt::format("d{:0{}}", k, bucket_width_));
  }
}

std::vector<std::string> DirectoryLayout::rank_directories(int rank) const {
  std::vector<std::string> out;
  if (spec_.layout == Layout::Shared) {
    // The run directory's subdirectories, block `rank` of them, so creation is spread.
    if (spec_.files_per_dir == 0) return out;
    const std::uint64_t buckets = (spec_.files + spec_.files_per_dir - 1) / spec_.files_per_dir;
    const Progression mine = split(whole_run(buckets), static_cast<std::uint64_t>(spec_.ranks),
                                   static_cast<std::uint64_t>(rank), Partition::Block);
    for (std::uint64_t k = 0; k < mine.count; ++k) {
      out.push_back(fmt::format("d{:0{}}", mine.at(k) - 1, bucket_width_));
    }
    return out;
  }
  if (spec_.layout == Layout::Rank) {
    add_subdirectories(layout_directory(rank, 0), layout_files(rank, 0), out);
    return out;
  }
  const RankPlan plan = plan_rank(spec_.work(), rank);
  if (plan.writes.count == 0) return out;
  out.push_back(fmt::format("rank{:0{}}", rank, rank_width_));
  const std::vector<Progression>& parts = plan.thread_writes;
  for (unsigned t = 0; t < spec_.threads; ++t) {
    add_subdirectories(layout_directory(rank, t), parts[t].count, out);
  }
  return out;
}

}  // namespace mpiwrite
