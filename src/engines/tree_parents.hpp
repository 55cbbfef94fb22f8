#pragma once
// The parents of a tree phase's directories (Writer::run_tree), reached without following a
// link (private to src/engines: the posix engine's tree loop, posix_phases.cpp).

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

// The parent of each tree directory, walked from the run directory one component at a time
// with O_NOFOLLOW (as open_directory_beneath, layout_directories.hpp), so that a symbolic link
// put anywhere on a tree path is refused, never followed out of the run directory; the last
// component is made or removed in the parent's descriptor (mkdirat and unlinkat follow no
// link there). A level's directories come in order, children of one parent together, and
// neighbouring parents share all but their last components: the descriptors of the walked
// prefix are kept, and a new parent opens only the components that differ from the previous
// one (about one openat per --branch directories, where walking from the top cost depth
// openats and was ~40% of a tmpfs mkdir; bench section floor). All of it before the item's
// clock starts, into buffers that keep their memory (no allocation per item).
class TreeParents {
 public:
  explicit TreeParents(int base_fd) : base_fd_(base_fd) {}

  // The descriptor of `path`'s parent, and in `name` its last component; -1 and errno if the
  // walk failed.
  int parent_of(const std::string& path, const char*& name) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) {
      name = path.c_str();
      return base_fd_;
    }
    name = path.c_str() + slash + 1;
    const std::string_view parent(path.data(), slash);
    if (!opened_.empty() && parent == parent_) return opened_.back().get();
    std::size_t keep = 0;  // the components this parent shares with the previous one
    while (keep < ends_.size() && shares_component(parent, ends_[keep])) ++keep;
    opened_.resize(keep);  // closes the rest
    ends_.resize(keep);
    parent_.assign(parent);
    for (std::size_t start = keep == 0 ? 0 : ends_.back() + 1; start < parent_.size();) {
      const std::size_t end = std::min(parent_.find('/', start), parent_.size());
      component_.assign(parent_, start, end - start);
      UniqueFd fd(sys::openat(opened_.empty() ? base_fd_ : opened_.back().get(),
                              component_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
                              0));
      if (!fd) {
        const int error = errno;
        opened_.clear();  // closed first, so that errno stays the openat's
        ends_.clear();
        errno = error;
        return -1;
      }
      ++opens_;
      opened_.push_back(std::move(fd));
      ends_.push_back(end);
      start = end + 1;
    }
    return opened_.back().get();
  }

  // How many directories the walks opened so far: a change says this item's walk opened one.
  std::uint64_t opens() const { return opens_; }

 private:
  // Whether `parent` begins with the previous parent's components up to `end` (whole ones).
  bool shares_component(std::string_view parent, std::size_t end) const {
    return end <= parent.size() && (end == parent.size() || parent[end] == '/') &&
           parent.compare(0, end, parent_, 0, end) == 0;
  }

  int base_fd_;
  std::string parent_;             // the parent walked last, relative to the run directory
  std::vector<UniqueFd> opened_;   // opened_[i]: parent_'s first i + 1 components, opened
  std::vector<std::size_t> ends_;  // ends_[i]: where component i ends in parent_
  std::string component_;          // the component being opened, NUL-terminated
  std::uint64_t opens_ = 0;
};

}  // namespace mpiwrite
