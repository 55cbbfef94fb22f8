#pragma once
// Directories the run holds by a descriptor opened once, and the directories it reaches from
// them. POSIX only.
//
// A directory reached twice by its path is not the same directory: --dir renamed during the run
// and a symbolic link to another directory put in its place made a later removal by path unlink
// that other directory's files. So the run opens --dir (and its scratch root) once and works
// relative to the descriptor (openat, mkdirat, unlinkat); a path below it is walked one
// component at a time with O_NOFOLLOW. Where a name must be used again (the rmdir of --dir or of
// the scratch root, the rename to trash), it is first checked to lead to the same directory
// (device and inode) as the descriptor, and the run stops with DirectoryReplaced if not.

#include <sys/types.h>

#include <stdexcept>
#include <string>

#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

// A directory as the kernel knows it: what a name must still lead to.
struct DirectoryIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const DirectoryIdentity&) const = default;
};

// A directory reached from a held one. `base_fd` is borrowed (a directory the caller holds
// open); `relative` is the path below it ("" for that directory itself), each component opened
// with O_DIRECTORY | O_NOFOLLOW; `path` names it in messages. Made from a plain path (base_fd
// AT_FDCWD), it is opened by that path: for callers that hold nothing (tests, tools).
struct DirectoryAt {
  DirectoryAt() = default;
  DirectoryAt(int base, std::string below, std::string full)
      : base_fd(base), relative(std::move(below)), path(std::move(full)) {}
  DirectoryAt(const std::string& plain);  // NOLINT: a plain path is a DirectoryAt by path
  DirectoryAt(const char* plain) : DirectoryAt(std::string(plain)) {}  // NOLINT: as above

  int base_fd = -1;
  std::string relative;
  std::string path;
};

// Opens `where`; `wait_for_missing` as open_directory_beneath's. Throws IoError naming
// where.path.
UniqueFd open_at(const DirectoryAt& where, bool wait_for_missing = false);

// The directory open as `fd`. Throws IoError naming `path`.
DirectoryIdentity identity_of(int fd, const std::string& path);

// The name no longer leads to the directory the run holds.
class DirectoryReplaced : public std::runtime_error {
 public:
  explicit DirectoryReplaced(const std::string& path);
};

// Throws DirectoryReplaced unless `name` in the directory `parent_fd` (not followed if it is a
// link) is the directory `held`; `path` names it. A name that is gone is replaced too.
void expect_same_directory(int parent_fd, const std::string& name, const DirectoryIdentity& held,
                           const std::string& path);

// The same for an absolute or relative `path`, looked up in its parent (opened now).
void expect_same_directory(const std::string& path, const DirectoryIdentity& held);

// rmdir of `path` if it still is the directory `held` (else DirectoryReplaced). Throws IoError.
void remove_held_directory(const std::string& path, const DirectoryIdentity& held);
// The same, but a directory that still holds something is kept, and that is no failure (the
// run tidies what it emptied, unasked: CreationLedger::dir_emptied).
void remove_held_directory_if_empty(const std::string& path, const DirectoryIdentity& held);

}  // namespace mpiwrite
