// The SM component: construction, stall accounting, retirement and the tick. CTA launch is in
// sm_launch.cc, instruction evaluation and issue in sm_issue.cc.
#include "sim/core/sm.h"

#include <algorithm>
#include <bit>
#include <ostream>

#include "arch/error.h"

namespace warpsim::core {

using engine::Cycle;
using engine::kSleep;

Sm::Sm(std::string name, const engine::ClockDomain& domain, int sm_id, const SmConfig& config,
       MemoryPipeline& pipeline)
    : Sm(std::move(name), domain, sm_id, config) {
  pipeline_ = &pipeline;
}

Sm::Sm(std::string name, const engine::ClockDomain& domain, int sm_id, const SmConfig& config)
    : Component(std::move(name), domain),
      config_(config),
      id_(sm_id),
      smsps_(config.limits.sub_partitions),
      cta_draws_(static_cast<std::uint64_t>(sm_id)),
      decoder_(&own_decoder_),
      own_decoder_(config) {
  validate_sm_config(config);
  fetch_ = InstructionFetch(config.instruction_fetch, smsps_);
  for (int s = 0; s < smsps_; ++s) {
    units_.emplace_back(config);
    schedulers_.push_back(make_warp_scheduler(config));
  }
  for (int c = 0; c < config.limits.max_ctas_per_sm; ++c) {
    ctas_.push_back(std::make_unique<CtaSlot>());
  }
  const int slots = config.limits.max_warps_per_sm;
  free_warps_ = slots >= 64 ? ~WarpMask{0} : (WarpMask{1} << slots) - 1;
}

Sm::~Sm() = default;

void Sm::start_kernel(const traces::KernelInfo& kernel, const Occupancy& occupancy) {
  if (!kernel.opcodes) {
    throw InputError("kernel '" + kernel.name + "': no opcode table");
  }
  opcodes_ = kernel.opcodes;
  occupancy_ = occupancy;
  warp_size_ = static_cast<int>(kernel.warp_size());
  threads_per_cta_ = static_cast<std::uint32_t>(kernel.block.volume());
  decoder_->sync(*opcodes_, warp_size_);
  counters_.inst_per_opcode.resize(std::max(counters_.inst_per_opcode.size(), opcodes_->size()));
}

void Sm::account(Cycle cycle) {
  if (cycle <= last_account_) return;
  if (resident_warps_ > 0) {
    counters_.cycles_active += cycle - last_account_;
    counters_.warps_active_sum +=
        static_cast<std::uint64_t>(resident_warps_) * (cycle - last_account_);
  }
  last_account_ = cycle;
}

void Sm::wake(Warp& w, int slot, Cycle at) {
  lower_ready(slot, w.smsp, at);
  wake_hint_ = std::min(wake_hint_, at);
}

void Sm::refresh_smsp_next(unsigned smsps) {
  for (; smsps != 0; smsps &= smsps - 1) {
    const int s = std::countr_zero(smsps);
    Cycle m = kSleep;
    for (WarpMask b = smsp_warps_[static_cast<std::size_t>(s)]; b != 0; b &= b - 1) {
      m = std::min(m, ready_at_[static_cast<std::size_t>(std::countr_zero(b))]);
    }
    smsp_next_[static_cast<std::size_t>(s)] = m;
  }
}

void Sm::warp_finished(Warp& w, int slot, Cycle now) {
  (void)slot;
  w.finished = true;
  CtaSlot& c = *ctas_[w.cta_slot];
  c.running &= ~(std::uint64_t{1} << w.warp_in_cta);
  WarpgroupState& g = c.warpgroups[w.warp_in_cta / 4];
  g.members &= static_cast<std::uint8_t>(~(1u << (w.warp_in_cta % 4)));
  start_warpgroup_ops(c, w.warp_in_cta / 4, now);
  for (std::uint32_t b = 0; b < kCtaBarriers; ++b) {
    if (c.arrived[b] != 0) check_barrier(c, b, now);
  }
}

void Sm::retire_warp(int slot, Cycle cycle) {
  Warp& w = warps_[static_cast<std::size_t>(slot)];
  account(cycle);
  charge(w, slot, cycle);
  w.resident = false;
  w.trace->more.reset();  // a warp that ended early gives back the rest of its stream
  throttled_warp_changed(slot, w.smsp);
  schedulers_[w.smsp]->remove_warp(slot);
  smsp_warps_[w.smsp] &= ~(WarpMask{1} << slot);
  free_warps_ |= WarpMask{1} << slot;
  --resident_warps_;
  ++counters_.warps_retired;
  note_progress();
  CtaSlot& c = *ctas_[w.cta_slot];
  if (--c.remaining == 0) retire_cta(static_cast<int>(w.cta_slot), cycle);
}

void Sm::retire_cta(int cta_slot, Cycle cycle) {
  CtaSlot& c = *ctas_[static_cast<std::size_t>(cta_slot)];
  c.active = false;
  registers_used_ -= c.registers;
  shared_used_ -= c.shared_bytes;
  --resident_ctas_;
  ++counters_.ctas_retired;
  if (observer_ != nullptr) {
    observer_->on_cta_retire(
        {cycle, id_, cta_slot, c.trace.index, static_cast<std::uint32_t>(c.warps)});
  }
  if (retire_port_ != nullptr) retire_port_->send(CtaRetired{id_, cta_slot, c.trace.index, cycle});
}

void Sm::complete(std::uint32_t warp_slot, std::uint32_t op_id, Cycle at) {
  if (warp_slot >= warps_.size() || !warps_[warp_slot].resident) {
    throw InternalError(name() + ": memory completion for warp slot " + std::to_string(warp_slot) +
                        ", which holds no warp");
  }
  Warp& w = warps_[warp_slot];
  __builtin_prefetch(w.code + w.next);  // evaluated soon: load its next instruction meanwhile
  w.scoreboard.complete(op_id, at);
  if (w.outstanding_memory > 0) --w.outstanding_memory;
  w.memory_done_at = std::max(w.memory_done_at, at);
  if ((op_id & 1u) != 0) ++w.async_completed;
  wake(w, static_cast<int>(warp_slot), at);
}

void Sm::acknowledged(std::uint32_t warp_slot, Cycle at) {
  // A warp that left since it asked has nothing to wake.
  if (warp_slot < warps_.size() && warps_[warp_slot].resident) {
    wake(warps_[warp_slot], static_cast<int>(warp_slot), at);
  }
}

void Sm::wake_throttled(Cycle now) {
  // A queue that has room takes the warp of its sub-partition that has waited longest for it (the
  // H200's LSU and MIO queues admit the warps they refused in turn, validate/reference/h200/
  // lsu_queue.tsv), so the warp scheduler's priorities do not decide which warp gets a slot.
  for (int s = 0; s < smsps_; ++s) {
    WarpMask& waiting = throttled_[static_cast<std::size_t>(s)];
    if (waiting == 0) continue;
    if (!throttle_changed_[static_cast<std::size_t>(s)]) {
      // The warps waiting are those of the last scan less the ones it woke, each still resident
      // and refused as then: unless one of their queues has room, a scan changes nothing.
      bool room = false;
      for (std::uint8_t kinds = throttled_kinds_[static_cast<std::size_t>(s)]; kinds != 0 && !room;
           kinds &= static_cast<std::uint8_t>(kinds - 1)) {
        room = pipeline_->has_room(static_cast<PipelineBackpressure>(std::countr_zero(kinds)), s);
      }
      if (!room) continue;
    }
    std::array<int, 4> first{-1, -1, -1, -1};  // per queue: the longest-waiting warp
    std::array<int, 4> count{};                 // per queue: the warps waiting
    std::uint8_t kinds = 0;                     // bit k: some warp waits for queue k
    for (WarpMask m = waiting; m != 0; m &= m - 1) {
      const int slot = std::countr_zero(m);
      Warp& w = warps_[static_cast<std::size_t>(slot)];
      if (!w.resident || w.refused == PipelineBackpressure::kNone) {
        waiting &= ~(WarpMask{1} << slot);
        if (w.resident) lower_ready(slot, s, now);
        continue;
      }
      ++count[static_cast<std::size_t>(w.refused)];
      kinds = static_cast<std::uint8_t>(kinds | (1u << static_cast<unsigned>(w.refused)));
      int& f = first[static_cast<std::size_t>(w.refused)];
      if (f < 0 || w.refused_at < warps_[static_cast<std::size_t>(f)].refused_at) f = slot;
    }
    throttle_changed_[static_cast<std::size_t>(s)] = false;
    throttled_kinds_[static_cast<std::size_t>(s)] = kinds;
    for (std::size_t kind = 0; kind < first.size(); ++kind) {
      const int slot = first[kind];
      if (slot < 0 || !pipeline_->has_room(static_cast<PipelineBackpressure>(kind), s)) continue;
      waiting &= ~(WarpMask{1} << slot);
      lower_ready(slot, s, now);
      // The next in line is asked next cycle, should the queue still have room.
      if (count[kind] > 1) wake_hint_ = std::min(wake_hint_, now + 1);
    }
  }
}

Cycle Sm::tick(Cycle now) {
  for (std::size_t k = 0; k < staged_cta_count_; ++k) {
    StagedCta& staged = staged_ctas_[k];
    if (staged.cycle != now) {
      throw InternalError(name() + ": a CTA staged for cycle " + std::to_string(staged.cycle) +
                          " met the tick at cycle " + std::to_string(now));
    }
    install_cta(staged.cta, now);
  }
  staged_cta_count_ = 0;
  account(now);
  wake_hint_ = kSleep;
  if (pipeline_ == nullptr) throw InternalError(name() + ": no memory pipeline attached");
  Cycle next = pipeline_->advance(now, *this);
  WarpMask any_throttled = 0;
  for (const WarpMask m : throttled_) any_throttled |= m;
  if (any_throttled != 0) wake_throttled(now);
  issued_count_ = 0;
  unsigned scanned = 0;
  lowered_ = 0;
  // Per scanned SMSP: the minimum ready cycle of its warps other than those issuing (issue_smsp's
  // result), then of those too; exact unless a ready cycle was lowered meanwhile (lowered_).
  std::array<Cycle, kMaxSubPartitions> scanned_next{};
  for (int s = 0; s < smsps_; ++s) {
    if (smsp_warps_[static_cast<std::size_t>(s)] == 0) continue;
    // smsp_next_ is exact here: nothing raised a ready cycle of this SMSP since it was computed.
    const Cycle ready = smsp_next_[static_cast<std::size_t>(s)];
    if (ready > now) {
      next = std::min(next, ready);
    } else {
      scanned |= 1u << s;
      scanned_next[static_cast<std::size_t>(s)] = issue_smsp(s, now);
      next = std::min(next, scanned_next[static_cast<std::size_t>(s)]);
    }
  }
  // The state of each issuing warp from the next cycle on (charged over any skipped cycles).
  for (int i = 0; i < issued_count_; ++i) {
    const int slot = issued_slots_[static_cast<std::size_t>(i)];
    Warp& w = warps_[static_cast<std::size_t>(slot)];
    if (!w.resident) continue;
    refusal_ = PipelineBackpressure::kNone;
    if (evaluate(w, slot, now + 1)) ready_at_[static_cast<std::size_t>(slot)] = now + 1;
    if (w.refused != refusal_) throttled_warp_changed(slot, w.smsp);
    w.refused = refusal_;  // a refusal here puts it in its queue's line (wake_throttled)
    if (w.resident) {
      const Cycle ready = ready_at_[static_cast<std::size_t>(slot)];
      next = std::min(next, ready);
      scanned_next[w.smsp] = std::min(scanned_next[w.smsp], ready);
    }
  }
  // Only scanned SMSPs had ready cycles raised (the others' were only lowered, which keeps the
  // minimum exact). Their minimum is known unless some ready cycle was lowered after being read.
  refresh_smsp_next(scanned & lowered_);
  for (unsigned m = scanned & ~lowered_; m != 0; m &= m - 1) {
    const auto s = static_cast<std::size_t>(std::countr_zero(m));
    smsp_next_[s] = scanned_next[s];
  }
  next = std::min(next, wake_hint_);
  // Recomputed only when a matrix instruction changed its terms (the same formula, so the same
  // value as recomputing every tick).
  if (mma_busy_ != counted_mma_busy_ || tensor_.busy() != counted_tensor_busy_) {
    counted_mma_busy_ = mma_busy_;
    counted_tensor_busy_ = tensor_.busy();
    counters_.tensor_active_cycles =
        (static_cast<double>(mma_busy_) / smsps_ + static_cast<double>(tensor_.busy())) / kFixedOne;
  }
  if (next <= now) next = now + 1;
  return next;
}

void Sm::prefetch() const {
  // From the first member stored in the object (config_ is a reference: its address is the
  // referent's, elsewhere in memory) to the end of the ready cycles. Only addresses: nothing
  // here may wait for a load.
  const char* hot = reinterpret_cast<const char*>(&id_);
  const char* end = reinterpret_cast<const char*>(&ready_at_) + sizeof(ready_at_);
  for (; hot < end; hot += 64) __builtin_prefetch(hot);
}

void Sm::prefetch_deep() const {
  // The hot members are loaded by now: follow them to the pipeline, and to the warps due at this
  // tick: their state and their next two instructions (the second is evaluated right after the
  // first issues). Warps interleave, so the trace is cold memory by the time a warp is due.
  // The pipeline's own lines first (addresses only), followed to its ports after the warps.
  __builtin_prefetch(pipeline_);
  __builtin_prefetch(reinterpret_cast<const char*>(pipeline_) + 64);
  const Cycle now = current_cycle();
  for (int s = 0; s < smsps_; ++s) {
    if (smsp_next_[static_cast<std::size_t>(s)] > now) continue;
    for (WarpMask m = smsp_warps_[static_cast<std::size_t>(s)]; m != 0; m &= m - 1) {
      const auto slot = static_cast<std::size_t>(std::countr_zero(m));
      if (ready_at_[slot] > now) continue;
      const traces::WarpInstruction* next = next_code_[slot];
      __builtin_prefetch(next);
      __builtin_prefetch(next + 1);
      const char* w = reinterpret_cast<const char*>(&warps_[slot]);
      __builtin_prefetch(w);
      __builtin_prefetch(w + 64);
    }
  }
  if (pipeline_ != nullptr) pipeline_->prefetch();
}

bool Sm::busy() const {
  return resident_warps_ > 0 || staged_cta_count_ > 0 || (pipeline_ != nullptr && !pipeline_->idle());
}

void Sm::dump_state(std::ostream& out) const {
  out << "ctas=" << resident_ctas_ << " warps=" << resident_warps_
      << " pipeline_idle=" << (pipeline_ == nullptr || pipeline_->idle()) << '\n';
  for (std::size_t slot = 0; slot < warps_.size(); ++slot) {
    const Warp& w = warps_[slot];
    if (!w.resident) continue;
    const std::size_t n = w.length;
    out << "  warp " << slot << " cta_slot=" << w.cta_slot << " smsp=" << int{w.smsp}
        << " next=" << w.next << '/' << n;
    if (w.next < n) out << " pc=0x" << std::hex << w.code[w.next].pc << std::dec;
    out << " reason=" << stall_reason_name(w.reason) << " since=" << w.since << " ready_at="
        << (ready_at_[slot] == kSleep ? std::string("sleep") : std::to_string(ready_at_[slot]))
        << " outstanding_memory=" << w.outstanding_memory << (w.at_barrier ? " at_barrier" : "")
        << (w.finished ? " finished" : "") << '\n';
  }
}

}  // namespace warpsim::core
