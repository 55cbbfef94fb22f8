// The uring engine. What makes io_uring competitive for creating small files (measured and
// explained in docs/uring.md):
// - Every file is one linked chain: openat into a direct descriptor (a slot of the ring's
//   fixed-file table), its writes and its close. The kernel punts O_CREAT opens, and buffered
//   writes on file systems without async buffered-write support (tmpfs, ext4), to its io-wq
//   worker threads; a linked chain then runs start to end in one worker, without returning
//   to this thread between operations. Regular descriptors would need a round trip after
//   every open.
// - IOSQE_CQE_SKIP_SUCCESS on every write but a file's last: one completion per operation
//   timed (open, the last write, fsync, --slow-rank's delay, close; docs/metrics.md,
//   "Per-operation latency"), not one per line. A failing operation posts its completion; the
//   rest of its chain is then cancelled, with -ECANCELED completions where the failing one
//   had no skip flag (stale by then: the failure moves the slot to a new generation).
// - IORING_SETUP_COOP_TASKRUN: completions do not interrupt this thread with an IPI; it picks
//   them up when it next enters the kernel, which it does anyway to submit and wait.
// - DEFER_TASKRUN is not used: it made every punted operation wait for this thread, 10-40x
//   slower in line mode. IOSQE_ASYNC and registered buffers changed nothing measurable.
// Writes are at explicit offsets (pwrite semantics: same bytes, same order within a file).
#include "uring_engine.hpp"

#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "uring_tag.hpp"

namespace mpiwrite {

namespace {

// What a completion of the write loop belongs to (uring_tag.hpp packs it into user_data).
enum class Op : std::uint64_t { Open, Write, Fsync, Delay, Close };
using uring_tag::generation_of;
using uring_tag::offset_of;
using uring_tag::slot_of;
std::uint64_t tag(Op op, std::uint32_t slot, std::uint16_t generation, std::uint64_t offset = 0) {
  return uring_tag::make(op, slot, generation, offset);
}
Op op_of(std::uint64_t t) { return uring_tag::op_of<Op>(t); }

constexpr unsigned kMaxRingEntries = 32768;  // the kernel's IORING_MAX_ENTRIES
constexpr unsigned kMaxSegmentSqes = 256;    // longer files are written in several chains

// COOP_TASKRUN needs Linux 5.19 and SINGLE_ISSUER 6.0: take what the kernel has.
void init_ring(io_uring& ring, unsigned entries) {
  const unsigned wanted[] = {IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
                             IORING_SETUP_COOP_TASKRUN, 0};
  int r = -EINVAL;
  for (unsigned flags : wanted) {
    io_uring_params params{};
    params.flags = flags;
    r = io_uring_queue_init_params(entries, &ring, &params);
    if (r != -EINVAL) break;
  }
  if (r < 0) throw IoError(-r, "io_uring", "io_uring_setup");
}

}  // namespace

std::unique_ptr<FileEngine> make_uring_engine(const FileRecipe& recipe, unsigned queue_depth,
                                              bool verify_reads) {
  return std::make_unique<UringEngine>(recipe, queue_depth, verify_reads);
}

UringEngine::UringEngine(const FileRecipe& recipe, unsigned queue_depth, bool verify_reads)
    : recipe_(recipe), verify_reads_(verify_reads) {
  const unsigned depth = std::max(1u, queue_depth);
  const unsigned fixed_sqes =
      2u + (recipe_.fsync ? 1u : 0u) + (recipe_.per_file_delay_us ? 1u : 0u);
  const std::uint64_t writes = recipe_.writes;
  const unsigned cap = std::max(fixed_sqes + 1, std::min(kMaxSegmentSqes, kMaxRingEntries / depth));
  segment_sqes_ = static_cast<unsigned>(std::min<std::uint64_t>(writes + fixed_sqes, cap));
  // The other phases' chains (uring_files.cpp) hold up to kItemChainSqes entries.
  init_ring(ring_, std::bit_ceil(depth * std::max(segment_sqes_, kItemChainSqes)));
  probe_operations();
  // io-wq runs the punted operations (O_CREAT opens, buffered writes on most file systems)
  // in at most 4 x CPUs "bounded" workers by default: on a file system where each waits a
  // network round trip, -q 16 on 2 CPUs had only 8 files in flight (measured on the GlusterFS
  // testbed). Allow as many as the queue depth asks for; 0 leaves the unbounded ones alone. A
  // kernel without the call (before 5.15) keeps its default.
  if (unsigned workers[2] = {depth, 0}; depth > 1) {
    (void)io_uring_register_iowq_max_workers(&ring_, workers);
  }
  if (const int r = io_uring_register_files_sparse(&ring_, depth); r < 0) {
    io_uring_queue_exit(&ring_);
    // The table may not be larger than the open-files limit: say which limit and its value.
    rlimit files{};
    const std::string limit = ::getrlimit(RLIMIT_NOFILE, &files) != 0 ? "unknown"
                              : files.rlim_cur == RLIM_INFINITY       ? "unlimited"
                                                                : std::to_string(files.rlim_cur);
    throw IoError(-r, "io_uring",
                  fmt::format("cannot register {} fixed files (one per file in flight; the table "
                              "may not exceed ulimit -n / RLIMIT_NOFILE, which is {})",
                              depth, limit));
  }
  delay_.tv_sec = static_cast<long long>(recipe_.per_file_delay_us / 1'000'000);
  delay_.tv_nsec = static_cast<long long>(recipe_.per_file_delay_us % 1'000'000 * 1000);
  slots_.resize(depth);
  names_.resize(std::size_t{depth} * (kMaxNameBytes + 1));
  for (std::uint32_t s = 0; s < depth; ++s) {
    slots_[s].name = names_.data() + s * (kMaxNameBytes + 1);
  }
  for (std::uint32_t s = depth; s-- > 0;) free_slots_.push_back(s);
  starting_.reserve(depth);
}

UringEngine::~UringEngine() { io_uring_queue_exit(&ring_); }

bool UringEngine::next_index(WorkSource& source, unsigned thread, std::uint64_t& index) {
  while (chunk_position_ == chunk_.count) {
    if (records_created_) result_->created.take(chunk_);  // every file of it was taken
    chunk_ = Progression{};
    chunk_position_ = 0;
    if (!source.next(thread, chunk_)) return false;
    chunk_position_ = 0;
  }
  index = chunk_.at(chunk_position_++);
  return true;
}

io_uring_sqe* UringEngine::take_sqe() {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  if (sqe == nullptr) {  // cannot happen with the ring sized for every slot's chain; be safe
    io_uring_submit(&ring_);
    sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) throw IoError(EBUSY, "io_uring", "get submission entry");
  }
  return sqe;
}

