#include "floor_loops.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace mpiwrite_floor {

namespace {

// "write" + up to 20 digits + ".txt" + NUL, built in place: no allocation per file.
class FileName {
 public:
  const char* of(std::uint64_t index) {
    char* end = std::to_chars(text_ + 5, text_ + 5 + 20, index).ptr;
    std::memcpy(end, ".txt", 5);
    return text_;
  }

 private:
  char text_[64] = "write";
};

[[noreturn]] void fail(const char* name) {
  std::perror(name);
  std::_Exit(1);
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Range block(Range whole, std::uint64_t parts, std::uint64_t part) {
  const std::uint64_t base = whole.count / parts, extra = whole.count % parts;
  return {whole.first + part * base + std::min(part, extra), base + (part < extra ? 1 : 0)};
}

void write_files(int dir_fd, const Content& content, Range range) {
  FileName name;
  for (std::uint64_t index = range.first; index < range.first + range.count; ++index) {
    const char* path = name.of(index);
    const int fd = ::openat(dir_fd, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) fail(path);
    bool ok = true;
    if (content.line_mode) {
      for (std::uint64_t i = 0; i < content.lines && ok; ++i) {
        ok = write_all(fd, content.line.data(), content.line.size());
      }
    } else {
      ok = write_all(fd, content.whole.data(), content.whole.size());
    }
    if (!ok || ::close(fd) != 0) fail(path);
  }
}

void stat_files(int dir_fd, Range range) {
  FileName name;
  struct statx buffer;
  for (std::uint64_t index = range.first; index < range.first + range.count; ++index) {
    const char* path = name.of(index);
    if (::statx(dir_fd, path, AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS,
                &buffer) != 0) {
      fail(path);
    }
  }
}

void read_files(int dir_fd, Range range, std::span<char> buffer, std::uint64_t expected_bytes) {
  FileName name;
  for (std::uint64_t index = range.first; index < range.first + range.count; ++index) {
    const char* path = name.of(index);
    const int fd = ::openat(dir_fd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) fail(path);
    std::uint64_t total = 0;
    for (;;) {
      const ssize_t n = ::read(fd, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail(path);
      if (n == 0) break;
      total += static_cast<std::uint64_t>(n);
    }
    if (::close(fd) != 0) fail(path);
    if (total != expected_bytes) {
      std::fprintf(stderr, "%s: read %llu bytes, expected %llu\n", path,
                   static_cast<unsigned long long>(total),
                   static_cast<unsigned long long>(expected_bytes));
      std::_Exit(1);
    }
  }
}

void remove_files(int dir_fd, Range range) {
  FileName name;
  for (std::uint64_t index = range.first; index < range.first + range.count; ++index) {
    const char* path = name.of(index);
    if (::unlinkat(dir_fd, path, 0) != 0) fail(path);
  }
}

namespace {

// The parent of a tree path reached as mpiwrite reaches it (its TreeParents): one component at
// a time from dir_fd with O_NOFOLLOW, keeping the descriptors of the components the previous
// parent shared, so that a link on the path is never followed. The plain floor instead hands
// the whole path to mkdirat/unlinkat, which the kernel walks following links.
class SafeParents {
 public:
  explicit SafeParents(int dir_fd) : dir_fd_(dir_fd) {}
  ~SafeParents() {
    for (int fd : fds_) ::close(fd);
  }
  SafeParents(const SafeParents&) = delete;
  SafeParents& operator=(const SafeParents&) = delete;

  // The descriptor of `path`'s parent; `name` its last component.
  int parent_of(const std::string& path, const char*& name) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) {
      name = path.c_str();
      return dir_fd_;
    }
    name = path.c_str() + slash + 1;
    // A level's directories come children of one parent together: the same parent as the last
    // item (9 of 10 at --branch 10) costs one comparison, as in mpiwrite, not a split.
    const std::string_view parent(path.data(), slash);
    if (!fds_.empty() && parent == parent_) return fds_.back();
    parent_.assign(parent);
    std::vector<std::string_view>& parts = parts_;  // reused: no allocation per item
    parts.clear();
    for (std::size_t at = 0; at < slash;) {
      const std::size_t end = std::min(path.find('/', at), slash);
      parts.emplace_back(path.data() + at, end - at);
      at = end + 1;
    }
    std::size_t keep = 0;
    while (keep < names_.size() && keep < parts.size() && names_[keep] == parts[keep]) ++keep;
    while (fds_.size() > keep) {
      ::close(fds_.back());
      fds_.pop_back();
      names_.pop_back();
    }
    for (std::size_t k = keep; k < parts.size(); ++k) {
      const std::string component(parts[k]);
      const int fd = ::openat(fds_.empty() ? dir_fd_ : fds_.back(), component.c_str(),
                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) fail(component.c_str());
      fds_.push_back(fd);
      names_.push_back(component);
    }
    return fds_.back();
  }

 private:
  int dir_fd_;
  std::vector<int> fds_;
  std::vector<std::string> names_;
  std::vector<std::string_view> parts_;
  std::string parent_;  // the parent of the last item, whose descriptor is fds_.back()
};

}  // namespace

namespace {

// `call(at, name)` (mkdirat or unlinkat of one directory, 0 on success) for each path of
// `range`: in the parent's descriptor (safe) or with the whole path in dir_fd (path). The
// loops stay apart so that the path floor has no walk in it at all.
template <typename Call>
void directories(int dir_fd, const std::vector<std::string>& paths, Range range, TreeWalk walk,
                 Call call) {
  if (walk == TreeWalk::Safe) {
    SafeParents parents(dir_fd);
    for (std::uint64_t i = range.first; i < range.first + range.count; ++i) {
      const char* name = nullptr;
      const int at = parents.parent_of(paths[i], name);
      if (call(at, name) != 0) fail(paths[i].c_str());
    }
    return;
  }
  for (std::uint64_t i = range.first; i < range.first + range.count; ++i) {
    if (call(dir_fd, paths[i].c_str()) != 0) fail(paths[i].c_str());
  }
}

}  // namespace

void make_directories(int dir_fd, const std::vector<std::string>& paths, Range range,
                      TreeWalk walk) {
  directories(dir_fd, paths, range, walk,
              [](int at, const char* name) { return ::mkdirat(at, name, 0755); });
}

void remove_directories(int dir_fd, const std::vector<std::string>& paths, Range range,
                        TreeWalk walk) {
  directories(dir_fd, paths, range, walk,
              [](int at, const char* name) { return ::unlinkat(at, name, AT_REMOVEDIR); });
}

std::vector<std::vector<std::string>> tree_levels(unsigned process, unsigned processes,
                                                  unsigned depth, unsigned branch) {
  const auto width = [](unsigned largest) {
    return static_cast<int>(std::to_string(largest).size());
  };
  const auto named = [](const std::string& parent, const char* format, int digits, unsigned k) {
    char text[32];
    std::snprintf(text, sizeof text, format, digits, k);
    return parent + text;
  };
  std::vector<std::vector<std::string>> levels(1);
  levels[0].push_back(named("", "rank%0*u", width(processes - 1), process));
  for (unsigned d = 1; d <= depth; ++d) {
    std::vector<std::string> next;
    next.reserve(levels.back().size() * branch);
    for (const std::string& parent : levels.back()) {
      for (unsigned k = 0; k < branch; ++k)
        next.push_back(named(parent, "/t%0*u", width(branch - 1), k));
    }
    levels.push_back(std::move(next));
  }
  return levels;
}

}  // namespace mpiwrite_floor
