// One streaming multiprocessor's issue core as an engine component in the SM clock domain: its
// sub-partitions (SMSPs), each with a warp scheduler issuing up to `issue_width` warp
// instructions per cycle and its functional units; the resident CTAs and their warps (warp slot
// s runs on SMSP s mod SMSPs; a CTA's warps take the lowest free slots, so CTA warp i normally
// lands on SMSP i mod 4); per-warp scoreboards; CTA barriers; Tensor Cores (mma.sync per SMSP,
// wgmma/tcgen05 on an SM-wide timeline); and an injected MemoryPipeline that times every memory
// and shuffle instruction and reports completions back.
//
// Time: `tick` runs only at cycles where something can happen (an issue, a dependency clearing,
// a unit freeing, a memory completion); it returns the next such cycle, or kSleep when only a
// memory response can wake it. Stall accounting is exact across skipped cycles: each warp carries
// the reason it is charged and since when, and the charge is made in bulk when the reason changes
// or the warp retires, so the per-reason warp-cycles sum to the resident warp-cycles.
//
// Memory queues: a warp whose memory instruction the pipeline refuses (a full LSU or MIO queue)
// sleeps until the queue has room, and the queue then takes the warps of that sub-partition in the
// order they were refused, whatever the warp scheduler's priorities (the H200 shares a full
// queue's slots out among its warps in turn, validate/reference/h200/lsu_queue.tsv).
//
// Retirement: a warp whose stream ends, or that executes EXIT with all its remaining lanes,
// retires once its memory operations completed (stall `drain` meanwhile); a CTA retires with its
// last warp, freeing its registers, shared memory, warps and slot, and a CtaRetired message goes
// out on the retire port.
//
// Left out: instruction fetch and caches, the operand collector, register-file banks, dual issue,
// cluster barriers and distributed shared memory (the memory pipeline's concern), preemption.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/cta_slot.h"
#include "sim/core/functional_unit.h"
#include "sim/core/instruction_fetch.h"
#include "sim/core/memory_pipeline.h"
#include "sim/core/observer.h"
#include "sim/core/occupancy.h"
#include "sim/core/opcode_decode.h"
#include "sim/core/sm_config.h"
#include "sim/core/sm_counters.h"
#include "sim/core/tensor_unit.h"
#include "sim/core/warp.h"
#include "sim/core/warp_scheduler.h"
#include "sim/engine/component.h"
#include "sim/engine/huge_page_arena.h"
#include "sim/engine/port.h"
#include "sim/mem/split_mix64.h"
#include "traces/cta_trace.h"
#include "traces/kernel_info.h"

namespace warpsim::core {

/// Sent on the retire port when a CTA retires.
struct CtaRetired {
  int sm = 0;                   ///< The SM's id.
  int cta_slot = 0;             ///< The freed slot.
  traces::Dim3 index{0, 0, 0};  ///< blockIdx of the CTA.
  engine::Cycle cycle = 0;      ///< Retirement cycle.
};

/// The SM issue core.
class Sm final : public engine::Component, private CompletionSink {
 public:
  /// An SM with id `sm_id`; `config` (validated here; throws warpsim::InputError) and `pipeline`
  /// must outlive it.
  Sm(std::string name, const engine::ClockDomain& domain, int sm_id, const SmConfig& config,
     MemoryPipeline& pipeline);
  /// An SM whose pipeline is attached later with set_memory_pipeline() (the pipeline's ports need
  /// the SM registered first). Ticking without one is an InternalError.
  Sm(std::string name, const engine::ClockDomain& domain, int sm_id, const SmConfig& config);
  /// Attaches the memory pipeline (before the first tick).
  void set_memory_pipeline(MemoryPipeline& pipeline) { pipeline_ = &pipeline; }
  ~Sm() override;

  /// Prepares for CTAs of `kernel` (decodes its opcodes) with the per-CTA resources of
  /// `occupancy`. Throws warpsim::InputError for a matrix instruction the config cannot time.
  void start_kernel(const traces::KernelInfo& kernel, const Occupancy& occupancy);

  /// True when one more CTA of the current kernel fits (CTA slots, warps, registers, shared
  /// memory).
  bool can_accept_cta() const;

