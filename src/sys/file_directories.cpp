// The directory descriptors of a layout (file_directories.hpp).
#include "mpiwrite/sys/file_directories.hpp"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string_view>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/layout_directories.hpp"

namespace mpiwrite {

FileDirectories::FileDirectories(int base_fd, std::string base_path, const DirectoryLayout* layout)
    : base_fd_(base_fd),
      base_path_(std::move(base_path)),
      layout_(layout != nullptr && !layout->flat() ? layout : nullptr) {}

void FileDirectories::preopen(std::span<const Progression> files, std::size_t limit) {
  if (layout_ == nullptr) return;
  keep_open_ = std::max(kKeptOpen, limit);  // none evicted while opening
  std::optional<DirectoryKey> previous;
  for (const Progression& part : files) {
    for (std::uint64_t i = 0; i < part.count && entries_.size() < limit; ++i) {
      const DirectoryKey key = layout_->key_of(part.at(i));
      if (previous && *previous == key) continue;
      previous = key;
      release(acquire_in_layout(part.at(i)));
    }
  }
  keep_open_ = std::max(kKeptOpen, entries_.size());
  last_ = 0;
}

FileDirectories::Handle FileDirectories::use(unsigned i) {
  Entry& entry = entries_[i];
  ++entry.users;
  entry.last_use = ++uses_;
  last_ = i;
  return Handle{entry.fd.get(), i};
}

FileDirectories::Handle FileDirectories::acquire_in_layout(std::uint64_t index) {
  const DirectoryKey key = layout_->key_of(index);
  // Files come in order: the directory of the last file, or the next one opened after it.
  for (unsigned i : {last_, last_ + 1}) {
    if (i < entries_.size() && entries_[i].key == key && entries_[i].fd) return use(i);
  }
  if (const auto open = open_at_.find(key); open != open_at_.end()) return use(open->second);
  ++uses_;
  // A new directory: a new entry while fewer than keep_open_ are open; then the least recently
  // used entry nobody uses (files come in order, so an old directory is seldom needed again),
  // else a new one. The walk only then: with up to a descriptor share of entries kept open, a
  // walk at every new directory would cost more than its openat.
  Entry* oldest_unused = nullptr;
  unsigned oldest_at = 0;
  for (unsigned i = 0; entries_.size() >= keep_open_ && i < entries_.size(); ++i) {
    Entry& entry = entries_[i];
    if (entry.users == 0 &&
        (oldest_unused == nullptr || entry.last_use < oldest_unused->last_use)) {
      oldest_unused = &entry;
      oldest_at = i;
    }
  }
  if (oldest_unused == nullptr) {
    entries_.emplace_back();
    oldest_at = static_cast<unsigned>(entries_.size() - 1);
    oldest_unused = &entries_.back();
  }
  Entry& entry = *oldest_unused;
  if (entry.fd) open_at_.erase(entry.key);
  entry.fd = UniqueFd();
  open_entry(entry, key);
  open_at_[key] = oldest_at;
  entry.users = 0;
  return use(oldest_at);
}

// Component by component from the run directory, each with O_NOFOLLOW: no symbolic link in
// the way is followed.
void FileDirectories::open_entry(Entry& entry, const DirectoryKey& key) {
  const std::string relative = layout_->directory(key);
  entry.key = key;
  entry.path = base_path_ + '/' + relative;
  entry.fd = open_directory_beneath(base_fd_, relative, wait_for_missing_);
  ++opened_;
  if (!entry.fd) throw IoError(errno, entry.path, "open directory");
}

}  // namespace mpiwrite
