// Warp stall reasons under Nsight Compute's names, and the counters the SM keeps of them. Every
// cycle a resident warp does not issue is charged to exactly one reason; the cycle in which it
// issues is charged to `selected`. The stats layer derives from these counters
// smsp__average_warp_latency_issue_stalled_<reason> (warp-cycles per issued instruction) and
// smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio (warp-cycles per cycle with
// an issue).
//
// Left out: ncu's imc_miss (constant-cache misses; constant loads are timed by the memory
// pipeline and charged short_scoreboard) and the sampling noise of ncu's PC sampler.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim::core {

/// Why a resident warp did not issue in a cycle (or kSelected: it issued).
enum class StallReason : std::uint8_t {
  kSelected = 0,      ///< Issued this cycle.
  kNotSelected,       ///< Eligible, but the scheduler issued another warp.
  kLongScoreboard,    ///< Waiting for an L1TEX result (global, local, texture, surface memory).
  kShortScoreboard,   ///< Waiting for an MIO result (shared memory, shuffle, MUFU, constants).
  kWait,              ///< Waiting for a fixed-latency result.
  kMathPipeThrottle,  ///< The functional unit of the next instruction is busy.
  kMioThrottle,       ///< The MIO queue (shared memory, shuffles) is full, or the SFU busy.
  kLgThrottle,        ///< The LSU queue for global/local memory is full.
  kTexThrottle,       ///< The texture queue is full.
  kBarrier,           ///< Waiting at a CTA barrier.
  kBranchResolving,   ///< Waiting for a branch target.
  kNoInstruction,     ///< No instruction available (not yet fetched).
  kDrain,             ///< Finished; waiting for its memory stores to leave the SM.
  kMembar,            ///< Waiting at a memory barrier.
  kDispatchStall,     ///< Selected but the dispatcher could not take it.
  kGmma,              ///< Waiting for warpgroup (or tcgen05) matrix operations.
  kSleeping,          ///< NANOSLEEP.
  kMisc,              ///< Anything else.
};

/// Number of StallReason values.
inline constexpr int kStallReasonCount = 18;

/// ncu's name of `reason` ("long_scoreboard", "selected", …).
std::string_view stall_reason_name(StallReason reason);

/// The reason called `name` (ncu's spelling), if any.
std::optional<StallReason> parse_stall_reason(std::string_view name);

/// Warp-cycles per stall reason (index = enum value).
struct StallCounters {
  std::array<std::uint64_t, kStallReasonCount> warp_cycles{};

  /// Adds `cycles` to `reason`.
  void add(StallReason reason, std::uint64_t cycles) {
    warp_cycles[static_cast<std::size_t>(reason)] += cycles;
  }
  /// The warp-cycles charged to `reason`.
  std::uint64_t operator[](StallReason reason) const {
    return warp_cycles[static_cast<std::size_t>(reason)];
  }
  /// Sum over every reason, `selected` included: the resident warp-cycles.
  std::uint64_t total() const;
  /// Adds `other` element-wise.
  StallCounters& operator+=(const StallCounters& other);
};

}  // namespace warpsim::core
