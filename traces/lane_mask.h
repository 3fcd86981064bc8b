// Active-lane masks. Every warp instruction carries a 64-bit mask so that one IR serves NVIDIA
// warps (32 lanes: bits 0–31, the upper half zero) and AMD CDNA wavefronts (64 lanes). Bit i is
// lane i. Helpers here count and visit lanes; they allocate nothing.
#pragma once

#include <bit>
#include <cstdint>

namespace warpsim::traces {

/// Bit i set = lane i active.
using LaneMask = uint64_t;

/// Most lanes a warp or wavefront has.
inline constexpr uint32_t kMaxLanes = 64;

/// Number of active lanes.
/// Set bits of `mask`. Without the POPCNT instruction (x86-64 baseline builds) std::popcount
/// calls a libgcc routine; the same bit-parallel sum inline costs a dozen instructions.
constexpr uint32_t popcount(LaneMask mask) {
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  return static_cast<uint32_t>(std::popcount(mask));
#else
  mask = mask - ((mask >> 1) & 0x5555555555555555ull);
  mask = (mask & 0x3333333333333333ull) + ((mask >> 2) & 0x3333333333333333ull);
  mask = (mask + (mask >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<uint32_t>((mask * 0x0101010101010101ull) >> 56);
#endif
}

/// All `warp_size` lanes active (warp_size 1..64; larger values give all 64).
constexpr LaneMask full_mask(uint32_t warp_size) {
  return warp_size >= 64 ? ~LaneMask{0} : (LaneMask{1} << warp_size) - 1;
}

/// True when lane `lane` is active.
constexpr bool lane_active(LaneMask mask, uint32_t lane) {
  return lane < 64 && ((mask >> lane) & 1u) != 0;
}

/// Calls fn(lane) for each active lane in increasing order.
template <typename Fn>
constexpr void for_each_lane(LaneMask mask, Fn&& fn) {
  while (mask != 0) {
    fn(static_cast<uint32_t>(std::countr_zero(mask)));
    mask &= mask - 1;
  }
}

}  // namespace warpsim::traces
