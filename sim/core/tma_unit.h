// The SM's tensor memory accelerator (TMA) as the memory system sees it: a bulk copy (UTMALDG,
// UBLKCP: global → shared; UTMASTG: shared → global) becomes the line requests that cover its
// bytes, sent on the SM's port to the L2 around the L1 (a copy neither looks up nor fills the L1
// tags). The unit takes copies in order and sends one line a cycle at most, the rate at which the
// shared-memory banks take a copy's data (banks × bank width = one 128 B line a cycle), and no
// faster than the port's credits allow. A copy completes for its warp the cycle after its last
// request has left: the hardware tracks a load's bytes on an mbarrier, not on the warp, and the
// consumers' waits on that mbarrier are timed as the trace records them (their spins), so the
// data's return is left to the memory system's counters.
//
// A copy's addresses come from the trace: Accel-Sim v6's address list, each address the start of
// an equal share of the copy's bytes (one row of the box), or the replay's line addresses.
//
// Left out: the tensor map's own address generation, multicast into other CTAs' shared memory,
// out-of-bounds fill (those bytes move nowhere), mbarrier transaction counts, reductions
// (UTMAREDG is sent as a write) and the shared-memory bank cycles the copy takes from the SM's
// own accesses.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/core/sm_memory_completions.h"
#include "sim/core/sm_memory_config.h"
#include "sim/core/sm_memory_counters.h"
#include "sim/engine/port.h"
#include "sim/mem/mem_request.h"

namespace warpsim::core {

/// The TMA unit of one SM.
class TmaUnit {
 public:
  /// Responses to the unit's reads carry this bit in their id.
  static constexpr std::uint64_t kResponseTag = std::uint64_t{1} << 62;

  /// `config` must be valid; every reference must outlive the unit.
  TmaUnit(const SmMemoryConfig& config, SmMemoryCounters& counters,
          SmMemoryCompletions& completions, engine::Port<mem::MemRequest>& requests);

  /// Queues copy (warp_slot, op_id) of `bytes` bytes starting at each of `addresses` (an equal
  /// share each); a store writes global memory, a load reads it. A copy with no bytes or no
  /// addresses completes after one cycle.
  void issue(std::uint32_t warp_slot, std::uint32_t op_id, bool store,
             std::span<const std::uint64_t> addresses, std::uint32_t bytes, engine::Cycle now);

  /// True when `response` answers one of the unit's requests (then it has been taken).
  bool on_response(const mem::MemResponse& response, engine::Cycle now);

  /// Sends line requests for every cycle up to `now`.
  void advance(engine::Cycle now);

  /// The next cycle the unit has a line to send, or engine::kSleep (waiting for responses or
  /// credits, or idle).
  engine::Cycle next_cycle() const;

  /// True when no copy is queued or waiting for its lines.
  bool idle() const { return copies_in_flight_ == 0; }

 private:
  struct Line {
    std::uint64_t address = 0;
    std::uint16_t bytes = 0;  // bytes a store writes into it
    std::uint8_t sectors = 0;
    std::uint8_t full = 0;  // sectors a store writes completely
    std::uint32_t copy = 0;
  };
  struct Copy {
    std::uint32_t warp_slot = 0;
    std::uint32_t op_id = 0;
    std::uint32_t lines_left = 0;  // lines not yet sent
    engine::Cycle ready = 0;
    bool store = false;
    bool in_use = false;
  };

  void add_range(std::uint64_t first, std::uint64_t bytes, std::uint32_t copy);
  void finish(std::uint32_t copy);

  const SmMemoryConfig& config_;
  SmMemoryCounters& counters_;
  SmMemoryCompletions& completions_;
  engine::Port<mem::MemRequest>& requests_;
  int lines_per_cycle_ = 1;
  std::vector<Line> lines_;  // queued line requests, in order, from head_
  std::size_t head_ = 0;
  std::vector<Copy> copies_;
  std::vector<std::uint32_t> free_copies_;
  std::uint32_t copies_in_flight_ = 0;
  engine::Cycle next_send_ = 0;
  bool port_blocked_ = false;
};

}  // namespace warpsim::core
