// The floor: the least a program can do to produce mpiwrite's files. The same system calls as
// mpiwrite's write phase (openat O_CREAT|O_EXCL, `lines` writes or one write, close) with the
// same split of files over processes and threads, and nothing else: no MPI, no histogram.
//
// usage: mpiwrite_floor DIR FILES LINES TEXT line|whole PROCESSES THREADS
// Prints the makespan in seconds: from the earliest process start after a common start signal
// to the last process's last close(), on steady_clock (one axis: all processes share it), the
// same definition as mpiwrite's.
//
// Diagnostic knob: with MPIWRITE_FLOOR_IDLE_THREADS=K in the environment every process also starts
// K threads that only sleep, before the start signal (an MPI library starts such helper threads
// in every rank: Open MPI 4.1 two). It changes no system call of the timed phase, only makes the
// process multi-threaded, which makes each write() dearer (the kernel's fdget_pos takes
// f_pos_lock, glibc wraps the call as a cancellation point). Unset or 0: the plain floor.
//
// Fairness against mpiwrite: every process is forked, opens DIR and (with THREADS > 1) starts
// its threads before the start signal, as mpiwrite opens the directory and builds its thread
// pool before the barrier; so the timed phase holds only the per-file system calls and the
// wake-up of already running threads, never fork(), clone() or thread stacks.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
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

// Block split of [first, first + count) into `parts`; the first count % parts get one more
// (mpiwrite's default --partition block, for ranks and for the threads of a rank).
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

struct Job {
  int dir_fd;
  std::uint64_t lines;
  const std::string* line;
  const std::string* whole;
  bool line_mode;
};

void write_files(const Job& job, Range range) {
  char name[64] = "write";  // "write" + up to 20 digits + ".txt"
  for (std::uint64_t index = range.first; index < range.first + range.count; ++index) {
    char* end = std::to_chars(name + 5, name + 5 + 20, index).ptr;
    std::memcpy(end, ".txt", 5);
    const int fd = ::openat(job.dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      std::perror(name);
      std::_Exit(1);
    }
    bool ok = true;
    if (job.line_mode) {
      for (std::uint64_t i = 0; i < job.lines && ok; ++i) {
        ok = write_all(fd, job.line->data(), job.line->size());
      }
    } else {
      ok = write_all(fd, job.whole->data(), job.whole->size());
    }
    if (!ok || ::close(fd) != 0) {
      std::perror(name);
      std::_Exit(1);
    }
  }
}

bool parse_count(const char* text, std::uint64_t& value) {
  const char* end = text + std::strlen(text);
  const auto [stop, error] = std::from_chars(text, end, value);
  return error == std::errc{} && stop == end && value >= 1;
}

unsigned long idle_threads() {
  const char* text = std::getenv("MPIWRITE_FLOOR_IDLE_THREADS");
  std::uint64_t value = 0;
  if (text == nullptr || *text == '\0' || std::strcmp(text, "0") == 0) return 0;
  if (!parse_count(text, value) || value > 64) {
    std::fprintf(stderr, "mpiwrite_floor: MPIWRITE_FLOOR_IDLE_THREADS must be 0..64\n");
    std::_Exit(2);
  }
  return static_cast<unsigned long>(value);
}

// Blocks until `counter` holds `wanted`.
void wait_until(std::atomic<unsigned>& counter, unsigned wanted) {
  for (unsigned seen = counter.load(std::memory_order_acquire); seen != wanted;
       seen = counter.load(std::memory_order_acquire)) {
    counter.wait(seen, std::memory_order_acquire);
  }
}