  /// Makes `cta` resident from cycle `cycle` (≥ the latest cycle the SM processed). The trace is
  /// swapped into an SM-owned slot buffer, and `cta` receives that slot's previous buffer for
  /// reuse (nothing is copied or reallocated in steady state). Returns the CTA slot. Throws
  /// warpsim::InputError when the CTA does not fit or has more warps than the SM has slots.
  int launch_cta(traces::CtaTrace& cta, engine::Cycle cycle);

  /// Hands `cta` over for launch at `cycle`, the SM's next tick, which launches it first (as
  /// launch_cta does, with its errors); `cta` receives a buffer for reuse. For the CTA dispatcher's
  /// commit hook: the launch's work (checking and copying the trace, setting up the warps) then
  /// runs on the thread that ticks the SM, not in the engine's serial commit phase. The caller
  /// wakes the SM at `cycle`.
  void stage_cta(traces::CtaTrace& cta, engine::Cycle cycle);

  /// Where CtaRetired messages go (nullptr: nowhere).
  void set_retire_port(engine::Port<CtaRetired>* port) { retire_port_ = port; }
  /// Receives events (nullptr: none).
  void set_observer(Observer* observer) { observer_ = observer; }
  /// Decodes opcodes with `decoder` instead of the SM's own: the SMs of a GPU (same config) share
  /// one table, which stays in the host's caches. It must outlive the SM and be built from an
  /// equal config; it is synchronised only where the SM syncs its own (start_kernel, launch_cta,
  /// stage_cta, which run serially).
  void share_decoder(OpcodeDecoder& decoder) { decoder_ = &decoder; }
  /// Copies each launched CTA's instructions and lane addresses into storage from `arena` (kept
  /// by the CTA slot for the CTAs after it), so that the warps read compact, warm memory rather
  /// than the source's buffers (nullptr: read the trace in place). The arena must outlive the SM.
  void set_trace_arena(engine::HugePageArena* arena) { trace_arena_ = arena; }

  /// The SM's counters. Exact up to the latest tick (all warps retired: exact).
  const SmCounters& counters() const { return counters_; }
  /// The SM's id.
  int id() const { return id_; }
  /// Resident CTAs.
  int resident_ctas() const { return resident_ctas_; }
  /// Resident warps.
  int resident_warps() const { return resident_warps_; }
  /// The warp in `slot` (for tests and observers).
  const Warp& warp(int slot) const { return warps_[static_cast<std::size_t>(slot)]; }

  engine::Cycle tick(engine::Cycle now) override;
  void prefetch() const override;
  void prefetch_deep() const override;
  bool busy() const override;
  void dump_state(std::ostream& out) const override;

 private:
  // CompletionSink.
  void complete(std::uint32_t warp_slot, std::uint32_t op_id, engine::Cycle at) override;
  void acknowledged(std::uint32_t warp_slot, engine::Cycle at) override;

