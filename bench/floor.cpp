// The floor: the least a program can do to produce, stat, read and remove mpiwrite's files and
// make and remove its directory tree. Per item the same system calls as mpiwrite's phases
// (bench/floor_loops.hpp lists them), with the same split of the items over processes and
// threads, and nothing else: no MPI, no clock per item, no histogram.
//
// usage: mpiwrite_floor DIR FILES LINES TEXT line|whole PROCESSES THREADS
//                       [--phases LIST] [--shift S] [--tree DEPTH,BRANCH] [--tree-walk W]
// Without --phases: the write phase, and one line, its makespan in seconds (what the floor
// printed before it had phases). With --phases (a comma-separated subset of tree-create, write,
// stat, read, remove, tree-remove; run in that order, as mpiwrite runs them): one line per
// phase, "PHASE MAKESPAN_S ITEMS". The makespan of a phase is from the earliest process start
// after the phase's common start signal to the last process's last item, on steady_clock (one
// axis: all processes share it), the same definition as mpiwrite's; every process reports its
// end and waits before the next phase starts (mpiwrite's barrier between phases).
// Files are DIR/write<i>.txt, i = 1..FILES, process p writing (and removing) block p of them;
// stat and read go to block (p + S) % PROCESSES (mpiwrite's --shift, mdtest -N; S = 0: each
// its own). --tree: the tree phases only (no file phase), each process making (and removing)
// its own tree DIR/rank<p>/t<k>/... of DEPTH levels of BRANCH, parents first, one round of its
// threads per level (each takes a contiguous block of the level), as mpiwrite's run_tree does.
// --tree-walk safe (the default) reaches each parent as mpiwrite must, without following a
// link (floor_loops.hpp, TreeWalk); path gives the kernel the whole path: what the safety costs.
//
// Diagnostic knob: with MPIWRITE_FLOOR_IDLE_THREADS=K in the environment every process also starts
// K threads that only sleep, before the start signal (an MPI library starts such helper threads
// in every rank: Open MPI 4.1 two). It changes no system call of the timed phase, only makes the
// process multi-threaded, which makes each write() dearer (the kernel's fdget_pos takes
// f_pos_lock, glibc wraps the call as a cancellation point). Unset or 0: the plain floor.
//
// Fairness against mpiwrite: every process is forked, opens DIR, (with THREADS > 1) starts
// its threads and reports ready before the first start signal, as mpiwrite opens the directory
// and builds its thread pool before the barrier; so the timed phases hold only the per-item
// system calls and the wake-up of already running threads, never fork(), clone() or stacks.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "floor_loops.hpp"

