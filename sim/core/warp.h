// The state of one resident warp in an SM: where it is in its instruction stream, its register
// scoreboard, the lanes still running, what it waits for and since when (for stall accounting),
// its outstanding memory operations (a finished warp drains them before it retires), and its
// progress through Hopper wgmma groups and asynchronous-copy groups. Plain data owned by the SM
// in a fixed array of warp slots; nothing allocates.
//
// Left out: the SIMT reconvergence stack (traces carry each instruction's active mask already)
// and the instruction buffer / fetch stage.
#pragma once

#include <array>
#include <cstdint>

#include "sim/core/scoreboard.h"
#include "sim/core/stall_reason.h"
#include "sim/engine/clock_domain.h"
#include "sim/core/memory_pipeline.h"
#include "traces/warp_trace.h"

namespace warpsim::core {

/// A small ring of group boundaries (counts of operations issued when each group closed).
struct GroupRing {
  static constexpr int kSize = 16;
  std::array<std::uint32_t, kSize> end{};
  int head = 0;
  int count = 0;

  void clear() { head = count = 0; }
  /// Closes a group ending at `issued` operations (merged into the newest when full).
  void commit(std::uint32_t issued) {
    if (count > 0 && end[static_cast<std::size_t>((head + count - 1) % kSize)] == issued) return;
    if (count == kSize) {
      end[static_cast<std::size_t>((head + count - 1) % kSize)] = issued;
      return;
    }
    end[static_cast<std::size_t>((head + count) % kSize)] = issued;
    ++count;
  }
  /// The boundary of the i-th oldest open group.
  std::uint32_t at(int i) const { return end[static_cast<std::size_t>((head + i) % kSize)]; }
  /// Drops the oldest group.
  void pop() {
    head = (head + 1) % kSize;
    --count;
  }
  /// The newest boundary, or 0 when empty.
  std::uint32_t newest() const { return count == 0 ? 0 : at(count - 1); }
};

/// One resident warp.
struct Warp {
  traces::WarpTrace* trace = nullptr;             ///< Its trace (in the CTA slot's buffer).
  const traces::WarpInstruction* code = nullptr;  ///< trace->instructions.data(), or the SM's
                                                  ///< copy of them.
  std::uint32_t length = 0;                       ///< trace->instructions.size(): the piece held
                                                  ///< when the warp is streamed.
  std::uint32_t next = 0;                         ///< Index of the next instruction to issue.
  std::uint32_t cleared = ~0u;                    ///< Index of the instruction whose dependences
                                                  ///< are known clear (only its own issue adds new
                                                  ///< ones), so a waiting warp rechecks only units.
  std::uint32_t cta_slot = 0;                     ///< SM-wide CTA slot.
  std::uint32_t warp_in_cta = 0;                  ///< Warp index within the CTA.
  std::uint8_t smsp = 0;                          ///< Sub-partition (slot mod SMSPs).
  bool resident = false;                          ///< The slot holds a warp.
  bool finished = false;                          ///< Stream ended or full EXIT; draining.
  bool streamed = false;                          ///< More of its stream comes on demand
                                                  ///< (trace->more), before its last held one.
  bool at_barrier = false;                        ///< Waiting at CTA barrier `barrier_id`.
  traces::LaneMask live_mask = 0;                 ///< Lanes that have not exited.

  // The earliest cycle worth re-evaluating the warp is kept by the SM in a dense array
  // (Sm::ready_at_), so that a scheduler scan touches no cold warp state.
  /// The memory pipeline's refusal at the last evaluation (kNone: not refused). A refused warp
  /// waits in its queue's line until Sm::wake_throttled takes it out; one refused for a queue
  /// that another warp of its SMSP found still full this cycle is not re-evaluated.
  PipelineBackpressure refused = PipelineBackpressure::kNone;
  /// Cycle of its first refusal for the instruction it waits to issue (its place in the line).
  engine::Cycle refused_at = 0;
  StallReason reason = StallReason::kNoInstruction;  ///< Charged since `since`.
  engine::Cycle since = 0;                           ///< First cycle not yet charged.
  engine::Cycle launched = 0;                        ///< Cycle it became resident.
  const std::uint64_t* lanes = nullptr;  ///< Its lane-address pool: trace->addresses, or the
                                         ///< SM's copy of it (instructions' mem_offset index it).

  std::uint32_t outstanding_memory = 0;          ///< Memory ops issued and not completed.
  engine::Cycle memory_done_at = 0;              ///< Latest completion cycle reported.
  engine::Cycle fence_done_at = 0;               ///< Earliest pass of a GPU fence's ERRBAR.
  std::uint64_t fetch_line = ~std::uint64_t{0};  ///< Line of code it last entered (fetch model).
  std::uint32_t barrier_id = 0;                  ///< Barrier it waits at.
  engine::Cycle hold_until = 0;                  ///< Held after issue (branch, sleep, barrier)…
  StallReason hold_reason = StallReason::kMisc;  ///< …charged to this reason.

  std::uint32_t hgmma_issued = 0;     ///< wgmma instructions issued.
  GroupRing gmma_groups;              ///< Committed wgmma groups not yet waited for.
  std::uint32_t async_issued = 0;     ///< Asynchronous copies issued.
  std::uint32_t async_completed = 0;  ///< Asynchronous copies completed.
  GroupRing async_groups;             ///< Committed copy groups not yet waited for.

  // Last: the scheduling fields above share the first cache lines of the warp.
  Scoreboard scoreboard;  ///< Pending register writes.
};

}  // namespace warpsim::core
