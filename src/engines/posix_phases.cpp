// The posix and null engines' other phases (Writer::run_files, run_tree): stat, read and
// remove of each file, mkdir and rmdir of each tree directory, timed per item and per
// operation (null: the same without the system calls). As the write loop (posix_engine.cpp):
// one loop per phase kind (files_part, tree_part), templated on the items' own calls
// (PosixItems, NullItems) and on the phase, so that a file's calls are inlined into the loop;
// no allocation and no virtual call per item, a clock read shared by adjacent operations.
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <span>
#include <string>
#include <string_view>

#include "directory_in_use.hpp"
#include "mpiwrite/core/phase.hpp"
#include "posix_engine.hpp"
#include "tree_parents.hpp"

namespace mpiwrite {

namespace {

using Clock = std::chrono::steady_clock;

// The read phase's buffer: the file's size up to 1 MiB (a bigger file takes several reads),
// at least one byte so that the read that sees the end of the file has room.
constexpr std::size_t kMaxReadBuffer = std::size_t{1} << 20;
std::size_t read_buffer_bytes(const FileRecipe& recipe) {
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(recipe.file_bytes, 1, kMaxReadBuffer));
}

// The clock reads of one item: `opened` and `read` only for the read phase (open → reads →
// close; the end of one operation is the start of the next).
struct ItemTimes {
  Clock::time_point start, opened, read, end;
};

// A phase whose item is a single call (stat, remove, mkdir, rmdir: operations_of gives one):
// that call's histogram is the item's latency histogram, value for value, so the loop records
// the latency only, and OperationMirror sets the call's histogram to it when the loop leaves,
// also by an exception (a directory that cannot be opened). Exact because a worker's result
// holds one phase's items only (PoolWriter resets it before each phase). The read phase has
// three operations, recorded per item.
template <Phase P>
class OperationMirror {
 public:
  explicit OperationMirror(SliceResult& result) : result_(result) {}
  ~OperationMirror() {
    if (const auto own = operations_of(P); own.size() == 1) {
      result_.operations[own.front()] = result_.latency;
    }
  }
  OperationMirror(const OperationMirror&) = delete;
  OperationMirror& operator=(const OperationMirror&) = delete;

 private:
  SliceResult& result_;
};

// Records an item that counts: its latency (start → end) and, for the read phase, its three
// operations (a single operation's comes from OperationMirror).
template <Phase P>
void record_item(SliceResult& result, const ItemTimes& t) {
  result.latency.record(nanoseconds(t.end - t.start));
  if constexpr (P == Phase::Read) {
    result.operations.record(Operation::Open, nanoseconds(t.opened - t.start));
    result.operations.record(Operation::Reads, nanoseconds(t.read - t.opened));
    result.operations.record(Operation::Close, nanoseconds(t.end - t.read));
  }
}

// --slow-rank: every phase's item on a slow rank takes slow_delay_us longer, as the write
// phase's files do, so that its imbalance shows in each phase. The sleep follows the item's
// last call and is inside its time (and so in its last operation's span: a stat's, an
// unlink's, a read's close). No-op on the other ranks.
void delay_item(const FileRecipe& recipe, ItemTimes& t) {
  if (recipe.per_file_delay_us == 0) return;
  recipe.sleep_per_file_delay();
  t.end = Clock::now();
}

// --verify in the read phase: whether the pieces of one file are what the write phase wrote
// (FileRecipe::content_matches, inside the reads' time). Where the first wrong byte is is
// looked for only once a piece differs.
class ContentCheck {
 public:
  explicit ContentCheck(const FileRecipe& recipe) : recipe_(recipe) {}
  void piece(std::uint64_t offset, std::string_view data) {
    if (differs_ || recipe_.content_matches(offset, data)) return;
    differs_ = true;
    first_ = offset;
    while (first_ < recipe_.file_bytes &&
           recipe_.content_matches(first_, data.substr(first_ - offset, 1))) {
      ++first_;
    }
  }
  // Counts a wrong file of `total` bytes in `result`, and describes the first three.
  void finish(std::uint64_t total, const std::string& dir, const char* name,
              SliceResult& result) const {
    const bool wrong_byte = differs_ && first_ < recipe_.file_bytes;
    if (!wrong_byte && total == recipe_.file_bytes) return;
    ++result.mismatches;
    if (result.problems.size() >= 3) return;
    result.problems.push_back(dir + '/' + name +
                              (wrong_byte
                                   ? ": content differs at byte " + std::to_string(first_)
                                   : ": read " + std::to_string(total) + " bytes, expected " +
                                         std::to_string(recipe_.file_bytes)));
  }

