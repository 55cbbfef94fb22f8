#include "mpiwrite/sys/verify.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/file_directories.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/system_facts.hpp"

namespace mpiwrite {

namespace {

constexpr std::uint64_t kPieceBytes = std::uint64_t{1} << 20;
constexpr std::size_t kMaxKeptOpen = 4096;  // directories, as a writer thread's most

// Reads until `buffer` is full or the file ends: the bytes read, or -1 with errno.
ssize_t read_piece(int fd, std::vector<char>& buffer) {
  std::size_t got = 0;
  while (got < buffer.size()) {
    const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

}  // namespace

FileVerifier::FileVerifier(FilePattern pattern, const std::string& text, std::uint64_t lines)
    : FileVerifier(std::move(pattern), text,
                   file_bytes_of(lines, text.size() + 1, WriteMode::Whole, {}, {})) {}

FileVerifier::FileVerifier(FilePattern pattern, const std::string& text, const FileBytes& bytes)
    : namer_(std::move(pattern)), line_(text + '\n'), size_(bytes.file) {
  // Whole lines, so every piece starts where a line does and compares against the same text
  // (a file cut within a line compares its last piece's first bytes).
  const std::uint64_t lines = std::max<std::uint64_t>(1, (size_ + line_.size() - 1) / line_.size());
  const std::uint64_t piece_lines =
      std::min(lines, std::max<std::uint64_t>(1, kPieceBytes / line_.size()));
  expected_.reserve(piece_lines * line_.size());
  for (std::uint64_t i = 0; i < piece_lines; ++i) expected_ += line_;
  buffer_.resize(expected_.size());
}

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
  // The files come in no directory order (a cyclic slice steps through every thread's
  // directory in turn; records come in chunks): each directory kept open once opened, up to
  // half the descriptor limit, rather than closed and reopened for nearly every file.
  directories.keep_open(std::clamp<std::size_t>(descriptor_limit() / 2, 8, kMaxKeptOpen));
  for (const Progression& files : parts) {
    check_part(dir.path, files, directories, stop, max_problems, tick, result);
  }
  return result;
}

void FileVerifier::check_part(const std::string& dir, const Progression& files,
                              FileDirectories& directories, const std::atomic<int>* stop,
                              std::size_t max_problems, ProgressTick* tick, VerifyResult& result) {
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
  // The size is checked before the content, as when the file was read whole: reading goes on
  // past a difference (to one byte past the expected size) and remembers where it was.
  std::uint64_t got = 0;
  std::uint64_t differs_at = size_;  // size_: nowhere
  while (got <= size_) {
    const ssize_t n = read_piece(fd.get(), buffer_);
    if (n < 0) return fmt::format("read: {}", std::generic_category().message(errno));
    if (n == 0) break;
    const std::uint64_t read = static_cast<std::uint64_t>(n);
    const std::uint64_t compared = got < size_ ? std::min(read, size_ - got) : 0;
    if (differs_at == size_ && std::memcmp(buffer_.data(), expected_.data(), compared) != 0) {
      std::uint64_t at = 0;
      while (buffer_[at] == expected_[at]) ++at;
      differs_at = got + at;
    }
    got += read;
  }
  if (got != size_) {
    return got > size_ ? fmt::format("longer than the expected {} bytes", size_)
                       : fmt::format("{} bytes, expected {}", got, size_);
  }
  if (differs_at != size_) return fmt::format("content differs at byte {}", differs_at);
  return {};
}

}  // namespace mpiwrite
