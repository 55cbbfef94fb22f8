#pragma once
// What a completion of the uring engine belongs to, packed into its user_data: the operation
// (3 bits, each loop's own enum), the slot (13 bits), the slot's chain generation (16 bits),
// and for writes the file offset (32 bits; files are at most 1 GiB). Private to src/engines.

#include <cstdint>

#include "mpiwrite/core/config.hpp"

namespace mpiwrite::uring_tag {

static_assert(kMaxQueueDepth <= (1u << 13));
static_assert(kMaxFileSizeBytes < (std::uint64_t{1} << 32));

template <typename Op>
std::uint64_t make(Op op, std::uint32_t slot, std::uint16_t generation, std::uint64_t offset = 0) {
  return static_cast<std::uint64_t>(op) << 61 | std::uint64_t{slot} << 48 |
         std::uint64_t{generation} << 32 | offset;
}
template <typename Op>
Op op_of(std::uint64_t t) {
  return static_cast<Op>(t >> 61);
}
inline std::uint32_t slot_of(std::uint64_t t) {
  return static_cast<std::uint32_t>(t >> 48) & 0x1fff;
}
inline std::uint16_t generation_of(std::uint64_t t) { return static_cast<std::uint16_t>(t >> 32); }
inline std::uint64_t offset_of(std::uint64_t t) { return t & 0xffffffff; }

// What a completion of the stat, read, remove and tree loops belongs to (uring_files.cpp,
// uring_tree.cpp); the write loop has its own. Delay: --slow-rank's timeout after an item.
enum class ItemOp : std::uint64_t { Open, Read, Close, Stat, Unlink, Mkdir, Rmdir, Delay };
static_assert(static_cast<std::uint64_t>(ItemOp::Delay) < 8, "3 bits of the tag");
inline std::uint64_t tag(ItemOp op, std::uint32_t slot, std::uint16_t generation,
                         std::uint64_t offset = 0) {
  return make(op, slot, generation, offset);
}

}  // namespace mpiwrite::uring_tag
