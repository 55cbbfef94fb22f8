// The uring engine's stat, read and remove phases (Writer::run_files; docs/uring.md, "The
// other phases"): queue_depth files in flight per thread, as the write loop keeps them, with
// its slots, generations, clock reads per batch of completions and failure handling.
// - stat: one IORING_OP_STATX (AT_SYMLINK_NOFOLLOW) into the slot's statx buffer.
// - remove: one IORING_OP_UNLINKAT.
// - read: OPENAT (O_RDONLY | O_NOFOLLOW | O_NONBLOCK) into the slot's direct descriptor, linked to READs
//   into the slot's buffer (min(file_bytes, 1 MiB), at least 1 byte) until one reads 0 bytes,
//   then CLOSE. A file that fits the buffer is one chain: open → read → read (the end of file)
//   → close, the reads and the close hard-linked, because a read that returns fewer bytes than
//   asked (every end-of-file read) counts as failed and would cancel a soft-linked close. A
//   larger file reads one buffer per round trip (the buffer must be looked at, with --verify,
//   before the next read fills it), and closes after the read that returns 0.
// A slot is finished when every completion of its chain has come (Slot::pending), so no
// operation is ever left in flight on a slot given to the next file.
//
// What a thread removed must be a prefix of what it took (Writer::run_files: the files
// removed are those counted, what failed stays): with several files in flight, those taken
// after a failed one may still be removed. They are not counted, so the run's clean-up, which
// goes by the count, tries them again and skips them as gone; the failed file is outside the
// count, so it is not taken for removed. Their latencies stay in the failed phase's histograms.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "mpiwrite/engines/uring_support.hpp"
#include "uring_engine.hpp"
#include "uring_tag.hpp"

