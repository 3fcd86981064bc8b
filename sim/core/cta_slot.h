// One resident CTA in an SM: its trace (an SM-owned buffer reused from CTA to CTA), the warp
// slots its warps occupy, which of them still run, the arrivals at its 16 named barriers, the
// wgmma progress of its warpgroups, and the registers and shared memory it holds.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/sm_config.h"
#include "sim/core/tensor_unit.h"
#include "traces/cta_trace.h"

namespace warpsim::core {

/// Named CTA barriers per CTA (BAR.SYNC 0..15).
inline constexpr int kCtaBarriers = 16;

/// A resident CTA.
struct CtaSlot {
  traces::CtaTrace trace;                                ///< The CTA's instructions.
  bool active = false;                                   ///< The slot holds a CTA.
  int warps = 0;                                         ///< Warps of the CTA.
  int remaining = 0;                                     ///< Warps not yet retired.
  std::array<std::int8_t, kMaxWarpsPerSm> warp_slots{};  ///< SM warp slot of CTA warp i.
  std::uint64_t running = 0;                             ///< Bit i: CTA warp i has not finished.
  std::array<std::uint64_t, kCtaBarriers> arrived{};     ///< Warps arrived per barrier.
  std::array<std::uint32_t, kCtaBarriers> expected{};    ///< Warps expected (0: all running).
  /// Per barrier: the cycle its latest arrival was processed (Sm::barrier_arrive).
  std::array<std::uint64_t, kCtaBarriers> arrival_done{};
  std::vector<WarpgroupState> warpgroups;                ///< One per 4 warps.
  std::int64_t registers = 0;                            ///< Registers held.
  std::int64_t shared_bytes = 0;                         ///< Shared memory held.
  // The SM's copy of the trace (Sm::set_trace_arena), warp after warp: instructions and lane
  // addresses, in storage kept from CTA to CTA (grown when a CTA needs more).
  traces::WarpInstruction* code = nullptr;
  std::size_t code_capacity = 0;
  std::uint64_t* lanes = nullptr;
  std::size_t lane_capacity = 0;
};

}  // namespace warpsim::core