namespace {

using namespace mpiwrite_floor;

struct Options {
  std::string dir;
  std::uint64_t files = 0, processes = 0, threads = 0, shift = 0, depth = 0, branch = 0;
  Content content;
  std::vector<Phase> phases;  // in the order they run
  bool tree = false;
  TreeWalk walk = TreeWalk::Safe;
  bool per_phase_output = false;
};

bool parse_number(std::string_view text, std::uint64_t& value, std::uint64_t least) {
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc{} && stop == text.data() + text.size() && value >= least;
}

bool parse_count(const char* text, std::uint64_t& value) { return parse_number(text, value, 1); }

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

// "a,b,c" into phases in kPhaseNames' order; false on an unknown or repeated name.
bool parse_phases(std::string_view list, std::vector<Phase>& out) {
  std::array<bool, kPhases> on{};
  while (!list.empty()) {
    const std::size_t comma = std::min(list.find(','), list.size());
    const std::string_view word = list.substr(0, comma);
    list.remove_prefix(std::min(comma + 1, list.size()));
    const auto* it = std::find(std::begin(kPhaseNames), std::end(kPhaseNames), word);
    if (it == std::end(kPhaseNames)) return false;
    const auto k = static_cast<std::size_t>(it - std::begin(kPhaseNames));
    if (on[k]) return false;
    on[k] = true;
  }
  for (std::size_t k = 0; k < on.size(); ++k) {
    if (on[k]) out.push_back(static_cast<Phase>(k));
  }
  return !out.empty();
}

bool has(const Options& o, Phase phase) {
  return std::find(o.phases.begin(), o.phases.end(), phase) != o.phases.end();
}

// The options, or an empty `dir` after printing why not.
Options parse(int argc, char** argv) {
  Options o;
  const bool positional =
      argc >= 8 && parse_count(argv[2], o.files) && parse_count(argv[3], o.content.lines) &&
      (std::strcmp(argv[5], "line") == 0 || std::strcmp(argv[5], "whole") == 0) &&
      parse_count(argv[6], o.processes) && parse_count(argv[7], o.threads) && o.processes <= 1024 &&
      o.threads <= 1024;
  bool valid = positional;
  for (int i = 8; valid && i < argc; i += 2) {
    const std::string_view flag = argv[i];
    const std::string_view value = i + 1 < argc ? argv[i + 1] : "";
    if (i + 1 >= argc) {
      valid = false;
    } else if (flag == "--phases") {
      o.phases.clear();
      valid = parse_phases(value, o.phases);
      o.per_phase_output = true;
    } else if (flag == "--shift") {
      valid = parse_number(value, o.shift, 0);
    } else if (flag == "--tree") {
      const std::size_t comma = value.find(',');
      valid = comma != std::string_view::npos && parse_number(value.substr(0, comma), o.depth, 0) &&
              o.depth <= 10 &&
              parse_count(std::string(value.substr(comma + 1)).c_str(), o.branch) &&
              o.branch <= 1000;
      o.tree = true;
    } else if (flag == "--tree-walk") {
      valid = value == "safe" || value == "path";
      o.walk = value == "path" ? TreeWalk::Path : TreeWalk::Safe;
    } else {
      valid = false;
    }
  }
  if (valid && o.phases.empty()) o.phases = {Phase::Write};
  // A tree run is the tree phases alone; a file run has no tree phase and writes first.
  const bool file_phase =
      has(o, Phase::Write) || has(o, Phase::Stat) || has(o, Phase::Read) || has(o, Phase::Remove);
  if (valid && o.tree) {
    valid = !file_phase && (has(o, Phase::TreeCreate) || !has(o, Phase::TreeRemove));
  } else if (valid) {
    valid = has(o, Phase::Write) && !has(o, Phase::TreeCreate) && !has(o, Phase::TreeRemove);
  }
  if (valid && o.tree) {  // at most 10,000,000 directories per process
    std::uint64_t level = 1, total = 1;
    for (std::uint64_t d = 0; d < o.depth && total <= 10'000'000; ++d) total += level *= o.branch;
    valid = total <= 10'000'000;
  }
  if (!valid) {
    std::fprintf(stderr,
                 "usage: %s DIR FILES LINES TEXT line|whole PROCESSES THREADS\n"
                 "         [--phases LIST] [--shift S] [--tree DEPTH,BRANCH]\n"
                 "         [--tree-walk safe|path]\n"
                 "  FILES, LINES, PROCESSES, THREADS: whole numbers >= 1; LIST: comma-separated\n"
                 "  tree-create, write, stat, read, remove, tree-remove; without --tree it has\n"
                 "  write and no tree phase; with --tree (DEPTH 0..10, BRANCH 1..1000, at most\n"
                 "  10,000,000 directories) only the tree phases, tree-remove with tree-create;\n"
                 "  --tree-walk: parents walked without following links (safe, as mpiwrite;\n"
                 "  the default) or whole paths to mkdirat/unlinkat (path)\n",
                 argc > 0 ? argv[0] : "mpiwrite_floor");
    return {};
  }
  o.dir = argv[1];
  o.content.line = std::string(argv[4]) + "\n";
  o.content.line_mode = std::strcmp(argv[5], "line") == 0;
  if (!o.content.line_mode) {
    o.content.whole.reserve(o.content.line.size() * o.content.lines);
    for (std::uint64_t i = 0; i < o.content.lines; ++i) o.content.whole += o.content.line;
  }
  return o;
}

// Blocks until `counter` holds `wanted`.
void wait_until(std::atomic<unsigned>& counter, unsigned wanted) {
  for (unsigned seen = counter.load(std::memory_order_acquire); seen != wanted;
       seen = counter.load(std::memory_order_acquire)) {
    counter.wait(seen, std::memory_order_acquire);
  }
}

// What one process does: its items of every phase, and its tree.
struct Work {
  const Options* options;
  int dir_fd;
  Range mine;                                    // the files it writes and removes
  Range theirs;                                  // the files it stats and reads
  std::vector<std::vector<std::string>> levels;  // its tree, parents first

