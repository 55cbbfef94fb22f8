// mpiwrite_uring_probe: what makes io_uring fast or slow at creating small files, outside
// mpiwrite. One thread creates N files (openat O_CREAT|O_EXCL, LINES writes of one line or one
// write of the whole file, close) with plain system calls or through one io_uring with QD
// files in flight, built one of several ways. tools/bench.sh (section "uring") runs the
// variants interleaved; docs/uring.md explains the results.
//
//   mpiwrite_uring_probe DIR FILES LINES line|whole QD VARIANT [MODIFIER...]
//   VARIANT  posix    the system-call loop (QD must be 1)
//            regular  openat into a regular descriptor; when it completes, the writes and the
//                     close as one linked chain (two trips through the ring per file)
//            split    openat into a direct descriptor; when it completes, writes + close
//            direct   openat (direct), writes and close as one linked chain (mpiwrite's way)
//   MODIFIER skip     IOSQE_CQE_SKIP_SUCCESS on all but each chain's last operation
//            coop     IORING_SETUP_COOP_TASKRUN
//            defer    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN
//            async    IOSQE_ASYNC on every operation (straight to the kernel's workers)
//            regbuf   registered buffer (IORING_OP_WRITE_FIXED)
//            sqpoll   IORING_SETUP_SQPOLL: a kernel thread polls the queue (and takes a core)
//            spin     submit without waiting, then poll the completion queue from user space
//                     instead of sleeping in the kernel (takes a core)
// Prints: seconds and microseconds per file, wall time of the whole loop (steady_clock).
#include <fcntl.h>
#include <liburing.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void die(const char* what, int error) {
  std::fprintf(stderr, "mpiwrite_uring_probe: %s: %s\n", what, std::strerror(error));
  std::exit(1);
}

struct Options {
  std::string dir, variant;
  long files = 0, lines = 0;
  bool whole = false;
  unsigned depth = 1;
  bool skip = false, coop = false, defer = false, async = false, regbuf = false, sqpoll = false,
       spin = false;
};

class Probe {
 public:
  explicit Probe(const Options& o) : o_(o), line_("Hello, world!\n") {
    for (long i = 0; i < o.lines; ++i) all_ += line_;
    buffer_ = o.whole ? all_.data() : line_.data();
    length_ = static_cast<unsigned>(o.whole ? all_.size() : line_.size());
    writes_ = o.whole ? 1u : static_cast<unsigned>(o.lines);
    dir_fd_ = ::open(o.dir.c_str(), O_DIRECTORY | O_RDONLY);
    if (dir_fd_ < 0) die(o.dir.c_str(), errno);
  }

  void posix() {
    char name[64];
    for (long i = 1; i <= o_.files; ++i) {
      std::snprintf(name, sizeof name, "write%ld.txt", i);
      const int fd = ::openat(dir_fd_, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) die("openat", errno);
      for (unsigned w = 0; w < writes_; ++w) {
        if (::write(fd, buffer_, length_) != static_cast<ssize_t>(length_)) die("write", errno);
      }
      if (::close(fd) != 0) die("close", errno);
    }
  }

  void uring() {
    io_uring_params params{};
    if (o_.coop) params.flags |= IORING_SETUP_COOP_TASKRUN;
    if (o_.defer) params.flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    if (o_.sqpoll) {
      params.flags |= IORING_SETUP_SQPOLL;
      params.sq_thread_idle = 10;  // ms
    }
    if (int r =
            io_uring_queue_init_params(std::bit_ceil(o_.depth * (writes_ + 2)), &ring_, &params);
        r < 0) {
      die("io_uring_setup", -r);
    }
    if (o_.variant != "regular") {
      if (int r = io_uring_register_files_sparse(&ring_, o_.depth); r < 0)
        die("register files", -r);
    }
    if (o_.regbuf) {
      iovec buffer{const_cast<char*>(buffer_), length_};
      if (int r = io_uring_register_buffers(&ring_, &buffer, 1); r < 0) die("register buffers", -r);
    }
    names_.assign(o_.depth, std::string(64, '\0'));
    pending_.assign(o_.depth, 0);
    long done = 0;
    for (unsigned s = 0; s < o_.depth && next_ <= o_.files; ++s) start(s);
    std::vector<unsigned> finished;
    while (done < o_.files) {
      if (o_.spin) {
        if (int r = io_uring_submit(&ring_); r < 0 && r != -EINTR) die("io_uring_enter", -r);
        io_uring_cqe* first = nullptr;
        while (io_uring_peek_cqe(&ring_, &first) == -EAGAIN) {
        }
      } else if (int r = io_uring_submit_and_wait(&ring_, 1); r < 0 && r != -EINTR) {
        die("io_uring_enter", -r);
      }
      io_uring_cqe* cqe = nullptr;
      unsigned head = 0, seen = 0;
      io_uring_for_each_cqe(&ring_, head, cqe) {
        ++seen;
        if (complete(*cqe)) finished.push_back(static_cast<unsigned>(cqe->user_data >> 8));
      }
      io_uring_cq_advance(&ring_, seen);
      for (unsigned s : finished) {
        ++done;
        if (next_ <= o_.files) start(s);
      }
      finished.clear();
    }
    io_uring_queue_exit(&ring_);
  }

 private:
  enum Kind : std::uint64_t { kOpen = 1, kWrite = 2, kClose = 3 };

  io_uring_sqe* sqe() {
    io_uring_sqe* e = io_uring_get_sqe(&ring_);
    if (e == nullptr) die("submission queue full", EBUSY);
    return e;
  }