// One linked chain for `slot`: [open] writes from `written` on, and if they reach the end of
// the file, [fsync] [delay] close. Only the last operation posts a completion on success.
void UringEngine::queue_segment(std::uint32_t s, bool first) {
  Slot& slot = slots_[s];
  const std::uint16_t gen = ++slot.generation;
  const auto skip_and_link = static_cast<unsigned char>(IOSQE_IO_LINK | IOSQE_CQE_SKIP_SUCCESS);
  unsigned budget = segment_sqes_ - 1;  // room for the close
  if (first) {
    io_uring_sqe* sqe = take_sqe();
    // Created new, as FileRecipe::open does, into a direct descriptor.
    io_uring_prep_openat_direct(sqe, slot.dir.fd, slot.name, FileRecipe::kCreateFlags, 0644, s);
    sqe->flags |= IOSQE_IO_LINK;  // its completion ends the create
    sqe->user_data = tag(Op::Open, s, gen);
    --budget;
  }
  budget -= (recipe_.fsync ? 1u : 0u) + (recipe_.per_file_delay_us ? 1u : 0u);
  const std::uint64_t file_bytes = recipe_.file_bytes;
  std::uint64_t position = slot.written;
  io_uring_sqe* last = nullptr;
  for (; position < file_bytes && budget > 0; --budget) {
    // From `position` to the end of its piece: a whole piece, or the rest of a short write's.
    const std::string_view piece = recipe_.piece(position);
    last = take_sqe();
    io_uring_prep_write(last, static_cast<int>(s), piece.data(),
                        static_cast<unsigned>(piece.size()), position);
    last->flags |= IOSQE_FIXED_FILE | skip_and_link;
    last->user_data = tag(Op::Write, s, gen, position);
    position += piece.size();
  }
  if (position < file_bytes) {  // more chains follow: this one ends with a reported write
    last->flags &= static_cast<unsigned char>(~skip_and_link);
    return;
  }
  // The file's last write, its fsync and delay report their completions: each ends an
  // operation's time (the close's completion is reported anyway).
  const auto skip = static_cast<unsigned char>(~IOSQE_CQE_SKIP_SUCCESS);
  if (last != nullptr) last->flags &= skip;
  if (recipe_.fsync) {
    io_uring_sqe* sqe = take_sqe();
    io_uring_prep_fsync(sqe, static_cast<int>(s), 0);
    sqe->flags |= IOSQE_FIXED_FILE | IOSQE_IO_LINK;
    sqe->user_data = tag(Op::Fsync, s, gen);
  }
  if (recipe_.per_file_delay_us != 0) {  // --slow-rank: wait before the close, as posix does
    io_uring_sqe* sqe = take_sqe();
    io_uring_prep_timeout(sqe, &delay_, 0, IORING_TIMEOUT_ETIME_SUCCESS);
    sqe->flags |= IOSQE_IO_LINK;
    sqe->user_data = tag(Op::Delay, s, gen);
  }
  io_uring_sqe* sqe = take_sqe();
  io_uring_prep_close_direct(sqe, s);
  sqe->user_data = tag(Op::Close, s, gen);
}

