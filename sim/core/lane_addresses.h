// The per-lane view of one warp-wide memory access shared by the shared-memory bank model and the
// coalescer: 32 lanes (an NVIDIA warp), one byte address per lane, and an active mask whose bit i
// says lane i takes part. Wave64 (AMD) accesses are left to a later model.
#pragma once

#include <cstdint>
#include <span>

namespace warpsim::core {

/// Lanes in a warp.
inline constexpr int kWarpLanes = 32;

/// Byte addresses of one warp access, indexed by lane; entries of inactive lanes are ignored.
using LaneAddresses = std::span<const std::uint64_t, kWarpLanes>;

/// Largest access per lane in bytes (128-bit vector loads and stores).
inline constexpr int kMaxAccessBytes = 16;

/// True for the access widths a lane can use: 1, 2, 4, 8 or 16 bytes.
constexpr bool is_valid_access_width(int width_bytes) {
  return width_bytes == 1 || width_bytes == 2 || width_bytes == 4 || width_bytes == 8 ||
         width_bytes == 16;
}

/// True when all 32 lanes are active and lane i accesses `addresses[0] + i * width_bytes` (the
/// unit-stride pattern of most global accesses): the warp then touches one contiguous byte range.
inline bool contiguous_lanes(std::uint32_t active_mask, const std::uint64_t* addresses,
                             int width_bytes) {
  if (active_mask != ~std::uint32_t{0}) return false;
  const std::uint64_t first = addresses[0];
  const auto width = static_cast<std::uint64_t>(width_bytes);
  if (first > ~std::uint64_t{0} - width * kWarpLanes) return false;  // the range would wrap
  // Differences OR-ed together (vectorizes; no branch per lane).
  std::uint64_t diff = 0;
  for (int lane = 1; lane < kWarpLanes; ++lane) {
    diff |= addresses[lane] ^ (first + width * static_cast<std::uint64_t>(lane));
  }
  return diff == 0;
}

}  // namespace warpsim::core