// One forked process: the part `mine` of the files, on `threads` threads.
[[noreturn]] void run_process(const std::string& dir, const Job& base, Range mine, unsigned threads,
                              unsigned long idle, int go_fd, int result_fd) {
  Job job = base;
  job.dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (job.dir_fd < 0) {
    std::perror(dir.c_str());
    std::_Exit(1);
  }

  for (unsigned long k = idle; k > 0; --k) {
    std::thread([] {
      for (;;) ::pause();
    }).detach();  // ended by _Exit
  }

  // Threads are started, and parked on an atomic (a futex wait), before the start signal; each
  // reports its last close() through `running` and parks again until the clock has stopped, so
  // neither thread start-up nor teardown is timed (mpiwrite's pool threads exist before its
  // barrier and outlive its timed phase too).
  std::atomic<unsigned> ready{0}, running{threads};
  std::atomic<bool> released{false}, finished{false};
  std::vector<std::thread> pool;
  if (threads > 1) {
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, part = block(mine, threads, t)] {
        if (ready.fetch_add(1, std::memory_order_acq_rel) + 1 == threads) ready.notify_one();
        released.wait(false, std::memory_order_acquire);
        write_files(job, part);
        if (running.fetch_sub(1, std::memory_order_acq_rel) == 1) running.notify_one();
        finished.wait(false, std::memory_order_acquire);
      });
    }
    wait_until(ready, threads);
  }

  char byte = 0;
  if (::read(go_fd, &byte, 1) != 1) std::_Exit(1);  // the common start
  const auto start = std::chrono::steady_clock::now();
  if (threads == 1) {
    write_files(job, mine);
  } else {
    released.store(true, std::memory_order_release);
    released.notify_all();
    wait_until(running, 0);
  }
  const auto end = std::chrono::steady_clock::now();
  finished.store(true, std::memory_order_release);
  finished.notify_all();
  for (std::thread& t : pool) t.join();
  const double span[2] = {std::chrono::duration<double>(start.time_since_epoch()).count(),
                          std::chrono::duration<double>(end.time_since_epoch()).count()};
  if (::write(result_fd, span, sizeof span) != sizeof span) std::_Exit(1);
  std::_Exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t files = 0, lines = 0, processes = 0, threads = 0;
  const bool valid = argc == 8 && parse_count(argv[2], files) && parse_count(argv[3], lines) &&
                     (std::strcmp(argv[5], "line") == 0 || std::strcmp(argv[5], "whole") == 0) &&
                     parse_count(argv[6], processes) && parse_count(argv[7], threads) &&
                     processes <= 1024 && threads <= 1024;
  if (!valid) {
    std::fprintf(stderr,
                 "usage: %s DIR FILES LINES TEXT line|whole PROCESSES THREADS\n"
                 "  (FILES, LINES, PROCESSES, THREADS: whole numbers >= 1)\n",
                 argc > 0 ? argv[0] : "mpiwrite_floor");
    return 2;
  }
  const std::string dir = argv[1];
  const std::string line = std::string(argv[4]) + "\n";
  const bool line_mode = std::strcmp(argv[5], "line") == 0;
  std::string whole;
  if (!line_mode) {
    whole.reserve(line.size() * lines);
    for (std::uint64_t i = 0; i < lines; ++i) whole += line;
  }
  const Job job{-1, lines, &line, &whole, line_mode};
  const unsigned long idle = idle_threads();

  int go[2], results[2];
  if (::pipe(go) != 0 || ::pipe(results) != 0) {
    std::perror("pipe");
    return 1;
  }
  std::fflush(nullptr);
  unsigned forked = 0;
  for (unsigned p = 0; p < processes; ++p) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      std::perror("fork");
      break;
    }
    if (pid == 0) {
      run_process(dir, job, block({1, files}, processes, p), static_cast<unsigned>(threads), idle,
                  go[0], results[1]);
    }
    ++forked;
  }
  // Children are forked and waiting: release them together (a child that died early leaves its
  // byte in the pipe; the parent holds the read end, so this write cannot raise SIGPIPE).
  const std::string bytes(forked, 'g');
  const bool released =
      ::write(go[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  if (!released) std::perror("write start signal");
  bool failed = forked != processes || !released;
  for (unsigned p = 0; p < forked; ++p) {
    int status = 0;
    if (::wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = true;
  }
  ::close(results[1]);
  // Each process's start and end on the shared clock (a 16-byte write to a pipe is atomic).
  double span[2] = {0, 0};
  double first_start = 0, last_end = 0;
  unsigned reported = 0;
  while (::read(results[0], span, sizeof span) == sizeof span) {
    first_start = reported ? std::min(first_start, span[0]) : span[0];
    last_end = reported ? std::max(last_end, span[1]) : span[1];
    ++reported;
  }
  const double makespan = last_end - first_start;
  if (failed || reported != processes) {
    std::fprintf(stderr, "mpiwrite_floor: %llu of %llu process(es) failed\n",
                 static_cast<unsigned long long>(processes - reported),
                 static_cast<unsigned long long>(processes));
    return 1;
  }
  std::printf("%.9f\n", makespan);
  return 0;
}