// --overwrite: a linked chain cannot check what its open opened, so the file is opened,
// checked and emptied here with system calls (open_for_overwrite) and put into the slot's
// fixed-file entry; the chain then starts with the writes. False: the failure is recorded
// and the slot is free again.
bool UringEngine::open_to_rewrite(std::uint32_t s) {
  Slot& slot = slots_[s];
  const int fd = recipe_.open(*target_, slot.dir.fd, slot.name);  // rewrites: open_for_overwrite
  int error = fd < 0 ? errno : 0;
  if (fd >= 0) {
    int copy = fd;
    const int r = io_uring_register_files_update(&ring_, s, &copy, 1);
    if (r < 0) {
      error = -r;
      unlink_if_same(slot.dir.fd, slot.name, fd);
    }
    ::close(fd);
    if (r >= 0) {
      slot.opened = true;
      return true;
    }
  }
  record_failure(*result_, *stop_, file_failure(directory_path(slot), slot.name, "open", error));
  result_->created.not_created.push_back(slot.index);
  release_slot(s);
  return false;
}

// After a failure with the file open in its slot: close it (the chain's close was cancelled).
void UringEngine::queue_cleanup_close(std::uint32_t s) {
  const std::uint16_t gen = ++slots_[s].generation;
  io_uring_sqe* sqe = take_sqe();
  io_uring_prep_close_direct(sqe, s);
  sqe->user_data = tag(Op::Close, s, gen);
}

void UringEngine::mark_failed(std::uint32_t s, const char* operation, int error) {
  Slot& slot = slots_[s];
  record_failure(*result_, *stop_, file_failure(directory_path(slot), slot.name, operation, error));
  slot.failed = true;
}

// A failed close leaves nothing open in the slot.
void UringEngine::fail_closed(std::uint32_t s, int error) {
  mark_failed(s, "close", error);
  finish(s);
}

void UringEngine::fail(std::uint32_t s, const char* operation, int error) {
  mark_failed(s, operation, error);
  if (slots_[s].opened) {
    queue_cleanup_close(s);  // finish() runs when that close completes
  } else {
    finish(s);
  }
}

// The slot's file is done: counted if it succeeded; if it failed, removed when the open had
// succeeded (also with --overwrite, as posix), and either way not this run's file.
void UringEngine::finish(std::uint32_t s) {
  Slot& slot = slots_[s];
  if (slot.failed) {
    if (slot.opened) unlink_if_same(slot.dir.fd, slot.name, -1);
    result_->created.not_created.push_back(slot.index);
  }
  slot.opened = slot.failed = false;
  release_slot(s);
}

// The slot is free again, and its directory no longer used by it.
void UringEngine::release_slot(std::uint32_t s) {
  Slot& slot = slots_[s];
  target_->directories->release(slot.dir);
  slot.dir = {};
  slot.busy = false;
  slot.opened = slot.failed = false;  // also after the other phases' failures
  ++slot.generation;
  free_slots_.push_back(s);
}

const std::string& UringEngine::directory_path(const Slot& slot) const {
  return target_->directories->path(slot.dir);
}

void UringEngine::complete(const io_uring_cqe& cqe, Clock::time_point now) {
  const std::uint32_t s = slot_of(cqe.user_data);
  Slot& slot = slots_[s];
  if (!slot.busy || generation_of(cqe.user_data) != slot.generation) return;  // stale
  const int res = cqe.res;
  switch (op_of(cqe.user_data)) {
    case Op::Open:
      if (res < 0) return fail(s, "open", -res);
      slot.opened = true;  // what follows it moves these on (a file of no bytes has no write)
      slot.times.opened = slot.times.written = slot.times.synced = slot.times.closing = now;
      return;
    case Op::Write: {
      slot.opened = true;  // the write ran, so the open succeeded
      if (res < 0) return fail(s, "write", -res);
      if (res == 0) return fail(s, "write", ENOSPC);  // as write_all: no progress is an error
      slot.written = offset_of(cqe.user_data) + static_cast<std::uint64_t>(res);
      if (slot.written == recipe_.file_bytes) {  // the file's last write: its fsync, close follow
        slot.times.written = slot.times.synced = slot.times.closing = now;
        return;
      }
      // A short write, or the end of a chain that does not finish the file: go on from what
      // the kernel confirmed (a short write cancelled the rest of its chain).
      return queue_segment(s, false);
    }
    case Op::Fsync:
      slot.opened = true;
      if (res < 0) return fail(s, "fsync", -res);
      slot.times.synced = slot.times.closing = now;
      return;
    case Op::Delay:
      if (res == -ETIME) {  // the delay expired: a success; the close starts now
        slot.times.closing = now;
        return;
      }
      slot.opened = true;
      return fail(s, "delay", -res);
    case Op::Close:
      if (slot.failed) return finish(s);  // the clean-up close after a failure
      if (res < 0) {
        slot.opened = true;  // the name exists and the file is not complete: remove it
        return fail_closed(s, -res);
      }
      slot.times.end = now;
      record_file(*result_, slot.times, recipe_.fsync);
      ++result_->files;
      publish_files_done(*target_, result_->files);
      result_->bytes += recipe_.file_bytes;
      return finish(s);
  }
}