 private:
  const FileRecipe& recipe_;
  bool differs_ = false;
  std::uint64_t first_ = 0;  // the first byte that differs, or file_bytes: only a longer file
};

// The posix engine's items: each phase's system calls on one file or directory, with the clock
// reads of `t` after start. False: it failed (recorded).
class PosixItems {
 public:
  using Directory = DirectoryInUse;

  PosixItems(const FileRecipe& recipe, const WriteTarget& target, std::span<char> buffer)
      : recipe_(recipe),
        directories_(target.directories),
        buffer_(buffer),
        parents_(target.dir_fd),
        dir_path_(target.dir_path) {}

  Directory directory(std::uint64_t index) { return Directory(*directories_, index); }
  // Whether a directory was opened since the last call (see files_part).
  bool opened_directory() {
    const std::uint64_t opened = directories_->opened();
    const bool any = opened != directories_seen_;
    directories_seen_ = opened;
    return any;
  }

  template <Phase P>
  bool file(const Directory& dir, const char* name, ItemTimes& t, SliceResult& result,
            std::atomic<bool>& stop) const {
    if constexpr (P == Phase::Stat) {
      struct ::statx buffer;
      if (sys::statx(dir.fd(), name, AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS,
                     &buffer) != 0) {
        record_failure(result, stop, file_failure(dir.path(), name, "stat", errno));
        return false;
      }
      t.end = Clock::now();
      return true;
    } else if constexpr (P == Phase::Read) {
      return read(dir, name, t, result, stop);
    } else {
      static_assert(P == Phase::Remove);
      if (sys::unlinkat(dir.fd(), name, 0) != 0) {
        record_failure(result, stop, file_failure(dir.path(), name, "unlink", errno));
        return false;
      }
      t.end = Clock::now();
      return true;
    }
  }

  // The directory's parent, walked before the clock starts (see TreeParents).
  struct TreeItem {
    int parent_fd;
    const char* name;
    int error;
    bool walked;  // the parent's walk opened a directory (see tree_part)
  };
  TreeItem tree_item(const std::string& path) {
    const std::uint64_t opens = parents_.opens();
    TreeItem item{-1, nullptr, 0, false};
    item.parent_fd = parents_.parent_of(path, item.name);
    if (item.parent_fd < 0) item.error = errno;
    item.walked = parents_.opens() != opens;
    return item;
  }

  template <Phase P>
  bool directory_item(const TreeItem& item, const std::string& path, ItemTimes& t,
                      SliceResult& result, std::atomic<bool>& stop) const {
    constexpr bool kMake = P == Phase::TreeCreate;
    int error = item.error;
    if (error == 0) {
      const int done = kMake ? sys::mkdirat(item.parent_fd, item.name, 0755)
                             : sys::unlinkat(item.parent_fd, item.name, AT_REMOVEDIR);
      if (done != 0) error = errno;
    }
    if (error != 0) {
      record_failure(result, stop,
                     file_failure(dir_path_, path.c_str(), kMake ? "mkdir" : "rmdir", error));
      return false;
    }
    t.end = Clock::now();
    return true;
  }

 private:
  // open (read-only, no link followed; O_NONBLOCK so that a FIFO put at the name cannot
  // block the phase), read to the end of the file (a read of 0 bytes), close.
  bool read(const Directory& dir, const char* name, ItemTimes& t, SliceResult& result,
            std::atomic<bool>& stop) const {
    UniqueFd fd(sys::openat(dir.fd(), name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0));
    if (!fd) {
      record_failure(result, stop, file_failure(dir.path(), name, "open", errno));
      return false;
    }
    t.opened = Clock::now();
    ContentCheck check(recipe_);
    std::uint64_t total = 0;
    for (;;) {
      const long n = sys::read(fd.get(), buffer_.data(), buffer_.size());
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        record_failure(result, stop, file_failure(dir.path(), name, "read", errno));
        return false;
      }
      if (recipe_.verify_reads) {
        check.piece(total, std::string_view(buffer_.data(), static_cast<std::size_t>(n)));
      }
      total += static_cast<std::uint64_t>(n);
    }
    t.read = Clock::now();
    if (const int error = fd.close(); error != 0) {
      record_failure(result, stop, file_failure(dir.path(), name, "close", error));
      return false;
    }
    t.end = Clock::now();
    result.bytes += total;
    if (recipe_.verify_reads) check.finish(total, dir.path(), name, result);
    return true;
  }