  // Thread `t`'s part of `phase` (of tree level `level`), reading into `buffer`.
  void part(Phase phase, std::size_t level, unsigned t, std::span<char> buffer) const {
    const Options& o = *options;
    const std::uint64_t parts = o.threads;
    switch (phase) {
      case Phase::Write:
        return write_files(dir_fd, o.content, block(mine, parts, t));
      case Phase::Stat:
        return stat_files(dir_fd, block(theirs, parts, t));
      case Phase::Read:
        return read_files(dir_fd, block(theirs, parts, t), buffer, o.content.size_bytes());
      case Phase::Remove:
        return remove_files(dir_fd, block(mine, parts, t));
      case Phase::TreeCreate:
        return make_directories(dir_fd, levels[level], block({0, levels[level].size()}, parts, t),
                                o.walk);
      case Phase::TreeRemove:
        return remove_directories(dir_fd, levels[level], block({0, levels[level].size()}, parts, t),
                                  o.walk);
    }
  }

  std::uint64_t items(Phase phase) const {
    if (phase == Phase::Stat || phase == Phase::Read) return theirs.count;
    if (phase == Phase::Write || phase == Phase::Remove) return mine.count;
    std::uint64_t n = 0;
    for (const auto& level : levels) n += level.size();
    return n;
  }
};

// A phase's rounds: one for a file phase; one per level for a tree, parents first to make,
// deepest first to remove.
std::vector<std::size_t> rounds(Phase phase, std::size_t levels) {
  std::vector<std::size_t> out;
  if (phase == Phase::TreeCreate) {
    for (std::size_t l = 0; l < levels; ++l) out.push_back(l);
  } else if (phase == Phase::TreeRemove) {
    for (std::size_t l = levels; l > 0; --l) out.push_back(l - 1);
  } else {
    out.push_back(0);
  }
  return out;
}

struct Span {
  double start_s, end_s, items;
};

std::vector<char> read_buffer(const Options& o) {
  return std::vector<char>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(o.content.size_bytes(), std::uint64_t{1} << 20)));
}

double seconds(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

// One forked process: process `index`'s part of every phase, on the threads of the options.
// `go_fd` gives a byte per phase (the common start); `result_fd` takes a ready byte, then a
// Span per phase.
[[noreturn]] void run_process(const Options& o, unsigned index, unsigned long idle, int go_fd,
                              int result_fd) {
  Work work{&o, ::open(o.dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC),
            block({1, o.files}, o.processes, index),
            block({1, o.files}, o.processes, (index + o.shift) % o.processes),
            o.tree ? tree_levels(index, static_cast<unsigned>(o.processes),
                                 static_cast<unsigned>(o.depth), static_cast<unsigned>(o.branch))
                   : std::vector<std::vector<std::string>>{}};
  if (work.dir_fd < 0) {
    std::perror(o.dir.c_str());
    std::_Exit(1);
  }
  for (unsigned long k = idle; k > 0; --k) {
    std::thread([] {
      for (;;) ::pause();
    }).detach();  // ended by _Exit
  }

  // Threads are started, each with its read buffer, and parked on an atomic (a futex wait)
  // before the first start signal. Each round (a phase, or a level of a tree phase) the main
  // thread bumps `generation`; every thread does its part, reports through `running`, and
  // parks again, so neither thread start-up nor teardown is timed (mpiwrite's pool threads
  // exist before its barrier and outlive its timed phases too).
  const unsigned threads = static_cast<unsigned>(o.threads);
  std::atomic<unsigned> ready{0}, running{0}, generation{0};
  Phase phase = Phase::Write;  // the round's, written before generation is bumped
  std::size_t level = 0;
  bool quit = false;
  std::vector<std::thread> pool;
  if (threads > 1) {
    pool.reserve(threads);
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        std::vector<char> buffer = read_buffer(o);
        if (ready.fetch_add(1, std::memory_order_acq_rel) + 1 == threads) ready.notify_one();
        for (unsigned seen = 0;;) {
          generation.wait(seen, std::memory_order_acquire);
          seen = generation.load(std::memory_order_acquire);
          if (quit) return;
          work.part(phase, level, t, buffer);
          if (running.fetch_sub(1, std::memory_order_acq_rel) == 1) running.notify_one();
        }
      });
    }
    wait_until(ready, threads);
  }
  std::vector<char> buffer = read_buffer(o);
  const auto round = [&](Phase p, std::size_t l) {
    if (threads == 1) return work.part(p, l, 0, buffer);
    phase = p;
    level = l;
    running.store(threads, std::memory_order_relaxed);
    generation.fetch_add(1, std::memory_order_release);
    generation.notify_all();
    wait_until(running, 0);
  };

  const char ok = 'r';
  if (::write(result_fd, &ok, 1) != 1) std::_Exit(1);
  for (Phase p : o.phases) {
    char byte = 0;
    if (::read(go_fd, &byte, 1) != 1) std::_Exit(1);  // the common start
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t l : rounds(p, work.levels.size())) round(p, l);
    const auto end = std::chrono::steady_clock::now();
    const Span span{seconds(start), seconds(end), static_cast<double>(work.items(p))};
    if (::write(result_fd, &span, sizeof span) != sizeof span) std::_Exit(1);
  }
  quit = true;
  generation.fetch_add(1, std::memory_order_release);
  generation.notify_all();
  for (std::thread& t : pool) t.join();
  std::_Exit(0);
}

