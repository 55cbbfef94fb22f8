// Held directories (held_directory.hpp).
#include "mpiwrite/sys/held_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/layout_directories.hpp"

namespace mpiwrite {

DirectoryAt::DirectoryAt(const std::string& plain) : base_fd(AT_FDCWD), path(plain) {}

UniqueFd open_at(const DirectoryAt& where, bool wait_for_missing) {
  UniqueFd fd;
  if (where.base_fd == AT_FDCWD) {
    fd = UniqueFd(::open(where.path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  } else if (where.relative.empty()) {
    // "." of the held descriptor: the directory itself, wherever it now is.
    fd = UniqueFd(::openat(where.base_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  } else {
    fd = open_directory_beneath(where.base_fd, where.relative, wait_for_missing);
  }
  if (!fd) throw IoError(errno, where.path, "open directory");
  return fd;
}

DirectoryIdentity identity_of(int fd, const std::string& path) {
  struct stat info {};
  if (::fstat(fd, &info) != 0) throw IoError(errno, path, "stat");
  return {info.st_dev, info.st_ino};
}

DirectoryReplaced::DirectoryReplaced(const std::string& path)
    : std::runtime_error(path +
                         ": no longer the directory this run works in (renamed, removed "
                         "or replaced during the run); mpiwrite uses the name no more") {}

void expect_same_directory(int parent_fd, const std::string& name, const DirectoryIdentity& held,
                           const std::string& path) {
  struct stat info {};
  if (::fstatat(parent_fd, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw DirectoryReplaced(path);
    throw IoError(errno, path, "stat");
  }
  if (!S_ISDIR(info.st_mode) || DirectoryIdentity{info.st_dev, info.st_ino} != held) {
    throw DirectoryReplaced(path);
  }
}

namespace {

// `path`'s parent, opened now (following links: the user's path up to the last component is
// theirs to choose), and the last component.
UniqueFd open_parent(const std::string& path, std::string& name) {
  std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();  // "d/" names d
  name = p.filename().string();
  const std::string parent = p.has_parent_path() ? p.parent_path().string() : ".";
  UniqueFd fd(::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd) {
    if (errno == ENOENT || errno == ENOTDIR) throw DirectoryReplaced(path);
    throw IoError(errno, parent, "open directory");
  }
  return fd;
}

}  // namespace

void expect_same_directory(const std::string& path, const DirectoryIdentity& held) {
  std::string name;
  const UniqueFd parent = open_parent(path, name);
  expect_same_directory(parent.get(), name, held, path);
}

void remove_held_directory(const std::string& path, const DirectoryIdentity& held) {
  std::string name;
  const UniqueFd parent = open_parent(path, name);
  expect_same_directory(parent.get(), name, held, path);
  if (::unlinkat(parent.get(), name.c_str(), AT_REMOVEDIR) != 0) {
    throw IoError(errno, path, "remove directory");
  }
}

void remove_held_directory_if_empty(const std::string& path, const DirectoryIdentity& held) {
  std::string name;
  const UniqueFd parent = open_parent(path, name);
  expect_same_directory(parent.get(), name, held, path);
  if (::unlinkat(parent.get(), name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOTEMPTY &&
      errno != EEXIST) {
    throw IoError(errno, path, "remove directory");
  }
}

}  // namespace mpiwrite
