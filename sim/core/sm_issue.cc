// The SM component, continued: per-SMSP warp evaluation (which reason keeps a warp from issuing,
// and until when), issue and its effects on scoreboards, functional units, the memory pipeline,
// barriers and the Tensor Cores.
#include <algorithm>
#include <array>
#include <bit>

#include "sim/core/sm.h"

namespace warpsim::core {

using engine::Cycle;
using engine::kSleep;

namespace {

/// Whether a branch at `pc` whose warp next runs the instruction at `next_pc` redirected it: the
/// next instruction is not one of the (at most 16) bytes after it. An AMD branch over a single
/// 4- or 8-byte instruction counts as falling through.
bool redirects(std::uint64_t pc, std::uint64_t next_pc) {
  return next_pc <= pc || next_pc > pc + 16;
}

/// Whether a wgmma takes its A input from registers ("HGMMA R24, R152, gdesc[UR4], R24"): a
/// general-register source other than its accumulator. Otherwise both inputs come from shared
/// memory through descriptors ("HGMMA R24, gdesc[UR8], R24").
bool a_from_registers(const traces::WarpInstruction& inst) {
  for (int i = 0; i < inst.num_src; ++i) {
    const traces::Reg r = inst.src[static_cast<std::size_t>(i)];
    if (r.kind() == traces::RegKind::kGeneral && !r.is_zero() &&
        (inst.num_dst == 0 || r != inst.dst[0])) {
      return true;
    }
  }
  return false;
}

StallReason scoreboard_reason(DependencyKind kind) {
  switch (kind) {
    case DependencyKind::kLong:
      return StallReason::kLongScoreboard;
    case DependencyKind::kShort:
      return StallReason::kShortScoreboard;
    default:
      return StallReason::kWait;
  }
}

StallReason throttle_reason(PipelineBackpressure bp) {
  switch (bp) {
    case PipelineBackpressure::kMio:
      return StallReason::kMioThrottle;
    case PipelineBackpressure::kTex:
      return StallReason::kTexThrottle;
    default:
      return StallReason::kLgThrottle;
  }
}

// The throttle a busy memory dispatch port is charged to.
StallReason memory_port_reason(const traces::OpcodeInfo& info) {
  switch (info.space) {
    case traces::MemSpace::kShared:
    case traces::MemSpace::kConstant:
    case traces::MemSpace::kNone:
      return StallReason::kMioThrottle;
    case traces::MemSpace::kTexture:
    case traces::MemSpace::kSurface:
      return StallReason::kTexThrottle;
    default:
      return StallReason::kLgThrottle;
  }
}

// The functional unit an arithmetic instruction occupies: mma.sync (HMMA) the tensor pipe, the
// rest their own class.
int unit_class(const OpcodeDecode& d) {
  return d.kind == ExecKind::kMmaWarp ? static_cast<int>(arch::TENSOR) : d.op_class;
}

// The throttle a busy arithmetic unit charges. MUFU reaches the SFU through the MIO, so ncu
// charges a busy SFU to mio_throttle ("the MIO pipelines, which include special math
// instructions"; the H200's sfu kernel at 528 CTAs: 4.32 warps per issue on mio_throttle, none on
// math_pipe_throttle, validate/reference/h200/raw.csv).
StallReason unit_reason(int op_class) {
  return op_class == arch::SFU ? StallReason::kMioThrottle : StallReason::kMathPipeThrottle;
}

// The throttle a full pipeline queue charges for `info` (the memory pipeline's routing: shuffles
// and the shared, constant and unclassified spaces queue for the MIO; texture and surface
// accesses refuse as tex; other non-generic spaces queue for the LSU). kMisc: it depends on the
// address (generic) or differs from the port's reason (tensor memory).
StallReason queue_reason(const traces::OpcodeInfo& info) {
  if (info.space == traces::MemSpace::kGeneric || info.space == traces::MemSpace::kTensorMemory) {
    return StallReason::kMisc;
  }
  if (info.op_class == arch::SHUFFLE) return StallReason::kMioThrottle;
  return memory_port_reason(info);
}

}  // namespace

Cycle Sm::issue_smsp(int smsp, Cycle now) {
  WarpMask eligible = 0;
  Cycle next = kSleep;
  // Still reading an instruction's operands: the dispatcher takes only the warp that issued it,
  // which goes on at its own stall counts (the compiler set them knowing its operands: the H200's
  // one-warp FFMA loop loses no cycle to them). The scheduler still picks among all eligible
  // warps; when it picks another, that warp waits out the reads (dispatch_stall) and the cycle
  // is lost, so eight warps' FFMA loops on one SMSP pay a cycle for each instruction between
  // their three-read FFMAs, as the H200's do (see hold_dispatch_for_reads).
  const WarpMask warps = smsp_warps_[static_cast<std::size_t>(smsp)];
  const Cycle held = dispatch_free_[static_cast<std::size_t>(smsp)];
  const bool dispatch_held = held > now;
  const int owner = dispatch_owner_[static_cast<std::size_t>(smsp)];
  // Pipeline queues found full this cycle: the pipeline does not change until this SMSP issues,
  // so warps refused for the same queue at their last evaluation are refused again (same stall
  // reason, same wake-up) without being re-evaluated.
  std::array<bool, 4> still_full{};
  // One pass over the ready cycles finds the warps due; the others only bound `next`.
  WarpMask due = 0;
  for (WarpMask m = warps; m != 0; m &= m - 1) {
    const int slot = std::countr_zero(m);
    const Cycle ready_at = ready_at_[static_cast<std::size_t>(slot)];
    if (ready_at <= now) {
      due |= WarpMask{1} << slot;
    } else {
      next = std::min(next, ready_at);
    }
  }
  // The warps due for evaluation are spread over cold memory: start loading them all first.
  for (WarpMask m = due; m != 0; m &= m - 1) {
    const auto slot = static_cast<std::size_t>(std::countr_zero(m));
    const char* w = reinterpret_cast<const char*>(&warps_[slot]);
    __builtin_prefetch(w);
    __builtin_prefetch(w + 64);
    __builtin_prefetch(&warps_[slot].scoreboard);
  }
  // Warps are evaluated in slot order. Evaluating or issuing one may lower another's ready cycle
  // (a barrier release, a warpgroup's operations starting); a warp of a higher slot that thereby
  // becomes due is evaluated in this pass too (lower_count_ tells).
  for (WarpMask m = due; m != 0;) {
    const int slot = std::countr_zero(m);
    m &= m - 1;
    Cycle& ready_at = ready_at_[static_cast<std::size_t>(slot)];
    const std::uint64_t lowered_before = lower_count_;
    Warp& w = warps_[static_cast<std::size_t>(slot)];
    // A refused warp waits for its queue until wake_throttled takes it out of the line, even if
    // something else (a completion) made it due meanwhile, and while the queue is still full.
    if (w.refused != PipelineBackpressure::kNone &&
        (still_full[static_cast<std::size_t>(w.refused)] ||
         (throttled_[w.smsp] & (WarpMask{1} << slot)) != 0)) {
      throttle(slot, w.smsp);
      ready_at = kSleep;
      continue;
    }
    refusal_ = PipelineBackpressure::kNone;
    const bool ready = evaluate(w, slot, now);
    if (w.refused != refusal_) throttled_warp_changed(slot, w.smsp);
    w.refused = refusal_;
    if (refusal_ != PipelineBackpressure::kNone) {
      still_full[static_cast<std::size_t>(refusal_)] = true;
    }
    if (ready) {
      eligible |= WarpMask{1} << slot;
    } else if (w.resident) {
      next = std::min(next, ready_at);
    }
    if (lower_count_ != lowered_before) {
      const WarpMask above = ~((WarpMask{2} << slot) - 1);
      for (WarpMask a = warps & above & ~m; a != 0; a &= a - 1) {
        const int other = std::countr_zero(a);
        if (ready_at_[static_cast<std::size_t>(other)] <= now) m |= WarpMask{1} << other;
      }
    }
  }
  if (eligible == 0) return next;
  WarpScheduler& scheduler = *schedulers_[static_cast<std::size_t>(smsp)];
  bool issued = false;
  bool lost = false;  // the pick waits for the held dispatch: the cycle goes unused
  for (int i = 0; i < config_.issue_width && eligible != 0; ++i) {
    const int slot = scheduler.pick(eligible);
    if (slot < 0) break;
    if (dispatch_held && slot != owner) {
      // Picked, but the dispatcher is busy until `held`; no other warp is picked meanwhile.
      set_reason(warps_[static_cast<std::size_t>(slot)], slot, now, StallReason::kDispatchStall);
      ready_at_[static_cast<std::size_t>(slot)] = held;
      next = std::min(next, held);
      eligible &= ~(WarpMask{1} << slot);
      lost = true;
      break;
    }
    scheduler.issued(slot);
    eligible &= ~(WarpMask{1} << slot);
    issue(warps_[static_cast<std::size_t>(slot)], slot, now);
    issued_slots_[static_cast<std::size_t>(issued_count_++)] = slot;
    issued = true;
  }
  if (issued) ++counters_.issue_active_cycles[static_cast<std::size_t>(smsp)];
  // The eligible warps not picked wait a cycle: not_selected, or dispatch_stall when the held
  // dispatch lost the cycle (as ncu charges them: ffma_dependent at 8 warps a scheduler, 24 % of
  // the H100's samples dispatch_stall and 23 % not_selected, warp_finish_ncu_h100.csv). Each was
  // eligible now, so at the next cycle only its unit can stop it (nothing else it waits for
  // changes without its own issue): when that unit is busy then, its evaluation there is known
  // in advance (see port_wait) and is made now, so that it is next evaluated when the unit
  // frees. While the dispatch is held, it is evaluated at the next cycle as usual. An observer
  // sees the same evaluations: it must not change the run it records (the order in which warps
  // wait for a queue's room would differ, and with it the cycles).
  const bool look_ahead = dispatch_free_[static_cast<std::size_t>(smsp)] <= now + 1;
  for (WarpMask m = eligible; m != 0; m &= m - 1) {
    const int slot = std::countr_zero(m);
    Warp& w = warps_[static_cast<std::size_t>(slot)];
    set_reason(w, slot, now, lost ? StallReason::kDispatchStall : StallReason::kNotSelected);
    Cycle ready = now + 1;
    if (look_ahead) {
      StallReason reason = StallReason::kNotSelected;
      const Cycle free = port_wait(w, now + 1, reason);
      if (free > now + 1) {
        set_reason(w, slot, now + 1, reason);
        ready = free;
      }
    }
    ready_at_[static_cast<std::size_t>(slot)] = ready;
    next = std::min(next, ready);
  }
  return next;
}

Cycle Sm::port_wait(const Warp& w, Cycle at, StallReason& reason) const {
  const OpcodeDecode& d = (*decoder_)[w.code[w.next].opcode];
  const FunctionalUnits& fu = units_[w.smsp];
  switch (d.kind) {
    case ExecKind::kMemory: {
      // A full queue at `at` would put the warp to sleep with its throttle until the queue has
      // room, and a busy port keeps it blocked until the port frees, so either way it cannot
      // issue before the port frees, and is charged the same reason until then, provided the
      // queue's throttle and the port's agree (the generic and tensor-memory spaces, whose
      // queue depends on the address or differs from the port's, are evaluated as usual).
      const StallReason port = memory_port_reason(*d.info);
      if (port != queue_reason(*d.info)) return at;
      const Cycle free = fu.free_at(d.op_class, at);
      if (free > at) reason = port;
      return free;
    }
    case ExecKind::kMmaWarpgroup:
    case ExecKind::kMmaTcgen05:
      return at;
    default: {
      const int op_class = unit_class(d);
      const Cycle free = fu.free_at(op_class, at);
      if (free > at) reason = unit_reason(op_class);
      return free;
    }
  }
}

bool Sm::block(Warp& w, int slot, Cycle now, StallReason reason, Cycle until) {
  set_reason(w, slot, now, reason);
  ready_at_[static_cast<std::size_t>(slot)] = until;
  if (reason == StallReason::kLongScoreboard) schedulers_[w.smsp]->long_stall(slot);
  return false;
}

bool Sm::evaluate(Warp& w, int slot, Cycle now) {
  // A streamed warp takes its next piece while its last held instruction is still to issue, so
  // that issue() always sees the instruction after the one it issues (branch redirects).
  if (w.streamed && w.next + 1 >= w.length) refill(w, slot);
  if (!w.finished && w.next >= w.length) warp_finished(w, slot, now);
  if (w.finished) {
    if (w.outstanding_memory == 0 && w.memory_done_at <= now) {
      retire_warp(slot, now);
      return false;
    }
    return block(w, slot, now, StallReason::kDrain,
                 w.outstanding_memory > 0 ? kSleep : w.memory_done_at);
  }
  if (w.at_barrier) return block(w, slot, now, StallReason::kBarrier, kSleep);
  if (w.hold_until > now) return block(w, slot, now, w.hold_reason, w.hold_until);
  const traces::WarpInstruction& inst = w.code[w.next];
  if (fetch_.enabled()) {
    const std::uint64_t line = inst.pc / InstructionFetch::kLineBytes;
    if (line != w.fetch_line) {
      const Cycle fetched = fetch_.enter(w.smsp, inst.pc, now);
      if (fetched > now) return block(w, slot, now, StallReason::kNoInstruction, fetched);
      w.fetch_line = line;
    }
  }
  const OpcodeDecode& d = (*decoder_)[inst.opcode];
  if (w.cleared != w.next) {
    if (!dependences_clear(w, slot, inst, d, now)) return false;
    w.cleared = w.next;
  }
  return unit_ready(w, slot, d, now);
}

bool Sm::dependences_clear(Warp& w, int slot, const traces::WarpInstruction& inst,
                           const OpcodeDecode& d, Cycle now) {
  switch (d.kind) {
    case ExecKind::kMembar:
    case ExecKind::kErrbar:
      if (w.outstanding_memory > 0 || w.memory_done_at > now) {
        return block(w, slot, now, StallReason::kMembar,
                     w.outstanding_memory > 0 ? kSleep : w.memory_done_at);
      }
      // The fence that MEMBAR.SC.GPU opens is closed by the ERRBAR after it: the GPU charges a
      // __threadfence()'s wait there (validate/reference/h200/foreign2, at::reduce_kernel), for a
      // round trip through the memory system that takes gpu_fence_cycles with nothing else in
      // flight (validate/reference/h200/fence_h100.tsv.gz) and for the warp's writes to be
      // acknowledged.
      if (d.kind == ExecKind::kErrbar) {
        if (w.fence_done_at > now) {
          return block(w, slot, now, StallReason::kMembar, w.fence_done_at);
        }
        if (pipeline_->unacknowledged_writes(static_cast<std::uint32_t>(slot)) > 0) {
          pipeline_->notify_acknowledged(static_cast<std::uint32_t>(slot), now);
          return block(w, slot, now, StallReason::kMembar, kSleep);
        }
      }
      break;
    case ExecKind::kWarpgroupWait:
      if (!gmma_wait_done(w, slot, inst.imm, now)) return false;
      break;
    case ExecKind::kAsyncWait:
      if (!async_wait_done(w, slot, inst.imm, now)) return false;
      break;
    case ExecKind::kMemory:
      if (d.tensor_memory_load && tensor_.last_completion() > now) {
        return block(w, slot, now, StallReason::kGmma, tensor_.last_completion());
      }
      break;
    case ExecKind::kMmaWarpgroup: {
      const WarpgroupState& g = ctas_[w.cta_slot]->warpgroups[w.warp_in_cta / 4];
      if (w.hgmma_issued >= g.enqueued + WarpgroupState::kRing) {
        return block(w, slot, now, StallReason::kGmma, kSleep);
      }
      break;
    }
    default:
      break;
  }
  const Hazard hazard = w.scoreboard.check(inst, d.dst_regs, now);
  if (hazard.blocked) return block(w, slot, now, scoreboard_reason(hazard.kind), hazard.ready);
  return true;
}

bool Sm::unit_ready(Warp& w, int slot, const OpcodeDecode& d, Cycle now) {
  FunctionalUnits& fu = units_[w.smsp];
  switch (d.kind) {
    case ExecKind::kMemory: {
      const PipelineBackpressure bp = pipeline_->can_accept(*d.info, w.smsp);
      if (bp != PipelineBackpressure::kNone) {
        refusal_ = bp;
        if (w.refused == PipelineBackpressure::kNone) w.refused_at = now;
        throttle(slot, w.smsp);
        return block(w, slot, now, throttle_reason(bp), kSleep);
      }
      if (!fu.can_issue(d.op_class, now)) {
        return block(w, slot, now, memory_port_reason(*d.info), fu.free_at(d.op_class, now));
      }
      return true;
    }
    case ExecKind::kMmaWarpgroup:
    case ExecKind::kMmaTcgen05:
      return true;
    default: {
      const int op_class = unit_class(d);
      if (!fu.can_issue(op_class, now)) {
        return block(w, slot, now, unit_reason(op_class), fu.free_at(op_class, now));
      }
      return true;
    }
  }
}

void Sm::issue(Warp& w, int slot, Cycle now) {
  const traces::WarpInstruction& inst = w.code[w.next];
  const OpcodeDecode& d = (*decoder_)[inst.opcode];
  set_reason(w, slot, now, StallReason::kSelected);
  ++counters_.inst_issued[w.smsp];
  // ncu counts active threads whatever the guard predicate: add the predicated-off lanes.
  traces::LaneMask threads = inst.active_mask;
  if (inst.extras != traces::kNoExtras) threads |= w.trace->extras[inst.extras].predicated_off;
  counters_.thread_inst_executed += traces::popcount(threads);
  ++counters_.inst_per_op_class[d.op_class];
  ++counters_.inst_per_opcode[inst.opcode];
  if (observer_ != nullptr) {
    observer_->on_issue({now, id_, w.smsp, slot, w.warp_in_cta, static_cast<int>(w.cta_slot),
                         inst.pc, inst.opcode, inst.active_mask});
  }
  ++w.next;
  next_code_[static_cast<std::size_t>(slot)] = w.code + w.next;
  note_progress();
  FunctionalUnits& fu = units_[w.smsp];
  switch (d.kind) {
    case ExecKind::kMemory:
      issue_memory(w, slot, inst, d, now);
      break;
    case ExecKind::kMmaWarp:
      fu.issue(arch::TENSOR, now, d.interval);
      mma_busy_ += d.interval;
      ++counters_.mma_warp_inst;
      w.scoreboard.record(inst, d.dst_regs, now + static_cast<Cycle>(d.latency_cycles),
                          DependencyKind::kFixed, 0);
      break;
    case ExecKind::kMmaWarpgroup: {
      CtaSlot& c = *ctas_[w.cta_slot];
      WarpgroupState& g = c.warpgroups[w.warp_in_cta / 4];
      ++w.hgmma_issued;
      ++g.issued[w.warp_in_cta % 4];
      g.occupancy = d.tensor_occupancy;
      g.extra_latency = d.latency_cycles;
      g.operand_bytes = d.b_operand_bytes + (a_from_registers(inst) ? 0 : d.a_operand_bytes);
      if (inst.has(traces::kInstGmmaCommit)) w.gmma_groups.commit(w.hgmma_issued);
      start_warpgroup_ops(c, w.warp_in_cta / 4, now);
      break;
    }
    case ExecKind::kMmaTcgen05:
      tensor_.enqueue(now, d.tensor_occupancy, d.latency_cycles);
      ++counters_.mma_tcgen05_ops;
      break;
    case ExecKind::kBranch:
      fu.issue(d.op_class, now, d.interval);
      // A branch that redirects the warp (its next instruction is not the one after it) holds
      // the warp until the target can issue; one that falls through holds it for its stall count
      // (below). ncu charges either wait to branch_resolving.
      if (d.resolves || (w.next < w.length && redirects(inst.pc, w.code[w.next].pc))) {
        w.hold_until = now + static_cast<Cycle>(config_.branch_resolve_cycles);
      }
      w.hold_reason = StallReason::kBranchResolving;
      break;
    case ExecKind::kReconverge:
      fu.issue(d.op_class, now, d.interval);
      if (d.resolves) {  // BSYNC
        w.hold_until = now + static_cast<Cycle>(config_.branch_resolve_cycles);
        w.hold_reason = StallReason::kBranchResolving;
      }
      if (observer_ != nullptr) {
        observer_->on_reconvergence({now, id_, slot, inst.pc, inst.opcode, inst.active_mask});
      }
      break;
    case ExecKind::kBarrierSync:
    case ExecKind::kBarrierArrive:
      fu.issue(d.op_class, now, d.interval);
      barrier_arrive(w, slot, inst, d.kind == ExecKind::kBarrierSync, now);
      break;
    case ExecKind::kExit:
      fu.issue(d.op_class, now, d.interval);
      if ((w.live_mask & ~inst.active_mask) == 0) {
        warp_finished(w, slot, now);
      } else {
        w.live_mask &= ~inst.active_mask;
      }
      break;
    case ExecKind::kMembar:
      fu.issue(d.op_class, now, d.interval);
      if (d.gpu_fence) w.fence_done_at = now + static_cast<Cycle>(config_.gpu_fence_cycles);
      break;
    case ExecKind::kNanosleep:
      fu.issue(d.op_class, now, d.interval);
      w.hold_until = now + static_cast<Cycle>(std::max<std::int64_t>(1, inst.imm));
      w.hold_reason = StallReason::kSleeping;
      break;
    case ExecKind::kAsyncCommit:
      fu.issue(d.op_class, now, d.interval);
      w.async_groups.commit(w.async_issued);
      break;
    default:
      fu.issue(d.op_class, now, d.interval);
      w.scoreboard.record(inst, d.dst_regs, now + static_cast<Cycle>(d.latency_cycles),
                          d.dependency, 0);
      hold_dispatch_for_reads(w.smsp, slot, inst, now);
      break;
  }
  // The compiler's stall count: the warp's next instruction waits that many cycles (ncu's
  // "wait"; after a branch, "branch_resolving" as above).
  if (inst.issue_stall > 1 && now + inst.issue_stall > w.hold_until) {
    w.hold_until = now + inst.issue_stall;
    if (d.kind != ExecKind::kBranch) w.hold_reason = StallReason::kWait;
  }
  if (!w.finished && w.next >= w.length) warp_finished(w, slot, now);
}

void Sm::hold_dispatch_for_reads(int smsp, int slot, const traces::WarpInstruction& inst,
                                 Cycle now) {
  const int per_cycle = config_.register_reads_per_cycle;
  if (per_cycle <= 0) return;
  int reads = 0;
  for (int i = 0; i < inst.num_src; ++i) {
    const traces::Reg r = inst.src[static_cast<std::size_t>(i)];
    if (r.kind() == traces::RegKind::kGeneral && !r.is_zero() && ((inst.reuse >> i) & 1u) == 0) {
      ++reads;
    }
  }
  const int cycles = (reads + per_cycle - 1) / per_cycle;
  if (cycles > 1) {
    dispatch_free_[static_cast<std::size_t>(smsp)] = now + static_cast<Cycle>(cycles);
    dispatch_owner_[static_cast<std::size_t>(smsp)] = static_cast<std::uint8_t>(slot);
  }
}

void Sm::issue_memory(Warp& w, int slot, const traces::WarpInstruction& inst, const OpcodeDecode& d,
                      Cycle now) {
  const std::uint32_t op_id = (next_op_++ << 1) | (d.async_copy ? 1u : 0u);
  MemoryOp op;
  op.warp_slot = static_cast<std::uint32_t>(slot);
  op.op_id = op_id;
  op.cta_slot = w.cta_slot;
  op.sub_partition = w.smsp;
  op.inst = &inst;
  op.info = d.info;
  op.warp = w.trace;
  op.lanes = w.lanes;
  pipeline_->issue(op, now);
  wake_hint_ = std::min(wake_hint_, now + 1);  // the pipeline advances from the next cycle
  units_[w.smsp].issue(d.op_class, now, d.interval);
  ++w.outstanding_memory;
  if (d.async_copy) ++w.async_issued;
  w.scoreboard.record(inst, d.dst_regs, kSleep, d.dependency, op_id);
  // A shared store's data registers stay locked until the MIO has read them (its completion).
  if (d.info->space == traces::MemSpace::kShared &&
      d.info->access == traces::AccessKind::kStore) {
    for (int i = inst.num_src - 1; i >= 0; --i) {
      const traces::Reg r = inst.src[static_cast<std::size_t>(i)];
      if (r.kind() != traces::RegKind::kGeneral) continue;
      if (!r.is_zero()) {
        const int width = inst.mem_width != 0 ? inst.mem_width : d.info->width_bytes;
        w.scoreboard.lock_for_read(r, std::max(1, (width + 3) / 4), DependencyKind::kShort, op_id);
      }
      break;
    }
  }
}

void Sm::barrier_arrive(Warp& w, int slot, const traces::WarpInstruction& inst, bool wait,
                        Cycle now) {
  (void)slot;
  const auto id = static_cast<std::uint32_t>(inst.has(traces::kInstHasImm) ? inst.imm & 15 : 0);
  CtaSlot& c = *ctas_[w.cta_slot];
  const traces::InstructionExtras* extras = w.trace->extras_of(inst);
  if (extras != nullptr && extras->imm2 && *extras->imm2 > 0) {
    c.expected[id] = static_cast<std::uint32_t>((*extras->imm2 + warp_size_ - 1) / warp_size_);
  }
  c.arrived[id] |= std::uint64_t{1} << w.warp_in_cta;
  // The SM takes the arrivals one at a time (all of its CTAs' barriers share the unit).
  const Cycle done =
      std::max(now, barrier_free_) + static_cast<Cycle>(config_.barrier_arrival_cycles);
  barrier_free_ = done;
  c.arrival_done[id] = std::max<Cycle>(c.arrival_done[id], done);
  if (wait) {
    w.at_barrier = true;
    w.barrier_id = id;
  }
  check_barrier(c, id, now);
}

void Sm::check_barrier(CtaSlot& c, std::uint32_t id, Cycle now) {
  const std::uint64_t arrived = c.arrived[id];
  const bool released = c.expected[id] != 0
                            ? static_cast<std::uint32_t>(std::popcount(arrived)) >= c.expected[id]
                            : (c.running & ~arrived) == 0;
  if (!released) return;
  const Cycle release_at =
      std::max<Cycle>(now, c.arrival_done[id]) + static_cast<Cycle>(config_.barrier_latency_cycles);
  for (std::uint64_t m = arrived; m != 0; m &= m - 1) {
    const int slot = c.warp_slots[static_cast<std::size_t>(std::countr_zero(m))];
    Warp& x = warps_[static_cast<std::size_t>(slot)];
    if (!x.resident || !x.at_barrier || x.barrier_id != id) continue;
    x.at_barrier = false;
    x.hold_until = std::max(x.hold_until, release_at);
    x.hold_reason = StallReason::kBarrier;
    wake(x, slot, release_at);
  }
  c.arrived[id] = 0;
  c.expected[id] = 0;
  c.arrival_done[id] = 0;
}

void Sm::start_warpgroup_ops(CtaSlot& c, std::uint32_t group, Cycle now) {
  WarpgroupState& g = c.warpgroups[group];
  const std::uint32_t ready = g.ready_count();
  if (ready <= g.enqueued) return;
  for (; g.enqueued < ready; ++g.enqueued) {
    // Its shared-memory operands take the MIO data path; it completes no sooner than they end.
    const Cycle reads_done = pipeline_->read_shared_operands(g.operand_bytes, now);
    g.completion[g.enqueued % WarpgroupState::kRing] =
        std::max(tensor_.enqueue(now, g.occupancy, g.extra_latency),
                 reads_done + static_cast<Cycle>(g.extra_latency));
    ++counters_.mma_warpgroup_ops;
  }
  for (std::uint32_t i = group * 4; i < std::min<std::uint32_t>(group * 4 + 4, c.warps); ++i) {
    Warp& x = warps_[static_cast<std::size_t>(c.warp_slots[i])];
    if (x.resident && x.reason == StallReason::kGmma) wake(x, c.warp_slots[i], now + 1);
  }
}

bool Sm::gmma_wait_done(Warp& w, int slot, std::int64_t allowed, Cycle now) {
  if (w.hgmma_issued > w.gmma_groups.newest()) w.gmma_groups.commit(w.hgmma_issued);
  const WarpgroupState& g = ctas_[w.cta_slot]->warpgroups[w.warp_in_cta / 4];
  while (w.gmma_groups.count > std::max<std::int64_t>(0, allowed)) {
    const Cycle done = g.completion_of(w.gmma_groups.at(0) - 1);
    if (done > now) return block(w, slot, now, StallReason::kGmma, done);
    w.gmma_groups.pop();
  }
  return true;
}

bool Sm::async_wait_done(Warp& w, int slot, std::int64_t allowed, Cycle now) {
  if (w.async_issued > w.async_groups.newest()) w.async_groups.commit(w.async_issued);
  while (w.async_groups.count > std::max<std::int64_t>(0, allowed)) {
    if (w.async_completed < w.async_groups.at(0)) {
      return block(w, slot, now, StallReason::kLongScoreboard, kSleep);
    }
    if (w.memory_done_at > now) {
      return block(w, slot, now, StallReason::kLongScoreboard, w.memory_done_at);
    }
    w.async_groups.pop();
  }
  return true;
}

}  // namespace warpsim::core
