#pragma once
// The parents of a tree phase's directories (Writer::run_tree), reached without following a
// link (private to src/engines: the posix engine's tree loop, posix_phases.cpp).

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <string_view>

#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

// The parent of each tree directory, walked from the run directory one component at a time
// with O_NOFOLLOW (as open_directory_beneath, layout_directories.hpp), so that a symbolic link
// put anywhere on a tree path is refused, never followed out of the run directory; the last
// component is made or removed in the parent's descriptor (mkdirat and unlinkat follow no
// link there). A level's directories come in order, children of one parent together: the
// parent is walked again only when it changes (once per --branch directories), before the
// item's clock starts, and into buffers that keep their memory (no allocation per item).
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
    if (parent_fd_ && parent == parent_) return parent_fd_.get();
    parent_fd_ = UniqueFd();
    parent_.assign(parent);
    walk_.assign(parent);
    UniqueFd current;
    for (char* component = walk_.data(); component != nullptr;) {
      char* next = std::find(component, walk_.data() + walk_.size(), '/');
      if (next == walk_.data() + walk_.size()) {
        next = nullptr;
      } else {
        *next++ = '\0';
      }
      UniqueFd opened(sys::openat(current ? current.get() : base_fd_, component,
                                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0));
      if (!opened) {
        const int error = errno;
        current = UniqueFd();  // closed first, so that errno stays the openat's
        errno = error;
        return -1;
      }
      current = std::move(opened);
      component = next;
    }
    parent_fd_ = std::move(current);
    return parent_fd_.get();
  }

 private:
  int base_fd_;
  std::string parent_;  // the parent parent_fd_ is, relative to the run directory
  std::string walk_;    // parent_ cut into components
  UniqueFd parent_fd_;
};

}  // namespace mpiwrite