  const FileRecipe& recipe_;
  FileDirectories* directories_;  // the files' (run_files); the tree phases use none
  std::uint64_t directories_seen_ = 0;
  std::span<char> buffer_;
  TreeParents parents_;
  const std::string& dir_path_;
};

// Everything but the system calls (as NullFile, posix_engine.cpp): the names, the clock reads
// where posix makes its calls, the histograms and counts. Opens no directory; a read counts
// the file's bytes as read, as the null write counts them as written.
class NullItems {
 public:
  struct Directory {};

  NullItems(const FileRecipe& recipe, const WriteTarget& /*target*/, std::span<char> /*buffer*/)
      : recipe_(recipe) {}

  Directory directory(std::uint64_t /*index*/) const { return {}; }
  bool opened_directory() const { return false; }

  template <Phase P>
  bool file(const Directory& /*dir*/, const char* name, ItemTimes& t, SliceResult& result,
            std::atomic<bool>& /*stop*/) const {
    asm volatile("" : : "r"(name) : "memory");  // keep the name from being optimized away
    if constexpr (P == Phase::Read) {
      t.opened = Clock::now();  // where posix opens
      t.read = Clock::now();    // where posix reads
      result.bytes += recipe_.file_bytes;
    }
    t.end = Clock::now();
    return true;
  }

  struct TreeItem {
    bool walked = false;
  };
  TreeItem tree_item(const std::string& /*path*/) const { return {}; }

  template <Phase P>
  bool directory_item(const TreeItem& /*item*/, const std::string& path, ItemTimes& t,
                      SliceResult& /*result*/, std::atomic<bool>& /*stop*/) const {
    asm volatile("" : : "r"(path.c_str()) : "memory");
    t.end = Clock::now();
    return true;
  }

 private:
  const FileRecipe& recipe_;
};

// The files of `part` in order, until a failure, a stop or an interrupt.
template <typename Items, Phase P>
void files_part(Items& items, const FileRecipe& recipe, const WriteTarget& target,
                const Progression& part, FileNamer& namer, SliceResult& result,
                std::atomic<bool>& stop) {
  // One clock read per item, not two: an item starts where the previous one of the part ended,
  // so its latency also holds the few tens of ns of bookkeeping between the two (its name,
  // the histograms), and the items' latencies add up to the thread's time in the part. On
  // tmpfs a stat takes ~2 us and a clock read (kvm-clock) ~30-100 ns: a second read per item
  // was most of mpiwrite's distance from the floor (docs/performance.md). The clock is read
  // afresh for the part's first item and after a directory was opened (a phase cost, not the
  // item's).
  bool chained = false;
  Clock::time_point previous_end;
  for (std::uint64_t i = 0; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || recipe.interrupted()) return;
    const std::uint64_t index = part.at(i);
    const char* name = namer.name(index);
    const typename Items::Directory dir = items.directory(index);
    const bool opened = items.opened_directory();
    ItemTimes t;
    t.start = chained && !opened ? previous_end : Clock::now();
    if (!items.template file<P>(dir, name, t, result, stop)) return;
    delay_item(recipe, t);
    record_item<P>(result, t);
    previous_end = t.end;
    chained = true;
    ++result.files;
    publish_files_done(target, result.files);
  }
}

// The one loop of stat, read and remove: every chunk the source hands thread `thread`.
template <typename Items, Phase P>
void files_chunks(const FileRecipe& recipe, const WriteTarget& target, WorkSource& source,
                  unsigned thread, std::span<char> buffer, SliceResult& result,
                  std::atomic<bool>& stop) {
  Items items(recipe, target, buffer);
  FileNamer namer(recipe.pattern);
  const OperationMirror<P> mirror(result);
  Progression chunk;
  while (!stop.load(std::memory_order_relaxed) && source.next(thread, chunk)) {
    files_part<Items, P>(items, recipe, target, chunk, namer, result, stop);
  }
}

