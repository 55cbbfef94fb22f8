#pragma once
// The directory descriptors a writer, a verifier or a remover needs for the files of a layout
// (core/directory_layout.hpp) under one run directory: opened ahead (preopen: a writer's
// directories before the timed phase) or when a file first needs its directory, kept while
// any file still uses it, and closed after (least recently used first) once more than a few
// are open. POSIX only.
//
// Files are reached through a descriptor of their own directory, never through a path: a path
// would be walked (and on a network file system revalidated) for every file, which is not
// what creating a file costs. The flat layout (every file in the run directory) costs one
// branch per file. Each subdirectory is opened one component at a time with O_NOFOLLOW, so a
// symbolic link put in place of a layout directory is refused, never followed out of --dir.
// One object per thread: descriptors belong to the thread's descriptor table.

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

class FileDirectories {
 public:
  // A file's directory while in use: pass it back to release().
  struct Handle {
    int fd = -1;
    unsigned entry = kBase;
  };

  FileDirectories() = default;
  // base_fd: the run directory, borrowed (it must stay open while this is used); base_path
  // names it in messages. layout: nullptr or flat: every file is in the run directory.
  FileDirectories(int base_fd, std::string base_path, const DirectoryLayout* layout);
  FileDirectories(FileDirectories&&) = default;
  FileDirectories& operator=(FileDirectories&&) = default;

  // The directory of file `index`, opened if it is not. Throws IoError naming the directory.
  Handle acquire(std::uint64_t index) {
    if (layout_ == nullptr) return Handle{base_fd_, kBase};
    return acquire_in_layout(index);
  }
  void release(const Handle& handle) {
    if (handle.entry != kBase) --entries_[handle.entry].users;
  }
  // The directory's path, for messages ("DIR" or "DIR/rank03/d007").
  const std::string& path(const Handle& handle) const {
    return handle.entry == kBase ? base_path_ : entries_[handle.entry].path;
  }
  // Opens the directories of `files` (progressions, taken in order) in the order they come,
  // at most `limit` of them (the rest are opened when first needed), and keeps them all open.
  // Throws IoError.
  void preopen(std::span<const Progression> files, std::size_t limit);
  // Keeps up to `limit` directories open once opened (at least the few it always keeps): for
  // files that do not come in their directories' order (the stat, read and remove phases take
  // another rank's files, --random-order shuffles them), which would otherwise close and
  // reopen a directory for nearly every file once a share spans more than a few.
  void keep_open(std::size_t limit) { keep_open_ = std::max(kKeptOpen, limit); }
  // For writers, whose directories all exist (made and agreed on before): a missing one is
  // waited for up to 2 s (a network file system may show another node's mkdir late). Verify
  // and removal take a missing directory at once as gone.
  void wait_for_missing() { wait_for_missing_ = true; }
  // How many directories were opened so far: a loop that shares clock reads between files
  // tells by it that time went to opening one (a phase cost, not the next file's).
  std::uint64_t opened() const { return opened_; }
  // Closes every subdirectory (none may be in use).
  void close_all() {
    entries_.clear();
    open_at_.clear();
    keep_open_ = kKeptOpen;
    last_ = 0;
  }

 private:
  static constexpr unsigned kBase = ~0u;
  static constexpr std::size_t kKeptOpen = 8;  // closed beyond this many, when unused
  struct Entry {
    DirectoryKey key;
    UniqueFd fd;
    std::string path;
    unsigned users = 0;
    std::uint64_t last_use = 0;
  };

  struct KeyHash {
    std::size_t operator()(const DirectoryKey& k) const {
      return std::hash<std::uint64_t>{}(k.bucket * 0x9e3779b97f4a7c15ULL ^
                                        (static_cast<std::uint64_t>(k.rank) << 32) ^ k.thread);
    }
  };

  Handle acquire_in_layout(std::uint64_t index);
  Handle use(unsigned entry);
  void open_entry(Entry& entry, const DirectoryKey& key);

  int base_fd_ = -1;
  std::string base_path_;
  const DirectoryLayout* layout_ = nullptr;
  std::deque<Entry> entries_;          // a deque: a Handle's entry and its path stay where they are
  // The entry of each open directory: a file out of order finds its directory without a walk
  // over every entry (up to the descriptor share of them, kept open).
  std::unordered_map<DirectoryKey, unsigned, KeyHash> open_at_;
  std::size_t keep_open_ = kKeptOpen;  // more after preopen
  unsigned last_ = 0;                  // the entry used last: files come in order
  std::uint64_t uses_ = 0;
  std::uint64_t opened_ = 0;
  bool wait_for_missing_ = false;
};

}  // namespace mpiwrite
