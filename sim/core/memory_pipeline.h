// The boundary between an SM's issue core (schedulers, scoreboard, functional units) and its
// memory pipeline (LSU and MIO queues, shared-memory banks, coalescing, L1, MSHRs and the port to
// the memory system). The core hands every memory instruction (any OpcodeInfo::is_memory(), and
// SHUFFLE-class MIO operations) to the pipeline when it issues, and learns through a
// CompletionSink when the instruction's destination registers are written (loads, atomics,
// shuffles) or when it has left the SM (stores, reductions: needed to drain before a warp
// retires). One virtual call per warp instruction, never per lane.
//
// Left out of the interface: the memory system's messages, which only the pipeline sees (it owns
// the SM's request and response ports).
#pragma once

#include <cstdint>

#include "sim/engine/clock_domain.h"
#include "traces/isa/opcode_info.h"
#include "traces/instruction.h"
#include "traces/warp_trace.h"

namespace warpsim::core {

/// A memory instruction as the core issues it.
struct MemoryOp {
  std::uint32_t warp_slot = 0;   ///< SM-wide warp slot of the issuing warp.
  std::uint32_t op_id = 0;       ///< Chosen by the core; echoed by CompletionSink::complete.
  std::uint32_t cta_slot = 0;    ///< SM-wide CTA slot (shared memory belongs to the CTA).
  int sub_partition = 0;         ///< Issuing SMSP.
  const traces::WarpInstruction* inst = nullptr;  ///< The instruction (mask, width, registers).
  const traces::OpcodeInfo* info = nullptr;       ///< Its space, access kind and width.
  const traces::WarpTrace* warp = nullptr;        ///< The warp's trace (lane addresses).
  /// The warp's lane-address pool as the core reads it (warp->addresses or a copy of it, checked
  /// against the instructions at launch); nullptr: read warp->addresses.
  const std::uint64_t* lanes = nullptr;
};

/// Receives completions from the pipeline.
class CompletionSink {
 public:
  virtual ~CompletionSink() = default;
  /// The op `op_id` of warp `warp_slot` finished at cycle `at` (≥ the current cycle): its
  /// destination registers are written, or, for stores and reductions, it has left the SM.
  virtual void complete(std::uint32_t warp_slot, std::uint32_t op_id, engine::Cycle at) = 0;
  /// Every write (store, reduction) of warp `warp_slot` has been acknowledged by the memory
  /// system at cycle `at`, as asked for by MemoryPipeline::notify_acknowledged.
  virtual void acknowledged(std::uint32_t warp_slot, engine::Cycle at) {
    (void)warp_slot;
    (void)at;
  }
};

/// Why the pipeline refused an instruction this cycle (the core charges the matching stall).
enum class PipelineBackpressure : std::uint8_t {
  kNone = 0,    ///< Accepted.
  kMio = 1,     ///< MIO queue full (shared memory, shuffles, constant): stall mio_throttle.
  kLsu = 2,     ///< LSU queue for global/local memory full: stall lg_throttle.
  kTex = 3,     ///< Texture queue full: stall tex_throttle.
};

/// An SM's memory pipeline.
class MemoryPipeline {
 public:
  virtual ~MemoryPipeline() = default;
  /// Whether an instruction like `info` from sub-partition `smsp` can be accepted at this cycle.
  virtual PipelineBackpressure can_accept(const traces::OpcodeInfo& info, int smsp) const = 0;
  /// Whether the queue behind refusal `kind` (not kNone) of sub-partition `smsp` has room now.
  /// A core puts warps refused for a full queue to sleep and wakes them when this turns true
  /// (queues drain only inside advance()).
  virtual bool has_room(PipelineBackpressure kind, int smsp) const = 0;
  /// Takes an instruction at cycle `now` (only after can_accept returned kNone this cycle).
  virtual void issue(const MemoryOp& op, engine::Cycle now) = 0;
  /// Advances the pipeline to cycle `now`: reads arrived memory responses, moves requests on,
  /// reports finished ops through `sink`. Returns the next cycle it needs, or engine::kSleep
  /// when it waits only for responses (their arrival wakes the SM).
  virtual engine::Cycle advance(engine::Cycle now, CompletionSink& sink) = 0;
  /// True when nothing is in flight (no op accepted and not completed).
  virtual bool idle() const = 0;
  /// Reads `bytes` of a matrix instruction's operands from shared memory through the data path
  /// that LDS/STS use, starting no sooner than `now`; returns the cycle the reads end (`now` in a
  /// pipeline without a shared-memory data path).
  virtual engine::Cycle read_shared_operands(std::uint32_t bytes, engine::Cycle now) {
    (void)bytes;
    return now;
  }
  /// Hints that advance() comes soon: the pipeline may start loading its state (no effect on
  /// results).
  virtual void prefetch() const {}
  /// Writes (stores, reductions) of warp `warp_slot` that have left the SM and that the memory
  /// system has not yet acknowledged: what a GPU-scope fence waits for.
  virtual std::uint32_t unacknowledged_writes(std::uint32_t warp_slot) const {
    (void)warp_slot;
    return 0;
  }
  /// Asks at cycle `now` for CompletionSink::acknowledged once warp `warp_slot` has no
  /// unacknowledged write (from `now` on).
  virtual void notify_acknowledged(std::uint32_t warp_slot, engine::Cycle now) {
    (void)warp_slot;
    (void)now;
  }
};

}  // namespace warpsim::core
