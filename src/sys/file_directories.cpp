// The directory descriptors of a layout (file_directories.hpp).
#include "mpiwrite/sys/file_directories.hpp"

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cerrno>
#include <optional>
#include <string_view>

#include "mpiwrite/core/errors.hpp"

namespace mpiwrite {

namespace {

// A layout directory exists once every rank has agreed it made its own. Yet on a network file
// system one made by another node's rank can be missing here for a moment: on GlusterFS (FUSE,
// two clients) a rank's open of a directory the other node had just made failed with ENOENT
// in about one CI run of three, the cause not found (not a negative entry of this client's
// cache: nothing here had looked the name up). So ENOENT is retried for up to 2 s.
UniqueFd open_made_directory(int parent, const std::string& name, bool wait) {
  const int kAttempts = wait ? 200 : 1;
  for (int attempt = 1;; ++attempt) {
    UniqueFd fd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (fd || errno != ENOENT || attempt == kAttempts) return fd;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

FileDirectories::FileDirectories(int base_fd, std::string base_path,
                                 const DirectoryLayout* layout)
    : base_fd_(base_fd), base_path_(std::move(base_path)),
      layout_(layout != nullptr && !layout->flat() ? layout : nullptr) {}

void FileDirectories::preopen(const Progression& files, std::size_t limit) {
  if (layout_ == nullptr) return;
  keep_open_ = std::max(kKeptOpen, limit);  // none evicted while opening
  std::optional<DirectoryKey> previous;
  for (std::uint64_t i = 0; i < files.count && entries_.size() < limit; ++i) {
    const DirectoryKey key = layout_->key_of(files.at(i));
    if (previous && *previous == key) continue;
    previous = key;
    release(acquire_in_layout(files.at(i)));
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
  ++uses_;
  Entry* oldest_unused = nullptr;
  unsigned oldest_at = 0;
  for (unsigned i = 0; i < entries_.size(); ++i) {
    Entry& entry = entries_[i];
    if (entry.key == key && entry.fd) return use(i);
    if (entry.users == 0 && (oldest_unused == nullptr || entry.last_use < oldest_unused->last_use)) {
      oldest_unused = &entry;
      oldest_at = i;
    }
  }
  // A new directory: reuse the least recently used entry nobody uses once enough are open
  // (files come in order, so an old directory is seldom needed again), else add one.
  if (entries_.size() < keep_open_ || oldest_unused == nullptr) {
    entries_.emplace_back();
    oldest_at = static_cast<unsigned>(entries_.size() - 1);
    oldest_unused = &entries_.back();
  }
  Entry& entry = *oldest_unused;
  entry.fd = UniqueFd();
  open_entry(entry, key);
  entry.users = 0;
  return use(oldest_at);
}

// Component by component from the run directory, each with O_NOFOLLOW: no symbolic link in
// the way is followed.
void FileDirectories::open_entry(Entry& entry, const DirectoryKey& key) {
  const std::string relative = layout_->directory(key);
  entry.key = key;
  entry.path = base_path_ + '/' + relative;
  UniqueFd current;
  std::string_view rest = relative;
  while (!rest.empty()) {
    const std::size_t slash = rest.find('/');
    const std::string component(rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    const int parent = current ? current.get() : base_fd_;
    UniqueFd next = open_made_directory(parent, component, wait_for_missing_);
    if (!next) throw IoError(errno, entry.path, "open directory");
    current = std::move(next);
  }
  entry.fd = std::move(current);
}

}  // namespace mpiwrite