// The one loop of the tree phases: the directories at positions `part` of `level`. One clock
// read per item, as files_part: an item starts where the previous one ended, unless the walk
// to its parent opened a directory (once per --branch directories: a cost of the phase, not
// of the mkdir or rmdir).
template <typename Items, Phase P>
void tree_part(const FileRecipe& recipe, const WriteTarget& target,
               const std::vector<std::string>& level, const Progression& part, SliceResult& result,
               std::atomic<bool>& stop) {
  Items items(recipe, target, {});
  const OperationMirror<P> mirror(result);
  bool chained = false;
  Clock::time_point previous_end;
  for (std::uint64_t i = 0; i < part.count; ++i) {
    if (stop.load(std::memory_order_relaxed) || recipe.interrupted()) return;
    const std::string& path = level[part.at(i)];
    const typename Items::TreeItem item = items.tree_item(path);
    ItemTimes t;
    t.start = chained && !item.walked ? previous_end : Clock::now();
    if (!items.template directory_item<P>(item, path, t, result, stop)) return;
    delay_item(recipe, t);
    record_item<P>(result, t);
    previous_end = t.end;
    chained = true;
    ++result.files;
    publish_files_done(target, result.files);
  }
}

// The phase as a template argument: one switch per run, none per item.
template <typename Items>
void run_files_of(Phase phase, const FileRecipe& recipe, const WriteTarget& target,
                  WorkSource& source, unsigned thread, std::span<char> buffer, SliceResult& result,
                  std::atomic<bool>& stop) {
  switch (phase) {
    case Phase::Stat:
      return files_chunks<Items, Phase::Stat>(recipe, target, source, thread, buffer, result, stop);
    case Phase::Read:
      return files_chunks<Items, Phase::Read>(recipe, target, source, thread, buffer, result, stop);
    case Phase::Remove:
      return files_chunks<Items, Phase::Remove>(recipe, target, source, thread, buffer, result,
                                                stop);
    default:
      record_failure(result, stop, wrong_phase_failure(target, phase, "run_files"));
  }
}

template <typename Items>
void run_tree_of(Phase phase, const FileRecipe& recipe, const WriteTarget& target,
                 const std::vector<std::string>& level, const Progression& part,
                 SliceResult& result, std::atomic<bool>& stop) {
  if (phase == Phase::TreeCreate) {
    tree_part<Items, Phase::TreeCreate>(recipe, target, level, part, result, stop);
  } else if (phase == Phase::TreeRemove) {
    tree_part<Items, Phase::TreeRemove>(recipe, target, level, part, result, stop);
  } else {
    record_failure(result, stop, wrong_phase_failure(target, phase, "run_tree"));
  }
}

}  // namespace

void PosixEngine::run_files(Phase phase, const WriteTarget& target, WorkSource& source,
                            unsigned thread, SliceResult& result, std::atomic<bool>& stop) {
  if (phase == Phase::Read && read_buffer_.size() < read_buffer_bytes(recipe_)) {
    read_buffer_.resize(read_buffer_bytes(recipe_));
  }
  run_files_of<PosixItems>(phase, recipe_, target, source, thread, read_buffer_, result, stop);
}

void PosixEngine::run_tree(Phase phase, const WriteTarget& target,
                           const std::vector<std::string>& level, const Progression& part,
                           SliceResult& result, std::atomic<bool>& stop) {
  run_tree_of<PosixItems>(phase, recipe_, target, level, part, result, stop);
}

void NullEngine::run_files(Phase phase, const WriteTarget& target, WorkSource& source,
                           unsigned thread, SliceResult& result, std::atomic<bool>& stop) {
  run_files_of<NullItems>(phase, recipe_, target, source, thread, {}, result, stop);
}

void NullEngine::run_tree(Phase phase, const WriteTarget& target,
                          const std::vector<std::string>& level, const Progression& part,
                          SliceResult& result, std::atomic<bool>& stop) {
  run_tree_of<NullItems>(phase, recipe_, target, level, part, result, stop);
}

}  // namespace mpiwrite