bool read_all(int fd, void* data, std::size_t size) {
  char* at = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = ::read(fd, at, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

struct Child {
  pid_t pid = -1;
  int go_fd = -1;      // the parent's end: a byte per phase
  int result_fd = -1;  // the parent's end: ready, then a Span per phase; EOF if it died
};

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.dir.empty()) return 2;
  const unsigned long idle = idle_threads();
  ::signal(SIGPIPE, SIG_IGN);  // a dead child's go pipe: write() fails instead

  // A go and a result pipe per child, the parent's ends made before the next fork, so each
  // result pipe's write end is held by its child alone: its EOF means that child has died.
  std::fflush(nullptr);
  std::vector<Child> children;
  bool failed = false;
  for (unsigned p = 0; p < o.processes && !failed; ++p) {
    int go[2], result[2];
    if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(result, O_CLOEXEC) != 0) {
      std::perror("pipe");
      failed = true;
      break;
    }
    const pid_t pid = ::fork();
    if (pid == 0) run_process(o, p, idle, go[0], result[1]);
    ::close(go[0]);
    ::close(result[1]);
    children.push_back({pid, go[1], result[0]});
    if (pid < 0) {
      std::perror("fork");
      failed = true;
    }
  }
  for (const Child& c : children) {
    char byte = 0;
    failed = failed || !read_all(c.result_fd, &byte, 1);
  }
  std::vector<Span> phases;
  for (std::size_t k = 0; k < o.phases.size() && !failed; ++k) {
    for (const Child& c : children) failed = failed || ::write(c.go_fd, "g", 1) != 1;
    Span whole{0, 0, 0};
    for (std::size_t i = 0; i < children.size() && !failed; ++i) {
      Span span{};
      failed = !read_all(children[i].result_fd, &span, sizeof span);
      whole.start_s = i ? std::min(whole.start_s, span.start_s) : span.start_s;
      whole.end_s = i ? std::max(whole.end_s, span.end_s) : span.end_s;
      whole.items += span.items;
    }
    phases.push_back(whole);
  }
  unsigned bad = 0;
  for (const Child& c : children) {
    if (failed && c.pid > 0) ::kill(c.pid, SIGKILL);  // one died: the others wait for nothing
    int status = 0;
    if (c.pid < 0 || ::waitpid(c.pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
      ++bad;
    }
  }
  if (failed || bad > 0) {  // the failing process printed why
    std::fprintf(stderr, "mpiwrite_floor: failed (%u of %llu process(es) did not finish)\n", bad,
                 static_cast<unsigned long long>(o.processes));
    return 1;
  }
  for (std::size_t k = 0; k < phases.size(); ++k) {
    const double makespan = phases[k].end_s - phases[k].start_s;
    if (o.per_phase_output) {
      std::printf("%s %.9f %.0f\n", kPhaseNames[static_cast<int>(o.phases[k])].data(), makespan,
                  phases[k].items);
    } else {
      std::printf("%.9f\n", makespan);
    }
  }
  return 0;
}