namespace mpiwrite {

namespace {

using uring_tag::ItemOp;
using uring_tag::tag;

// The read buffer of a slot: enough for a whole small file, 1 MiB reads for larger ones.
constexpr std::uint64_t kMaxReadBytes = std::uint64_t{1} << 20;

const char* operation_of(Phase phase) {
  switch (phase) {
    case Phase::Stat:
      return "stat";
    case Phase::Read:
      return "read";
    case Phase::Remove:
      return "unlink";
    case Phase::TreeCreate:
      return "mkdir";
    case Phase::TreeRemove:
      return "rmdir";
    case Phase::Write:
      break;
  }
  return "write";
}

}  // namespace

// Once, at the ring's creation: which opcodes this kernel has (a kernel without the probe,
// before 5.6, has none of the other phases' operations either).
void UringEngine::probe_operations() {
  const std::unique_ptr<io_uring_probe, void (*)(io_uring_probe*)> probe(
      io_uring_get_probe_ring(&ring_), io_uring_free_probe);
  if (!probe) return;
  for (int op = 0; op <= probe->last_op && op < static_cast<int>(supported_.size()); ++op) {
    if (io_uring_opcode_supported(probe.get(), op)) supported_.set(static_cast<std::size_t>(op));
  }
}

// A phase whose operation the kernel lacks fails before its first item, naming the operation
// (the coordinator asks uring_unavailable_reason(phases) before the run; this is the engine's
// own guard).
bool UringEngine::lacks_operation(Phase phase) {
  for (const UringOperation& op : uring_operations_of(phase)) {
    if (!supported_.test(static_cast<std::size_t>(op.opcode))) {
      record_failure(*result_, *stop_,
                     WriteFailure{{},
                                  0,
                                  {},
                                  fmt::format("{}: --engine uring: {}", target_->dir_path,
                                              uring_lacks(phase, op))});
      return true;
    }
  }
  return false;
}

void UringEngine::begin(const WriteTarget& target, SliceResult& result, std::atomic<bool>& stop) {
  target_ = &target;
  result_ = &result;
  stop_ = &stop;
  records_created_ = false;  // only the write phase creates
  chunk_ = Progression{};
  chunk_position_ = 0;
  clock_ = Clock::now();
}

void UringEngine::run_files(Phase phase, const WriteTarget& target, WorkSource& source,
                            unsigned thread, SliceResult& result, std::atomic<bool>& stop) {
  if (phase != Phase::Stat && phase != Phase::Read && phase != Phase::Remove) {
    return record_failure(result, stop, wrong_phase_failure(target, phase, "run_files"));
  }
  begin(target, result, stop);
  if (lacks_operation(phase)) return;
  phase_ = phase;
  // The per-slot buffers, made at the phase's first run: nothing per file.
  if (phase == Phase::Stat && !statx_) statx_ = std::make_unique<struct statx[]>(slots_.size());
  if (phase == Phase::Read && read_buffers_.empty()) {
    read_bytes_ = static_cast<std::size_t>(
        std::max<std::uint64_t>(1, std::min(recipe_.file_bytes, kMaxReadBytes)));
    read_buffers_.resize(slots_.size() * read_bytes_);
  }
  const std::uint64_t files_before = result.files;
  items_taken_ = 0;
  first_failed_ = kNoItem;
  FileNamer namer(recipe_.pattern);
  bool exhausted = false;
  for (;;) {
    if (!exhausted) exhausted = !start_items(phase, namer, source, thread);
    if (free_slots_.size() == slots_.size()) break;  // nothing in flight
    if (!submit_and_complete(&UringEngine::complete_item)) return;
  }
  // Every file taken before the first that failed was done: that many count (see the top of
  // this file). Those taken after it may have gone too, while it was in flight.
  if (phase == Phase::Remove && first_failed_ != kNoItem) {
    result.files = std::min(result.files, files_before + first_failed_);
    publish_files_done(target, result.files);
  }
}

// Starts files into free slots until none is free, the source is exhausted (returns false),
// or the run stops.
bool UringEngine::start_items(Phase phase, FileNamer& namer, WorkSource& source, unsigned thread) {
  while (!free_slots_.empty() && !stop_->load(std::memory_order_relaxed) &&
         !recipe_.interrupted()) {
    std::uint64_t index = 0;
    if (!next_index(source, thread, index)) return false;
    const std::uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    Slot& slot = slots_[s];
    std::strcpy(slot.name, namer.name(index));
    slot.index = index;
    slot.taken = items_taken_++;
    slot.item = nullptr;
    slot.busy = true;
    try {  // the file's directory: opened here when the layout moves on to a new one
      slot.dir = target_->directories->acquire(index);
    } catch (const std::exception& e) {  // recorded as a failure; the files in flight finish
      record_failure(*result_, *stop_, WriteFailure{{}, 0, {}, e.what()});
      first_failed_ = std::min(first_failed_, slot.taken);
      slot.dir = {};
      release_slot(s);
      return true;
    }
    queue_item(phase, s);
    starting_.push_back(s);  // its start is the clock read just before the submission
  }
  return true;
}

// One READ of `read_bytes_` at `offset` into the slot's buffer, on its direct descriptor.
void UringEngine::queue_read(std::uint32_t s, std::uint16_t generation, unsigned char flags,
                             std::uint64_t offset) {
  io_uring_sqe* sqe = take_sqe();
  io_uring_prep_read(sqe, static_cast<int>(s), read_buffers_.data() + s * read_bytes_,
                     static_cast<unsigned>(read_bytes_), offset);
  sqe->flags |= static_cast<unsigned char>(IOSQE_FIXED_FILE | flags);
  sqe->user_data = tag(ItemOp::Read, s, generation, offset);
  ++slots_[s].pending;
}

void UringEngine::queue_item_close(std::uint32_t s) {
  io_uring_sqe* sqe = take_sqe();
  io_uring_prep_close_direct(sqe, s);
  sqe->user_data = tag(ItemOp::Close, s, slots_[s].generation);
  ++slots_[s].pending;
}

// --slow-rank: once the item's last operation has completed, a timeout of the delay on the
// ring, after which the item ends (its time holds the delay, as a written file's does; the
// other items in flight go on meanwhile, as the write phase's linked delays let them).
// False (no delay): the item ends now.
bool UringEngine::queue_item_delay(std::uint32_t s) {
  Slot& slot = slots_[s];
  if (recipe_.per_file_delay_us == 0 || slot.delayed) return false;
  slot.delayed = true;
  io_uring_sqe* sqe = take_sqe();
  io_uring_prep_timeout(sqe, &delay_, 0, 0);
  sqe->user_data = tag(ItemOp::Delay, s, slot.generation);
  ++slot.pending;
  return true;
}

void UringEngine::queue_item(Phase phase, std::uint32_t s) {
  Slot& slot = slots_[s];
  const std::uint16_t gen = ++slot.generation;
  slot.pending = 0;
  slot.opened = slot.failed = slot.at_end = slot.closed = slot.cancelled = slot.differs = false;
  slot.delayed = false;
  slot.read = 0;
  io_uring_sqe* sqe = take_sqe();
  if (phase == Phase::Stat) {
    io_uring_prep_statx(sqe, slot.dir.fd, slot.name, AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT,
                        STATX_BASIC_STATS, &statx_[s]);
    sqe->user_data = tag(ItemOp::Stat, s, gen);
    slot.pending = 1;
    return;
  }
  if (phase == Phase::Remove) {
    io_uring_prep_unlinkat(sqe, slot.dir.fd, slot.name, 0);
    sqe->user_data = tag(ItemOp::Unlink, s, gen);
    slot.pending = 1;
    return;
  }
  // Read-only, never through a link, into the slot's direct descriptor; O_NONBLOCK, as posix,
  // so that a FIFO put at the name cannot block the open (in an io-wq worker) and the phase
  // for ever. Soft-linked: a failed open cancels the rest of the chain (-ECANCELED completions,
  // which say nothing more).
  io_uring_prep_openat_direct(sqe, slot.dir.fd, slot.name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, 0,
                              s);
  sqe->flags |= IOSQE_IO_LINK;
  sqe->user_data = tag(ItemOp::Open, s, gen);
  slot.pending = 1;
  if (recipe_.file_bytes > read_bytes_) return queue_read(s, gen, 0, 0);  // then one by one
  // It fits: its read, the read that finds the end (none for an empty file: its one read of
  // 1 byte finds it), the close; a short read must not cancel what follows.
  queue_read(s, gen, IOSQE_IO_HARDLINK, 0);
  if (recipe_.file_bytes > 0) queue_read(s, gen, IOSQE_IO_HARDLINK, read_bytes_);
  queue_item_close(s);
}

void UringEngine::fail_item(std::uint32_t s, const char* operation, int error) {
  Slot& slot = slots_[s];
  if (slot.item != nullptr) {  // the tree: a path below the run directory
    record_failure(*result_, *stop_, file_failure(target_->dir_path, slot.item, operation, error));
  } else {
    record_failure(*result_, *stop_,
                   file_failure(directory_path(slot), slot.name, operation, error));
    first_failed_ = std::min(first_failed_, slot.taken);
  }
  slot.failed = true;
}

void UringEngine::complete_item(const io_uring_cqe& cqe, Clock::time_point now) {
  const std::uint32_t s = uring_tag::slot_of(cqe.user_data);
  Slot& slot = slots_[s];
  if (!slot.busy || uring_tag::generation_of(cqe.user_data) != slot.generation ||
      slot.pending == 0) {
    return;  // stale
  }
  --slot.pending;
  const int res = cqe.res;
  if (res == -ECANCELED) {  // an earlier operation of the chain failed, and said why
    slot.cancelled = true;
  } else {
    switch (uring_tag::op_of<ItemOp>(cqe.user_data)) {
      case ItemOp::Stat:
      case ItemOp::Unlink:
        if (res < 0) fail_item(s, operation_of(phase_), -res);
        slot.times.end = now;
        break;
      case ItemOp::Open:
        if (res < 0) {
          fail_item(s, "open", -res);
          break;
        }
        slot.opened = true;
        slot.times.opened = slot.times.written = now;
        break;
      case ItemOp::Read: {
        slot.opened = true;  // the read ran on it
        if (res < 0) {
          fail_item(s, "read", -res);
          break;
        }
        const std::uint64_t offset = uring_tag::offset_of(cqe.user_data);
        if (res == 0) slot.at_end = true;
        if (verify_reads_ && res > 0 &&
            !recipe_.content_matches(offset,
                                     std::string_view(read_buffers_.data() + s * read_bytes_,
                                                      static_cast<std::size_t>(res)))) {
          slot.differs = true;
        }
        slot.read += static_cast<std::uint64_t>(res);
        slot.times.written = now;  // the reads' end so far
        break;
      }
      case ItemOp::Close:
        slot.closed = true;  // a failed close leaves the slot empty too
        if (res < 0 && !slot.failed) fail_item(s, "close", -res);
        slot.times.end = now;
        break;
      case ItemOp::Delay:  // expired (-ETIME) is its success
        if (res < 0 && res != -ETIME) fail_item(s, "delay", -res);
        slot.times.end = now;
        break;
      case ItemOp::Mkdir:
      case ItemOp::Rmdir:
        break;  // the tree's own loop (complete_directory)
    }
  }
  if (slot.pending == 0) advance_item(s);
}

// Every completion of the slot's chain has come: go on with the file, or finish it.
void UringEngine::advance_item(std::uint32_t s) {
  Slot& slot = slots_[s];
  if (slot.cancelled && !slot.failed) {  // a chain cut without a failure of its own: say so
    fail_item(s, operation_of(phase_), ECANCELED);
  }
  if (slot.failed) {
    if (slot.opened && !slot.closed) return queue_item_close(s);  // then released
    return release_slot(s);
  }
  if (phase_ == Phase::Read && !slot.closed) {
    if (slot.at_end) return queue_item_close(s);
    return queue_read(s, slot.generation, 0, slot.read);  // a larger file: its next piece
  }
  if (queue_item_delay(s)) return;
  count_item(s);
  release_slot(s);
}

// A file whose content (--verify) or size is not what the write phase wrote: counted, and the
// first few described. Not a failure: the phase reads on.
void UringEngine::note_mismatch(const Slot& slot) {
  if (++result_->mismatches > 3) return;
  const std::string path = fmt::format("{}/{}", directory_path(slot), slot.name);
  result_->problems.push_back(
      slot.read != recipe_.file_bytes
          ? fmt::format("{}: read {} bytes, expected {}", path, slot.read, recipe_.file_bytes)
          : fmt::format("{}: content differs from what the write phase wrote", path));
}

// A finished item counts: its latency from the submission to its last completion, and each
// of its operations' (operations_of(phase)), each ending at the completion that ends it.
void UringEngine::count_item(std::uint32_t s) {
  Slot& slot = slots_[s];
  const FileTimes& t = slot.times;
  result_->latency.record(nanoseconds(t.end - t.start));
  switch (phase_) {
    case Phase::Read:
      result_->operations.record(Operation::Open, nanoseconds(t.opened - t.start));
      result_->operations.record(Operation::Reads, nanoseconds(t.written - t.opened));
      result_->operations.record(Operation::Close, nanoseconds(t.end - t.written));
      result_->bytes += slot.read;
      if (verify_reads_ && (slot.differs || slot.read != recipe_.file_bytes)) note_mismatch(slot);
      break;
    case Phase::Stat:
      result_->operations.record(Operation::Stat, nanoseconds(t.end - t.start));
      break;
    case Phase::Remove:
      result_->operations.record(Operation::Unlink, nanoseconds(t.end - t.start));
      break;
    case Phase::TreeCreate:
      result_->operations.record(Operation::Mkdir, nanoseconds(t.end - t.start));
      break;
    case Phase::TreeRemove:
      result_->operations.record(Operation::Rmdir, nanoseconds(t.end - t.start));
      break;
    case Phase::Write:
      break;  // the write loop's own record_file
  }
  ++result_->files;
  publish_files_done(*target_, result_->files);
}

}  // namespace mpiwrite
