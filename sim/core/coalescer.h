// Coalescing of one warp's global or local memory access into cache lines and sectors, as the
// L1TEX t-stage sees it: the distinct 32-byte sectors and 128-byte lines that the active lanes'
// bytes touch (l1tex__t_sectors_pipe_lsu_mem_{global,local}_op_{ld,st} per request).
//
// Fidelity: exact set arithmetic. Every active lane covers bytes [address, address + width); a
// lane whose bytes straddle a sector (or line) boundary touches both. Each warp instruction with
// at least one active lane is one request (l1tex__t_requests). Sectors come out ascending, and
// lines ascending with a bit mask of their touched sectors, so the L1 model can look up each line
// once. Output lives in fixed-capacity arrays: coalesce() allocates nothing.
//
// Left out: hit/miss, MSHR merging and timing (the L1 model), the address space of the access
// (the caller decides what is global or local), and the extra t-stage passes of atomics.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "sim/core/lane_addresses.h"

namespace warpsim::core {

/// Line and sector sizes of the L1 the accesses go to.
struct CoalescerConfig {
  int line_bytes = 128;   ///< Cache line; a power of two and a multiple of sector_bytes.
  int sector_bytes = 32;  ///< Sector; a power of two of at least kMaxAccessBytes.
};

/// One cache line an access touches and which of its sectors (bit i = sector i of the line).
struct LineAccess {
  std::uint64_t line_address = 0;  ///< Byte address of the line's first byte.
  std::uint32_t sector_mask = 0;
};

/// The sectors and lines of one warp access.
struct CoalescedAccess {
  /// Most sectors (and lines) one access can touch: two per lane.
  static constexpr int kMaxSectors = 2 * kWarpLanes;

  int requests = 0;      ///< 1 when any lane is active, else 0 (l1tex__t_requests).
  int sector_count = 0;  ///< Distinct sectors (l1tex__t_sectors).
  int line_count = 0;    ///< Distinct lines.
  std::array<std::uint64_t, kMaxSectors> sectors{};  ///< Sector byte addresses, ascending.
  std::array<LineAccess, kMaxSectors> lines{};       ///< Lines, ascending.

  /// The first sector_count entries of `sectors`.
  std::span<const std::uint64_t> sector_addresses() const {
    return std::span(sectors).first(static_cast<std::size_t>(sector_count));
  }
  /// The first line_count entries of `lines`.
  std::span<const LineAccess> line_accesses() const {
    return std::span(lines).first(static_cast<std::size_t>(line_count));
  }
};

/// Coalesces warp accesses. Holds no per-access state; coalesce() may be called concurrently.
class Coalescer {
 public:
  /// Throws warpsim::InputError naming the field when `config` is not a valid geometry.
  explicit Coalescer(const CoalescerConfig& config);

  /// Fills `out` with the sectors and lines touched by the lanes in `active_mask` accessing
  /// `width_bytes` (1, 2, 4, 8 or 16) at their `addresses`. Throws warpsim::InputError for any
  /// other width.
  void coalesce(std::uint32_t active_mask, LaneAddresses addresses, int width_bytes,
                CoalescedAccess& out) const;

  /// The configuration this coalescer was built with.
  const CoalescerConfig& config() const { return config_; }

 private:
  CoalescerConfig config_;
  int sector_shift_ = 0;  // log2(sector_bytes)
  int line_shift_ = 0;    // log2(line_bytes)
};

}  // namespace warpsim::core
