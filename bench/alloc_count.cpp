// A counting allocator for LD_PRELOAD: counts every heap allocation a process makes and, at
// exit, appends one line to the file named by MPIWRITE_ALLOC_COUNT_FILE (nothing when unset):
//
//   pid=1234 allocs=5678 malloc=5000 calloc=600 realloc=70 aligned=8 bytes=123456 exe=mpiwrite
//
// It answers "does mpiwrite allocate per file?" from outside, without changing mpiwrite: run
// the same job at two file counts and divide the difference of the counts by the difference
// of the files (tools/bench.sh section "alloc", tests/e2e/alloc.sh). The count covers the
// whole process (MPI_Init, planning, the write phase, the report, MPI_Finalize), so "no
// allocation per file" over the whole process implies none on the write path.
//
// What it counts: calls of malloc, calloc, realloc, reallocarray, aligned_alloc,
// posix_memalign, memalign, valloc and pvalloc. operator new and new[] (libstdc++) and glibc's
// own internal allocations (strdup, fopen, opendir, ...) go through malloc, so they are
// counted too; free is not interposed (glibc's free takes the same chunks). One line per
// process, each with its pid and program name, because under mpirun several processes append
// to the same file.
//
// Why this shape: the interposed functions forward to glibc's exported __libc_malloc,
// __libc_calloc, ... rather than to dlsym(RTLD_NEXT, "malloc"), because dlsym itself calls
// calloc (endless recursion before the pointer is known). The counters are relaxed atomics
// (the writer threads allocate concurrently, or should not at all). The report is written in
// a destructor with open/write/close on a stack buffer: no stdio, no allocation, one write()
// per line (O_APPEND, so lines of different processes do not interleave). Allocations after
// this library's destructor has run (late atexit handlers) are not counted; they do not
// depend on the number of files.
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
}

namespace {

struct Counters {
  std::atomic<std::uint64_t> malloc_calls{0}, calloc_calls{0}, realloc_calls{0}, aligned_calls{0},
      bytes{0};
};
constinit Counters counters;

inline void count(std::atomic<std::uint64_t>& calls, std::size_t bytes) {
  calls.fetch_add(1, std::memory_order_relaxed);
  counters.bytes.fetch_add(bytes, std::memory_order_relaxed);
}

bool power_of_two(std::size_t x) { return x != 0 && (x & (x - 1)) == 0; }

// Appends `text` (NUL-terminated) to the buffer at `at`, never past `end`.
char* put(char* at, char* end, const char* text) {
  while (*text != '\0' && at < end) *at++ = *text++;
  return at;
}

char* put(char* at, char* end, std::uint64_t value) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0 && at < end) *at++ = digits[--n];
  return at;
}

__attribute__((destructor)) void report() {
  const char* path = getenv("MPIWRITE_ALLOC_COUNT_FILE");
  if (path == nullptr || *path == '\0') return;
  const int saved_errno = errno;
  const std::uint64_t m = counters.malloc_calls.load(std::memory_order_relaxed);
  const std::uint64_t c = counters.calloc_calls.load(std::memory_order_relaxed);
  const std::uint64_t r = counters.realloc_calls.load(std::memory_order_relaxed);
  const std::uint64_t a = counters.aligned_calls.load(std::memory_order_relaxed);
  char line[512];
  char* const end = line + sizeof line - 1;  // room for the newline
  char* at = put(line, end, "pid=");
  at = put(at, end, static_cast<std::uint64_t>(getpid()));
  at = put(at, end, " allocs=");
  at = put(at, end, m + c + r + a);
  at = put(at, end, " malloc=");
  at = put(at, end, m);
  at = put(at, end, " calloc=");
  at = put(at, end, c);
  at = put(at, end, " realloc=");
  at = put(at, end, r);
  at = put(at, end, " aligned=");
  at = put(at, end, a);
  at = put(at, end, " bytes=");
  at = put(at, end, counters.bytes.load(std::memory_order_relaxed));
  at = put(at, end, " exe=");
  at = put(at, end, program_invocation_short_name);
  *at++ = '\n';
  const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd >= 0) {
    const ssize_t ignored = write(fd, line, static_cast<std::size_t>(at - line));
    (void)ignored;
    close(fd);
  }
  errno = saved_errno;
}

}  // namespace

extern "C" {

void* malloc(std::size_t size) noexcept {
  count(counters.malloc_calls, size);
  return __libc_malloc(size);
}

void* calloc(std::size_t n, std::size_t size) noexcept {
  count(counters.calloc_calls, n * size);
  return __libc_calloc(n, size);
}

void* realloc(void* pointer, std::size_t size) noexcept {
  count(counters.realloc_calls, size);
  return __libc_realloc(pointer, size);
}

// glibc's reallocarray calls its internal realloc, which this library cannot see.
void* reallocarray(void* pointer, std::size_t n, std::size_t size) noexcept {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(n, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  count(counters.realloc_calls, bytes);
  return __libc_realloc(pointer, bytes);
}

void* memalign(std::size_t alignment, std::size_t size) noexcept {
  count(counters.aligned_calls, size);
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  count(counters.aligned_calls, size);
  if (!power_of_two(alignment)) {
    errno = EINVAL;
    return nullptr;
  }
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** result, std::size_t alignment, std::size_t size) noexcept {
  count(counters.aligned_calls, size);
  if (!power_of_two(alignment) || alignment % sizeof(void*) != 0) return EINVAL;
  const int saved_errno = errno;
  void* p = __libc_memalign(alignment, size);
  errno = saved_errno;  // posix_memalign reports through its result, never through errno
  if (p == nullptr) return ENOMEM;
  *result = p;
  return 0;
}

void* valloc(std::size_t size) noexcept {
  count(counters.aligned_calls, size);
  return __libc_valloc(size);
}

void* pvalloc(std::size_t size) noexcept {
  count(counters.aligned_calls, size);
  return __libc_pvalloc(size);
}

}  // extern "C"
