// The SM component: CTA launch (checking a CTA against the SM's free resources and the kernel's
// opcode table, copying its trace into the slot's storage, setting up its warps), directly or
// handed over through stage_cta for the SM's next tick.
#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/core/sm.h"

namespace warpsim::core {

using engine::Cycle;

namespace {
// Trace bytes (instructions and lane addresses) of a CTA above which its buffers are given back
// once copied into the slot's storage.
constexpr std::size_t kKeptTraceBytes = 256 * 1024;
}  // namespace

bool Sm::can_accept_cta() const {
  if (!opcodes_ || resident_ctas_ >= occupancy_.ctas_per_sm) return false;
  if (std::popcount(free_warps_) < occupancy_.warps_per_cta) return false;
  const std::int64_t regs = std::int64_t{occupancy_.registers_per_warp} * occupancy_.warps_per_cta;
  return registers_used_ + regs <= config_.limits.registers_per_sm &&
         shared_used_ + occupancy_.shared_bytes_per_cta <=
             std::max<std::int64_t>(occupancy_.carveout_bytes, occupancy_.shared_bytes_per_cta);
}

int Sm::launch_cta(traces::CtaTrace& cta, Cycle cycle) {
  sync_opcodes(cta);
  return install_cta(cta, cycle);
}

namespace {
// True when a warp of `cta` comes in pieces: its warps then run from their own buffers.
bool streamed(const traces::CtaTrace& cta) {
  return std::any_of(cta.warps.begin(), cta.warps.end(),
                     [](const traces::WarpTrace& warp) { return warp.more != nullptr; });
}
}  // namespace

void Sm::stage_cta(traces::CtaTrace& cta, Cycle cycle) {
  sync_opcodes(cta);
  if (trace_arena_ != nullptr && !streamed(cta)) {
    // The arena is shared and allocates only serially: grow now the slot that install_cta will
    // take, the first free one after those the CTAs staged before this one take.
    std::size_t skip = staged_cta_count_;
    for (const auto& slot : ctas_) {
      if (slot->active) continue;
      if (skip-- == 0) {
        reserve_trace(*slot, cta);
        break;
      }
    }
  }
  if (staged_cta_count_ == staged_ctas_.size()) staged_ctas_.emplace_back();
  StagedCta& staged = staged_ctas_[staged_cta_count_++];
  std::swap(staged.cta, cta);
  staged.cycle = cycle;
}

void Sm::sync_opcodes(const traces::CtaTrace& cta) {
  if (!opcodes_) {
    throw InputError(name() + ": CTA " + traces::to_string(cta.index) +
                     " launched before start_kernel");
  }
  decoder_->sync(*opcodes_, warp_size_);
  if (counters_.inst_per_opcode.size() < opcodes_->size()) {
    counters_.inst_per_opcode.resize(opcodes_->size());
  }
}

int Sm::install_cta(traces::CtaTrace& cta, Cycle cycle) {
  if (!can_accept_cta()) {
    throw InputError(name() + ": CTA " + traces::to_string(cta.index) +
                     " launched on a full SM (dispatch exceeded the occupancy limit)");
  }
  const int warps = static_cast<int>(cta.warps.size());
  if (warps == 0 || warps > std::popcount(free_warps_)) {
    throw InputError(name() + ": CTA " + traces::to_string(cta.index) + " has " +
                     std::to_string(warps) + " warps; expected 1.." +
                     std::to_string(std::popcount(free_warps_)) + " (free warp slots)");
  }
  for (const traces::WarpTrace& warp : cta.warps) check_code(warp, 0, cta);
  const bool in_pieces = streamed(cta);
  account(cycle);
  int cta_slot = 0;
  while (ctas_[static_cast<std::size_t>(cta_slot)]->active) ++cta_slot;
  CtaSlot& c = *ctas_[static_cast<std::size_t>(cta_slot)];
  std::swap(c.trace, cta);
  c.active = true;
  c.warps = warps;
  c.remaining = warps;
  c.running = warps >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << warps) - 1;
  c.arrived.fill(0);
  c.arrival_done.fill(0);
  c.expected.fill(0);
  c.registers = std::int64_t{occupancy_.registers_per_warp} * warps;
  c.shared_bytes = occupancy_.shared_bytes_per_cta;
  registers_used_ += c.registers;
  shared_used_ += c.shared_bytes;
  c.warpgroups.resize(static_cast<std::size_t>((warps + 3) / 4));
  for (std::size_t g = 0; g < c.warpgroups.size(); ++g) {
    const int members = std::min(4, warps - static_cast<int>(g) * 4);
    c.warpgroups[g].reset(static_cast<std::uint8_t>((1u << members) - 1));
  }
  // The CTA's drawn priority (gto_drawn), from this SM's stream: the same on any thread count.
  const std::uint64_t priority = cta_draws_.next();
  for (auto& scheduler : schedulers_) scheduler->cta_priority(priority);
  // The SM sets its CTAs up one at a time: a CTA that arrives within the interval after the last
  // one started keeps its warps on no_instruction until its turn.
  Cycle start = cycle;
  if (config_.cta_launch_interval_cycles > 0) {
    start = std::max(cycle, next_cta_start_);
    next_cta_start_ = start + static_cast<Cycle>(config_.cta_launch_interval_cycles);
  }
  for (int i = 0; i < warps; ++i) {
    const int slot = std::countr_zero(free_warps_);
    free_warps_ &= ~(WarpMask{1} << slot);
    c.warp_slots[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(slot);
    Warp& w = warps_[static_cast<std::size_t>(slot)];
    throttled_warp_changed(slot, slot % smsps_);
    w = Warp{};
    w.trace = &c.trace.warps[static_cast<std::size_t>(i)];
    w.code = w.trace->instructions.data();
    w.length = static_cast<std::uint32_t>(w.trace->instructions.size());
    w.streamed = w.trace->more != nullptr;
    w.cta_slot = static_cast<std::uint32_t>(cta_slot);
    w.warp_in_cta = static_cast<std::uint32_t>(i);
    w.smsp = static_cast<std::uint8_t>(slot % smsps_);
    w.resident = true;
    const std::uint32_t first_thread = static_cast<std::uint32_t>(i * warp_size_);
    const std::uint32_t lanes = std::min<std::uint32_t>(
        static_cast<std::uint32_t>(warp_size_), threads_per_cta_ > first_thread
                                                    ? threads_per_cta_ - first_thread
                                                    : static_cast<std::uint32_t>(warp_size_));
    w.live_mask = traces::full_mask(lanes);
    w.lanes = w.trace->addresses.data();
    if (start > cycle) {
      w.hold_until = start;
      w.hold_reason = StallReason::kNoInstruction;
    }
    ready_at_[static_cast<std::size_t>(slot)] = cycle;
    smsp_next_[w.smsp] = std::min(smsp_next_[w.smsp], cycle);
    w.since = cycle;
    w.launched = cycle;
    smsp_warps_[w.smsp] |= WarpMask{1} << slot;
    schedulers_[w.smsp]->add_warp(slot);
  }
  if (trace_arena_ != nullptr && !in_pieces) copy_trace(c);
  for (int i = 0; i < warps; ++i) {
    const auto slot = static_cast<std::size_t>(c.warp_slots[static_cast<std::size_t>(i)]);
    next_code_[slot] = warps_[slot].code;
  }
  ++resident_ctas_;
  resident_warps_ += warps;
  ++counters_.ctas_launched;
  counters_.warps_launched += static_cast<std::uint64_t>(warps);
  wake_hint_ = std::min(wake_hint_, cycle);
  if (observer_ != nullptr) {
    observer_->on_cta_launch(
        {cycle, id_, cta_slot, c.trace.index, static_cast<std::uint32_t>(warps)});
  }
  return cta_slot;
}

void Sm::check_code(const traces::WarpTrace& warp, std::size_t from,
                    const traces::CtaTrace& cta) const {
  for (std::size_t i = from; i < warp.instructions.size(); ++i) {
    const traces::WarpInstruction& inst = warp.instructions[i];
    if (inst.opcode >= decoder_->size()) {
      throw InputError(name() + ": CTA " + traces::to_string(cta.index) + " warp " +
                       std::to_string(warp.warp_id) + " pc 0x" + std::to_string(inst.pc) +
                       ": opcode id " + std::to_string(inst.opcode) +
                       " is not in the kernel's opcode table (" +
                       std::to_string(decoder_->size()) + " entries)");
    }
    // Lane addresses are read from the pool (or a copy of it) without further checks.
    if (inst.has_lane_addresses()) (void)warp.lane_addresses(inst);
  }
}

void Sm::refill(Warp& w, int slot) {
  traces::WarpTrace& trace = *w.trace;
  const std::uint32_t issued = w.next;
  trace.drop_front(issued);
  const std::size_t kept = trace.instructions.size();
  if (!trace.more->append(trace)) {
    trace.more.reset();
    w.streamed = false;
  }
  check_code(trace, kept, ctas_[w.cta_slot]->trace);
  w.code = trace.instructions.data();
  w.lanes = trace.addresses.data();
  w.length = static_cast<std::uint32_t>(trace.instructions.size());
  w.next = 0;
  w.cleared = w.cleared == issued ? 0 : ~0u;  // the next instruction's dependences stay known
  next_code_[static_cast<std::size_t>(slot)] = w.code;
}

void Sm::reserve_trace(CtaSlot& c, const traces::CtaTrace& trace) {
  std::size_t code = 0;
  std::size_t lanes = 0;
  for (const traces::WarpTrace& warp : trace.warps) {
    code += warp.instructions.size();
    lanes += warp.addresses.size();
  }
  // Grown by at least half, so that a slot whose CTAs vary reallocates rarely (the arena keeps
  // what it gave out).
  if (code > c.code_capacity) {
    c.code_capacity = std::max(code, c.code_capacity + c.code_capacity / 2);
    c.code = trace_arena_->allocate_array<traces::WarpInstruction>(c.code_capacity);
  }
  if (lanes > c.lane_capacity) {
    c.lane_capacity = std::max(lanes, c.lane_capacity + c.lane_capacity / 2);
    c.lanes = trace_arena_->allocate_array<std::uint64_t>(c.lane_capacity);
  }
}

void Sm::copy_trace(CtaSlot& c) {
  reserve_trace(c, c.trace);  // a no-op after stage_cta's
  traces::WarpInstruction* code_at = c.code;
  std::uint64_t* lanes_at = c.lanes;
  for (int i = 0; i < c.warps; ++i) {
    const traces::WarpTrace& warp = c.trace.warps[static_cast<std::size_t>(i)];
    Warp& w = warps_[static_cast<std::size_t>(c.warp_slots[static_cast<std::size_t>(i)])];
    w.code = code_at;
    w.lanes = lanes_at;
    code_at = std::copy(warp.instructions.begin(), warp.instructions.end(), code_at);
    lanes_at = std::copy(warp.addresses.begin(), warp.addresses.end(), lanes_at);
  }
  // The warps now run from the slot's copy; a large CTA's own buffers are given back rather than
  // kept for the next CTA to refill, so that its trace is held once, not twice, while it runs (a
  // 2048^3 mma.sync GEMM's 4-warp CTA holds 3.5 MB; 1584 are resident). Small ones are kept: their
  // refill then allocates nothing.
  std::size_t bytes = 0;
  for (const traces::WarpTrace& warp : c.trace.warps) {
    bytes += warp.instructions.capacity() * sizeof(traces::WarpInstruction) +
             warp.addresses.capacity() * sizeof(std::uint64_t);
  }
  if (bytes > kKeptTraceBytes) {
    for (traces::WarpTrace& warp : c.trace.warps) {
      std::vector<traces::WarpInstruction>().swap(warp.instructions);
      std::vector<std::uint64_t>().swap(warp.addresses);
    }
  }
}

}  // namespace warpsim::core
