#pragma once
// A file's directory while the posix engine works on the file (private to src/engines): taken
// from the writer thread's FileDirectories and given back when the file is done. Shared by the
// write loop (posix_engine.cpp) and the other phases' loops (posix_phases.cpp).

#include <cstdint>
#include <string>

#include "mpiwrite/sys/file_directories.hpp"

namespace mpiwrite {

// Opened (when the layout moves on to a new directory) before the file's clock starts: a phase
// cost, outside the file's own time. Throws IoError: FileEngine's write/files record it.
class DirectoryInUse {
 public:
  DirectoryInUse(FileDirectories& directories, std::uint64_t index)
      : directories_(directories), handle_(directories.acquire(index)) {}
  ~DirectoryInUse() { directories_.release(handle_); }
  DirectoryInUse(const DirectoryInUse&) = delete;
  DirectoryInUse& operator=(const DirectoryInUse&) = delete;
  int fd() const { return handle_.fd; }
  const std::string& path() const { return directories_.path(handle_); }

 private:
  FileDirectories& directories_;
  const FileDirectories::Handle handle_;
};

}  // namespace mpiwrite