  // sm.cc: residency and accounting.
  void account(engine::Cycle cycle);
  void charge(Warp& w, int slot, engine::Cycle upto);
  void set_reason(Warp& w, int slot, engine::Cycle cycle, StallReason reason);
  void wake(Warp& w, int slot, engine::Cycle at);
  // Lowers the ready cycle of the warp in `slot` to `at`.
  void lower_ready(int slot, int smsp, engine::Cycle at) {
    ready_at_[static_cast<std::size_t>(slot)] = std::min(ready_at_[static_cast<std::size_t>(slot)], at);
    smsp_next_[static_cast<std::size_t>(smsp)] = std::min(smsp_next_[static_cast<std::size_t>(smsp)], at);
    lowered_ |= 1u << smsp;
    ++lower_count_;
  }
  // Recomputes smsp_next_[s] from ready_at_ for the SMSPs in `smsps` (bit s).
  void refresh_smsp_next(unsigned smsps);
  // Wakes, per sub-partition and queue with room, the warp that has waited longest for it (after
  // advance()).
  void wake_throttled(engine::Cycle now);
  /// Puts warp `slot` of SMSP `smsp` in its queue's line (throttled_).
  void throttle(int slot, int smsp) {
    WarpMask& waiting = throttled_[static_cast<std::size_t>(smsp)];
    if ((waiting & (WarpMask{1} << slot)) == 0) {
      waiting |= WarpMask{1} << slot;
      throttle_changed_[static_cast<std::size_t>(smsp)] = true;
    }
  }
  /// Records that warp `slot` of SMSP `smsp` left its slot or changed its refusal: if it waits in
  /// throttled_, wake_throttled scans that SMSP again.
  void throttled_warp_changed(int slot, int smsp) {
    if ((throttled_[static_cast<std::size_t>(smsp)] & (WarpMask{1} << slot)) != 0) {
      throttle_changed_[static_cast<std::size_t>(smsp)] = true;
    }
  }
  // Copies `c`'s trace into the slot's storage from trace_arena_ and points the CTA's warps
  // (already placed) at the copy.
  void copy_trace(CtaSlot& c);
  // Checks instructions [from, end) of a warp about to run: opcode ids within the kernel's table,
  // lane addresses within the pool.
  void check_code(const traces::WarpTrace& warp, std::size_t from,
                  const traces::CtaTrace& cta) const;
  // Takes the next piece of a streamed warp's instructions, keeping the ones not yet issued.
  void refill(Warp& w, int slot);
  // Grows slot c's storage in trace_arena_ to hold `trace` (serial phases only: the arena is
  // shared by the SMs).
  void reserve_trace(CtaSlot& c, const traces::CtaTrace& trace);
  // The parts of launch_cta: bringing the shared decoder and the counters up to the opcode table
  // (serial: the table grows as the dispatcher reads CTAs), then checking and installing the CTA.
  void sync_opcodes(const traces::CtaTrace& cta);
  int install_cta(traces::CtaTrace& cta, engine::Cycle cycle);
  void retire_warp(int slot, engine::Cycle cycle);
  void retire_cta(int cta_slot, engine::Cycle cycle);
  void warp_finished(Warp& w, int slot, engine::Cycle now);

  // sm_issue.cc: evaluation, issue and the units around it.
  engine::Cycle issue_smsp(int smsp, engine::Cycle now);
  bool evaluate(Warp& w, int slot, engine::Cycle now);
  bool dependences_clear(Warp& w, int slot, const traces::WarpInstruction& inst,
                         const OpcodeDecode& d, engine::Cycle now);
  bool unit_ready(Warp& w, int slot, const OpcodeDecode& d, engine::Cycle now);
  bool block(Warp& w, int slot, engine::Cycle now, StallReason reason, engine::Cycle until);
  // For a warp eligible at cycle `at` − 1: the first cycle ≥ `at` its unit can take its next
  // instruction, with `reason` set to what it is charged meanwhile when that is after `at`;
  // `at` when its evaluation at `at` cannot be known in advance.
  engine::Cycle port_wait(const Warp& w, engine::Cycle at, StallReason& reason) const;
  void issue(Warp& w, int slot, engine::Cycle now);
  // Holds SMSP `smsp`'s dispatch for warps other than `slot` while the operand collector reads
  // `inst`'s general registers.
  void hold_dispatch_for_reads(int smsp, int slot, const traces::WarpInstruction& inst,
                               engine::Cycle now);
  void issue_memory(Warp& w, int slot, const traces::WarpInstruction& inst, const OpcodeDecode& d,
                    engine::Cycle now);
  void barrier_arrive(Warp& w, int slot, const traces::WarpInstruction& inst, bool wait,
                      engine::Cycle now);
  void check_barrier(CtaSlot& cta, std::uint32_t id, engine::Cycle now);
  void start_warpgroup_ops(CtaSlot& cta, std::uint32_t group, engine::Cycle now);
  bool gmma_wait_done(Warp& w, int slot, std::int64_t allowed, engine::Cycle now);
  bool async_wait_done(Warp& w, int slot, std::int64_t allowed, engine::Cycle now);

