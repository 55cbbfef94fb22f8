#pragma once
// --verify: read files back and check their size and content. POSIX only, no MPI; which rank
// checks which files is decided by the coordinator (a different rank than the writer).

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/file_bytes.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/partition.hpp"
#include "mpiwrite/core/progress_tick.hpp"
#include "mpiwrite/sys/held_directory.hpp"

namespace mpiwrite {

class FileDirectories;

struct VerifyResult {
  std::uint64_t checked = 0;
  std::uint64_t mismatches = 0;       // missing, wrong size or wrong content
  std::vector<std::string> problems;  // "PATH: what is wrong", the first few only
};

class FileVerifier {
 public:
  // Every file should hold `lines` lines of `text` + '\n'.
  FileVerifier(FilePattern pattern, const std::string& text, std::uint64_t lines);
  // Every file should hold `bytes.file` bytes of `text` + '\n' repeated (--file-size: cut
  // there, maybe within a line; 0: empty).
  FileVerifier(FilePattern pattern, const std::string& text, const FileBytes& bytes);
  // Reads every file of `files` in `dir` into a reused buffer and compares, until done or
  // `stop` (if given) is non-zero. Throws IoError only when `dir` itself cannot be opened.
  // Never follows a symbolic link, never blocks on a FIFO: either is a wrong file. `layout`
  // (nullptr: all in `dir`): which subdirectory of `dir` holds each file; one that cannot be
  // opened makes its files wrong. `tick` (if given): told of every file checked (--progress).
  VerifyResult verify(const DirectoryAt& dir, const Progression& files,
                      const std::atomic<int>* stop = nullptr, std::size_t max_problems = 3,
                      const DirectoryLayout* layout = nullptr, ProgressTick* tick = nullptr);
  // The same for every file of every part of `parts`, in order, through one opening of `dir`
  // (a time-limited step's records: a part per chunk a writer took).
  VerifyResult verify(const DirectoryAt& dir, const std::vector<Progression>& parts,
                      const std::atomic<int>* stop = nullptr, std::size_t max_problems = 3,
                      const DirectoryLayout* layout = nullptr, ProgressTick* tick = nullptr);

 private:
  void check_part(const std::string& dir, const Progression& files, FileDirectories& directories,
                  const std::atomic<int>* stop, std::size_t max_problems, ProgressTick* tick,
                  VerifyResult& result);
  // Empty when the file is right, else what is wrong.
  std::string check(int dir_fd, const char* name);

  FileNamer namer_;
  std::string line_;
  std::uint64_t size_ = 0;
  // A file is read and compared a piece at a time (a whole number of lines, about 1 MiB, or
  // the file's lines when smaller; at least one, so an empty file's extra bytes are seen), so
  // a 1 GiB file costs 2 MiB here, not 1 GiB on every rank.
  std::string expected_;      // the lines of one piece
  std::vector<char> buffer_;  // one piece read
};

}  // namespace mpiwrite
