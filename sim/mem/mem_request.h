// The messages between an SM's L1 and the memory system (and, reused, between L2 slices and DRAM).
//
// A request names one 128-byte line and the 32-byte sectors of it that it touches (a 4-bit mask),
// its kind (read, write with a byte count, atomic, reduction), the SM that issued it, an id the SM
// uses to match the response, and the time it was issued (for latency statistics). A response
// echoes the line, mask, id, kind and issue time. Both are small, trivially copyable and hold no
// heap memory, so ports move them around without allocation.
//
// Left out: the data itself (warpsim is a timing model), byte enables finer than "which sectors are
// written completely", address spaces and virtual-to-physical translation.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace warpsim::mem {

/// Bytes per cache line.
inline constexpr std::uint32_t kLineBytes = 128;
/// Bytes per sector.
inline constexpr std::uint32_t kSectorBytes = 32;
/// Sectors per line.
inline constexpr std::uint32_t kSectorsPerLine = kLineBytes / kSectorBytes;
/// The mask with every sector of a line set.
inline constexpr std::uint8_t kAllSectors = (1u << kSectorsPerLine) - 1;

/// What a request does at the L2.
enum class MemOp : std::uint8_t {
  kRead,       ///< load of the masked sectors; the response carries their data
  kWrite,      ///< store; the response is an acknowledgement without data
  kAtomic,     ///< read-modify-write at the L2 (ATOM); the response carries the old data
  kReduction,  ///< read-modify-write at the L2 without a return value (RED); acknowledgement only
};

/// True for the kinds whose response carries data back (read, atomic).
constexpr bool returns_data(MemOp op) { return op == MemOp::kRead || op == MemOp::kAtomic; }
/// True for the kinds that carry data to the L2 (write, atomic, reduction).
constexpr bool carries_data(MemOp op) { return op != MemOp::kRead; }

/// The 128-byte-aligned line that holds byte `address`.
constexpr std::uint64_t line_of(std::uint64_t address) { return address & ~std::uint64_t{127}; }
/// Number of sectors set in `mask`.
constexpr std::uint32_t sector_count(std::uint8_t mask) {
  // Nibble i of the constant holds the bit count of i (no libgcc popcount call on baseline x86-64).
  return static_cast<std::uint32_t>((0x4332322132212110ull >> (4 * (mask & kAllSectors))) & 0xF);
}

/// A request from an SM (or from an L2 slice to DRAM).
struct MemRequest {
  std::uint64_t line_address = 0;    ///< byte address of the line, 128-byte aligned
  std::uint64_t id = 0;              ///< chosen by the requester to match the response
  std::uint64_t issue_time_ps = 0;   ///< when the requester issued it (engine time, ps)
  std::uint32_t source_sm = 0;       ///< the issuing SM (decides near or far L2 partition)
  std::uint16_t reply_to = 0;        ///< input index the response goes back to (set by a crossbar)
  std::uint16_t write_bytes = 0;     ///< bytes written (write, atomic, reduction), for statistics
  std::uint8_t sector_mask = 0;      ///< bit i: sector i of the line is touched
  std::uint8_t full_write_mask = 0;  ///< sectors whose 32 bytes are all written (subset of mask)
  MemOp op = MemOp::kRead;
  /// A write-back of a line that stays in the L2 (nothing waits for its slot): the DRAM may hold
  /// it while reads wait (dram_channel.h).
  bool deferrable = false;

  /// A read of the masked sectors of `line_address`.
  static MemRequest read(std::uint64_t line_address, std::uint8_t sector_mask, std::uint64_t id,
                         std::uint32_t source_sm) {
    return {.line_address = line_address,
            .id = id,
            .source_sm = source_sm,
            .sector_mask = sector_mask,
            .op = MemOp::kRead};
  }
  /// A write of `bytes` bytes into the masked sectors. When `bytes` covers every masked sector
  /// completely (32 bytes each) the sectors are full writes, otherwise all of them are partial.
  static MemRequest write(std::uint64_t line_address, std::uint8_t sector_mask, std::uint16_t bytes,
                          std::uint64_t id, std::uint32_t source_sm) {
    const bool full = bytes == kSectorBytes * sector_count(sector_mask);
    return {.line_address = line_address,
            .id = id,
            .source_sm = source_sm,
            .write_bytes = bytes,
            .sector_mask = sector_mask,
            .full_write_mask = static_cast<std::uint8_t>(full ? sector_mask : 0),
            .op = MemOp::kWrite};
  }
};

/// The answer to a MemRequest.
struct MemResponse {
  std::uint64_t line_address = 0;   ///< the request's line
  std::uint64_t id = 0;             ///< the request's id
  std::uint64_t issue_time_ps = 0;  ///< the request's issue time
  std::uint32_t source_sm = 0;      ///< the request's SM
  std::uint16_t reply_to = 0;       ///< the request's reply_to
  std::uint8_t sector_mask = 0;     ///< the request's sectors
  MemOp op = MemOp::kRead;          ///< the request's kind
};

/// The response that answers `request`.
constexpr MemResponse response_to(const MemRequest& request) {
  return {.line_address = request.line_address,
          .id = request.id,
          .issue_time_ps = request.issue_time_ps,
          .source_sm = request.source_sm,
          .reply_to = request.reply_to,
          .sector_mask = request.sector_mask,
          .op = request.op};
}

static_assert(std::is_trivially_copyable_v<MemRequest> && sizeof(MemRequest) <= 40);
static_assert(std::is_trivially_copyable_v<MemResponse> && sizeof(MemResponse) <= 40);

}  // namespace warpsim::mem