  // After the io_uring_prep_* call, which resets the entry's flags.
  void mark(io_uring_sqe* e, unsigned slot, Kind kind, unsigned char flags) {
    e->user_data = std::uint64_t{slot} << 8 | kind;
    e->flags |= static_cast<unsigned char>(flags | (o_.async ? IOSQE_ASYNC : 0));
  }

  // Writes then close on `fd` (a fixed slot if `fixed`), linked; the close is the last.
  void writes_and_close(unsigned s, int fd, bool fixed) {
    const auto skip = static_cast<unsigned char>(o_.skip ? IOSQE_CQE_SKIP_SUCCESS : 0);
    const auto file = static_cast<unsigned char>(fixed ? IOSQE_FIXED_FILE : 0);
    for (unsigned w = 0; w < writes_; ++w) {
      io_uring_sqe* e = sqe();
      const std::uint64_t offset = std::uint64_t{w} * length_;
      if (o_.regbuf) {
        io_uring_prep_write_fixed(e, fd, buffer_, length_, offset, 0);
      } else {
        io_uring_prep_write(e, fd, buffer_, length_, offset);
      }
      mark(e, s, kWrite, static_cast<unsigned char>(IOSQE_IO_LINK | skip | file));
    }
    io_uring_sqe* e = sqe();
    if (fixed) {
      io_uring_prep_close_direct(e, static_cast<unsigned>(fd));
    } else {
      io_uring_prep_close(e, fd);
    }
    mark(e, s, kClose, 0);
    pending_[s] = o_.skip ? 1 : writes_ + 1;
  }

  void start(unsigned s) {
    std::snprintf(names_[s].data(), 64, "write%ld.txt", next_++);
    const bool chain = o_.variant == "direct";
    const auto skip = static_cast<unsigned char>(chain && o_.skip ? IOSQE_CQE_SKIP_SUCCESS : 0);
    io_uring_sqe* e = sqe();
    const int flags = O_WRONLY | O_CREAT | O_EXCL;
    if (o_.variant == "regular") {
      io_uring_prep_openat(e, dir_fd_, names_[s].c_str(), flags | O_CLOEXEC, 0644);
    } else {
      io_uring_prep_openat_direct(e, dir_fd_, names_[s].c_str(), flags, 0644, s);
    }
    mark(e, s, kOpen, static_cast<unsigned char>((chain ? IOSQE_IO_LINK : 0) | skip));
    pending_[s] = 1;
    if (chain) {
      writes_and_close(s, static_cast<int>(s), true);
      if (!o_.skip) ++pending_[s];
    }
  }

  // True when the slot's file is finished.
  bool complete(const io_uring_cqe& cqe) {
    const auto s = static_cast<unsigned>(cqe.user_data >> 8);
    const auto kind = static_cast<Kind>(cqe.user_data & 0xff);
    if (cqe.res < 0) die(kind == kOpen ? "openat" : kind == kWrite ? "write" : "close", -cqe.res);
    if (kind == kOpen && o_.variant != "direct") {  // regular, split: now the writes
      const bool fixed = o_.variant == "split";
      writes_and_close(s, fixed ? static_cast<int>(s) : cqe.res, fixed);
      return false;
    }
    return --pending_[s] == 0;
  }

  Options o_;
  std::string line_, all_;
  const char* buffer_ = nullptr;
  unsigned length_ = 0, writes_ = 0;
  int dir_fd_ = -1;
  io_uring ring_{};
  long next_ = 1;
  std::vector<std::string> names_;
  std::vector<unsigned> pending_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr,
                 "usage: mpiwrite_uring_probe DIR FILES LINES line|whole QD "
                 "posix|regular|split|direct [skip coop defer async regbuf sqpoll spin]\n");
    return 2;
  }
  Options o;
  o.dir = argv[1];
  o.files = std::atol(argv[2]);
  o.lines = std::atol(argv[3]);
  o.whole = std::strcmp(argv[4], "whole") == 0;
  o.depth = static_cast<unsigned>(std::atoi(argv[5]));
  o.variant = argv[6];
  for (int i = 7; i < argc; ++i) {
    const std::string m = argv[i];
    bool* flag = m == "skip"     ? &o.skip
                 : m == "coop"   ? &o.coop
                 : m == "defer"  ? &o.defer
                 : m == "async"  ? &o.async
                 : m == "regbuf" ? &o.regbuf
                 : m == "sqpoll" ? &o.sqpoll
                 : m == "spin"   ? &o.spin
                                 : nullptr;
    if (flag == nullptr) {
      std::fprintf(stderr, "mpiwrite_uring_probe: unknown modifier %s\n", argv[i]);
      return 2;
    }
    *flag = true;
  }
  const bool known = o.variant == "posix" || o.variant == "regular" || o.variant == "split" ||
                     o.variant == "direct";
  if (!known || o.files < 1 || o.lines < 1 || o.depth < 1 || o.depth > 4096 ||
      (o.variant == "posix" && o.depth != 1)) {
    std::fprintf(stderr, "mpiwrite_uring_probe: bad arguments (posix needs QD 1)\n");
    return 2;
  }
  ::mkdir(o.dir.c_str(), 0755);
  Probe probe(o);
  const auto start = std::chrono::steady_clock::now();
  if (o.variant == "posix") {
    probe.posix();
  } else {
    probe.uring();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.6f s %.3f us/file\n", s, s * 1e6 / static_cast<double>(o.files));
  return 0;
}
