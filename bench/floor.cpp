// The floor: the least a program can do to produce mpiwrite's files. The same system calls as
// mpiwrite's write phase (openat O_CREAT|O_EXCL, `lines` writes or one write, close) with the
// same split of files over processes and threads, and nothing else: no MPI, no histogram.
//
// usage: mpiwrite_floor DIR FILES LINES TEXT line|whole PROCESSES THREADS
// Prints the makespan in seconds: the slowest process's time from a common start signal to
// its last close(), on steady_clock (the same definition as mpiwrite's).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Range {
  std::uint64_t first, count;
};

// Block split of [first, first + count) into `parts`; the first count % parts get one more.
Range block(Range whole, std::uint64_t parts, std::uint64_t part) {
  const std::uint64_t base = whole.count / parts, extra = whole.count % parts;
  return {whole.first + part * base + std::min(part, extra), base + (part < extra ? 1 : 0)};
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

void write_files(int dir_fd, Range range, std::uint64_t lines, const std::string& line,
                 const std::string& whole, bool line_mode) {
  char name[64];
  for (std::uint64_t index = range.first; index < range.first + range.count; ++index) {
    char* end = std::to_chars(name, name + 40, index).ptr;
    std::strcpy(end, ".txt");
    std::memmove(name + 5, name, static_cast<std::size_t>(end - name) + 5);
    std::memcpy(name, "write", 5);
    const int fd = ::openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) { std::perror(name); std::_Exit(1); }
    bool ok = true;
    if (line_mode) {
      for (std::uint64_t i = 0; i < lines && ok; ++i) ok = write_all(fd, line.data(), line.size());
    } else {
      ok = write_all(fd, whole.data(), whole.size());
    }
    if (!ok || ::close(fd) != 0) { std::perror(name); std::_Exit(1); }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: %s DIR FILES LINES TEXT line|whole PROCESSES THREADS\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const std::uint64_t files = std::strtoull(argv[2], nullptr, 10);
  const std::uint64_t lines = std::strtoull(argv[3], nullptr, 10);
  const std::string line = std::string(argv[4]) + "\n";
  const bool line_mode = std::strcmp(argv[5], "line") == 0;
  const unsigned processes = static_cast<unsigned>(std::strtoul(argv[6], nullptr, 10));
  const unsigned threads = static_cast<unsigned>(std::strtoul(argv[7], nullptr, 10));
  std::string whole;
  if (!line_mode) for (std::uint64_t i = 0; i < lines; ++i) whole += line;

  int go[2], results[2];
  if (::pipe(go) != 0 || ::pipe(results) != 0) { std::perror("pipe"); return 1; }
  for (unsigned p = 0; p < processes; ++p) {
    if (::fork() != 0) continue;
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) { std::perror(dir.c_str()); std::_Exit(1); }
    const Range mine = block({1, files}, processes, p);
    char byte;
    if (::read(go[0], &byte, 1) != 1) std::_Exit(1);  // the common start
    const auto start = std::chrono::steady_clock::now();
    if (threads == 1) {
      write_files(dir_fd, mine, lines, line, whole, line_mode);
    } else {
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back(write_files, dir_fd, block(mine, threads, t), lines, std::cref(line),
                          std::cref(whole), line_mode);
      }
      for (std::thread& t : pool) t.join();
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (::write(results[1], &elapsed, sizeof elapsed) != sizeof elapsed) std::_Exit(1);
    std::_Exit(0);
  }
  // Children are forked and waiting: release them together.
  const std::string bytes(processes, 'g');
  if (::write(go[1], bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) return 1;
  double makespan = 0;
  int failed = 0;
  for (unsigned p = 0; p < processes; ++p) {
    int status = 0;
    ::wait(&status);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
  }
  ::close(results[1]);
  double elapsed = 0;
  while (::read(results[0], &elapsed, sizeof elapsed) == sizeof elapsed) makespan = std::max(makespan, elapsed);
  if (failed) return 1;
  std::printf("%.9f\n", makespan);
  return 0;
}
