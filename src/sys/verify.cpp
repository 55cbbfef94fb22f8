#include "mpiwrite/sys/verify.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/file_directories.hpp"
#include "mpiwrite/sys/posix_file.hpp"

namespace mpiwrite {

FileVerifier::FileVerifier(FilePattern pattern, const std::string& text, std::uint64_t lines)
    : namer_(std::move(pattern)), line_(text + '\n'), size_(line_.size() * lines),
      buffer_(size_ + 1) {}

VerifyResult FileVerifier::verify(const DirectoryAt& dir, const Progression& files,
                                  const std::atomic<int>* stop, std::size_t max_problems,
                                  const DirectoryLayout* layout, ProgressTick* tick) {
  return verify(dir, std::vector<Progression>{files}, stop, max_problems, layout, tick);
}

VerifyResult FileVerifier::verify(const DirectoryAt& dir, const std::vector<Progression>& parts,
                                  const std::atomic<int>* stop, std::size_t max_problems,
                                  const DirectoryLayout* layout, ProgressTick* tick) {
  VerifyResult result;
  const UniqueFd dir_fd = open_at(dir);
  FileDirectories directories(dir_fd.get(), dir.path, layout);
  for (const Progression& files : parts) {
    check_part(dir.path, files, directories, stop, max_problems, tick, result);
  }
  return result;
}

void FileVerifier::check_part(const std::string& dir, const Progression& files,
                              FileDirectories& directories, const std::atomic<int>* stop,
                              std::size_t max_problems, ProgressTick* tick,
                              VerifyResult& result) {
  for (std::uint64_t i = 0; i < files.count; ++i) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed) != 0) break;
    const std::uint64_t index = files.at(i);
    const char* name = namer_.name(index);
    ++result.checked;
    if (tick != nullptr) tick->add();
    std::string problem;
    std::string where = dir;
    try {
      const FileDirectories::Handle in = directories.acquire(index);
      where = directories.path(in);
      problem = check(in.fd, name);
      directories.release(in);
    } catch (const IoError& e) {  // its directory is gone or not a directory: the file is wrong
      where = e.path();
      problem = fmt::format("open directory: {}", e.code().message());
    }
    if (problem.empty()) continue;
    ++result.mismatches;
    if (result.problems.size() < max_problems) {
      result.problems.push_back(fmt::format("{}/{}: {}", where, name, problem));
    }
  }
}

std::string FileVerifier::check(int dir_fd, const char* name) {
  UniqueFd fd(::openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!fd) return fmt::format("open: {}", std::generic_category().message(errno));
  std::uint64_t got = 0;
  while (got < buffer_.size()) {
    const ssize_t n = ::read(fd.get(), buffer_.data() + got, buffer_.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fmt::format("read: {}", std::generic_category().message(errno));
    if (n == 0) break;
    got += static_cast<std::uint64_t>(n);
  }
  if (got != size_) {
    return got > size_ ? fmt::format("longer than the expected {} bytes", size_)
                       : fmt::format("{} bytes, expected {}", got, size_);
  }
  for (std::uint64_t offset = 0; offset < size_; offset += line_.size()) {
    if (std::memcmp(buffer_.data() + offset, line_.data(), line_.size()) != 0) {
      std::uint64_t at = offset;
      while (buffer_[at] == line_[at - offset]) ++at;
      return fmt::format("content differs at byte {}", at);
    }
  }
  return {};
}

}  // namespace mpiwrite