  // Members read by every tick first, the warp array last (see prefetch()).
  const SmConfig& config_;
  int id_;
  int smsps_;
  engine::Cycle next_cta_start_ = 0;  // earliest start of the next CTA (cta_launch_interval)
  mem::SplitMix64 cta_draws_;  // a priority per CTA launched (gto_drawn), seeded by the SM's id
  MemoryPipeline* pipeline_ = nullptr;
  engine::Cycle last_account_ = 0;
  engine::Cycle wake_hint_ = engine::kSleep;
  unsigned lowered_ = 0;  // bit s: a ready cycle of SMSP s was lowered during this tick's issue
  std::uint64_t lower_count_ = 0;  // ready cycles lowered so far
  // Per SMSP: the minimum of ready_at_ over its resident warps, exact between ticks (lowered by
  // wake-ups, recomputed for the scanned SMSPs at the end of each tick), so an SMSP with nothing
  // ready is skipped.
  std::array<engine::Cycle, kMaxSubPartitions> smsp_next_{};
  // Per SMSP: the first cycle its dispatch is free again for warps other than dispatch_owner_
  // (an instruction with more register reads than the operand collector serves per cycle holds
  // it), and the slot of the warp that issued it.
  std::array<engine::Cycle, kMaxSubPartitions> dispatch_free_{};
  std::array<std::uint8_t, kMaxSubPartitions> dispatch_owner_{};
  std::array<WarpMask, kMaxSubPartitions> smsp_warps_{};  // resident warps per SMSP
  std::array<WarpMask, kMaxSubPartitions> throttled_{};   // asleep until their queue has room
  // Per SMSP: whether throttled_ gained a warp, or one of its warps left its slot or changed its
  // refusal, since wake_throttled last scanned it (throttle, throttled_warp_changed); and the queues its
  // waiting warps were refused by at that scan (bit k: PipelineBackpressure k). Unchanged, with
  // none of those queues having room, a scan would change nothing, so wake_throttled skips it.
  std::array<bool, kMaxSubPartitions> throttle_changed_{};
  std::array<std::uint8_t, kMaxSubPartitions> throttled_kinds_{};
  // Per warp slot: its next instruction (w.code + w.next), for prefetch_deep().
  std::array<const traces::WarpInstruction*, kMaxWarpsPerSm> next_code_{};
  // Per warp slot: the earliest cycle worth re-evaluating the warp (dense, scanned every tick).
  std::array<engine::Cycle, kMaxWarpsPerSm> ready_at_{};
  Observer* observer_ = nullptr;
  engine::Port<CtaRetired>* retire_port_ = nullptr;
  OpcodeDecoder* decoder_;  // own_decoder_ or a shared one
  InstructionFetch fetch_;  // the instruction caches (disabled unless configured)
  std::shared_ptr<const traces::OpcodeTable> opcodes_;
  Occupancy occupancy_;
  int warp_size_ = 32;
  std::uint32_t threads_per_cta_ = 0;

  std::vector<std::unique_ptr<CtaSlot>> ctas_;
  // CTAs handed over by stage_cta, launched at the start of the next tick.
  struct StagedCta {
    traces::CtaTrace cta;
    engine::Cycle cycle = 0;
  };
  std::vector<StagedCta> staged_ctas_;
  std::size_t staged_cta_count_ = 0;
  std::vector<FunctionalUnits> units_;                      // per SMSP
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;  // per SMSP
  std::array<int, kMaxSubPartitions> issued_slots_{};       // warps issued this tick
  int issued_count_ = 0;
  TensorTimeline tensor_;
  FixedCycles mma_busy_ = 0;  // mma.sync occupancy summed over SMSPs
  // The terms counters_.tensor_active_cycles was last computed from.
  FixedCycles counted_mma_busy_ = 0;
  FixedCycles counted_tensor_busy_ = 0;

  WarpMask free_warps_ = 0;
  int resident_ctas_ = 0;
  int resident_warps_ = 0;
  std::int64_t registers_used_ = 0;
  std::int64_t shared_used_ = 0;
  std::uint32_t next_op_ = 0;
  engine::Cycle barrier_free_ = 0;  // the first cycle the barrier unit takes another arrival
  PipelineBackpressure refusal_ = PipelineBackpressure::kNone;  // of the warp being evaluated
  SmCounters counters_;
  OpcodeDecoder own_decoder_;
  engine::HugePageArena* trace_arena_ = nullptr;
  std::array<Warp, kMaxWarpsPerSm> warps_{};
};

// Called for nearly every evaluation: inline.
inline void Sm::charge(Warp& w, int slot, engine::Cycle upto) {
  if (upto <= w.since) return;
  counters_.stalls.add(w.reason, upto - w.since);
  if (observer_ != nullptr) observer_->on_stall({id_, slot, w.reason, w.since, upto - w.since});
  w.since = upto;
}

inline void Sm::set_reason(Warp& w, int slot, engine::Cycle cycle, StallReason reason) {
  if (reason == w.reason) return;
  charge(w, slot, cycle);
  w.reason = reason;
}

}  // namespace warpsim::core