// Starts files into free slots until none is free, the source is exhausted (returns false),
// or the run stops.
bool UringEngine::start_files(FileNamer& namer, WorkSource& source, unsigned thread) {
  while (!free_slots_.empty() && !stop_->load(std::memory_order_relaxed) &&
         !recipe_.interrupted()) {
    std::uint64_t index = 0;
    if (!next_index(source, thread, index)) return false;
    // --time-limit: judged by the clock of the last submission (no clock read of its own).
    // The file is put back: what this thread took stays a prefix of its chunk.
    if (clock_ >= target_->deadline) {
      --chunk_position_;
      result_->time_limited = true;
      return false;
    }
    const std::uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    Slot& slot = slots_[s];
    std::strcpy(slot.name, namer.name(index));
    slot.index = index;
    slot.busy = true;
    slot.written = 0;
    try {  // the file's directory: opened here when the layout moves on to a new one
      slot.dir = target_->directories->acquire(index);
    } catch (const std::exception& e) {  // recorded as a failure; the files in flight finish
      record_failure(*result_, *stop_, WriteFailure{{}, 0, {}, e.what()});
      result_->created.not_created.push_back(index);
      slot.dir = {};
      release_slot(s);
      return true;
    }
    if (recipe_.rewrites(*target_)) {
      slot.times.start = Clock::now();  // the synchronous open is the file's create
      if (open_to_rewrite(s)) {
        slot.times.opened = slot.times.written = slot.times.synced = slot.times.closing =
            Clock::now();
        queue_segment(s, false);
      }
    } else {
      queue_segment(s, true);
      starting_.push_back(s);
    }
  }
  return true;
}

// Submits what is queued, waits for at least one completion and handles every one there is.
// False: the ring failed (recorded as the failure of io_uring_enter).
bool UringEngine::submit_and_complete(Completion on_completion) {
  const Clock::time_point submitted = Clock::now();
  for (std::uint32_t s : starting_) slots_[s].times.start = submitted;
  starting_.clear();
  const int r = io_uring_submit_and_wait(&ring_, 1);
  if (r < 0 && r != -EINTR) {
    record_failure(*result_, *stop_, WriteFailure{target_->dir_path, -r, "io_uring_enter", {}});
    return false;
  }
  const Clock::time_point now = Clock::now();
  clock_ = now;
  io_uring_cqe* cqe = nullptr;
  unsigned head = 0, seen = 0;
  io_uring_for_each_cqe(&ring_, head, cqe) {
    (this->*on_completion)(*cqe, now);
    ++seen;
  }
  io_uring_cq_advance(&ring_, seen);
  return true;
}

void UringEngine::run(const WriteTarget& target, WorkSource& source, unsigned thread,
                      SliceResult& result, std::atomic<bool>& stop) {
  target_ = &target;
  result_ = &result;
  stop_ = &stop;
  records_created_ = true;
  chunk_ = Progression{};
  chunk_position_ = 0;
  clock_ = Clock::now();
  FileNamer namer(recipe_.pattern);
  // However this returns (or throws), the current chunk's taken prefix is recorded.
  struct RecordTaken {
    UringEngine& engine;
    ~RecordTaken() {
      engine.result_->created.take(
          {engine.chunk_.first, engine.chunk_position_, engine.chunk_.stride});
    }
  } record{*this};
  bool exhausted = false;
  for (;;) {
    if (!exhausted) exhausted = !start_files(namer, source, thread);
    if (free_slots_.size() == slots_.size()) return;  // nothing in flight
    if (!submit_and_complete(&UringEngine::complete)) return;
  }
}

}  // namespace mpiwrite
