#include "workloads/sass_walker.h"

#include <array>
#include <limits>
#include <string>

#include "arch/error.h"

namespace warpsim::workloads {
namespace {

using traces::LaneMask;

enum Kind : uint8_t { kPlain, kExit, kBssy, kBsync, kBranch };

// Address of a constant-bank operand "c[0xB][0xOFF]" as bank << 32 | offset, or 0.
uint64_t constant_address(const std::string& operands) {
  const auto c = operands.find("c[");
  if (c == std::string::npos) return 0;
  const auto b1 = operands.find(']', c);
  const auto o0 = operands.find('[', b1);
  const auto o1 = operands.find(']', o0);
  if (b1 == std::string::npos || o0 == std::string::npos || o1 == std::string::npos) return 0;
  const std::string bank = operands.substr(c + 2, b1 - c - 2);
  const std::string off = operands.substr(o0 + 1, o1 - o0 - 1);
  const uint64_t b = bank.starts_with("0x") ? std::stoull(bank, nullptr, 16) : 0;
  const uint64_t o = off.starts_with("0x") ? std::stoull(off, nullptr, 16) : 0;
  return b << 32 | o;
}

}  // namespace

SassWalker::SassWalker(const SassFunction& function, traces::OpcodeTable& opcodes,
                       WalkLimits limits)
    : function_(function), limits_(limits) {
  const size_t n = function.instructions.size();
  ids_.resize(n);
  infos_.resize(n);
  targets_.assign(n, std::numeric_limits<size_t>::max());
  kinds_.assign(n, kPlain);
  constant_addresses_.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const SassInstruction& inst = function.instructions[i];
    ids_[i] = opcodes.intern(inst.mnemonic);
    infos_[i] = &opcodes.info(ids_[i]);
    constant_addresses_[i] = constant_address(inst.operands);
    const std::string_view base = inst.base();
    if (base == "EXIT") kinds_[i] = kExit;
    if (base == "BSYNC") kinds_[i] = kBsync;
    if (base == "BSSY" || (base == "BRA" && inst.branch_target)) {
      kinds_[i] = base == "BSSY" ? kBssy : kBranch;
      if (!inst.branch_target) {
        throw InputError("SASS function " + function.name + ": BSSY without a target at PC " +
                         std::to_string(inst.pc));
      }
      targets_[i] = function.index_of(*inst.branch_target);
    }
  }
}

void SassWalker::walk(LaneMask initial_mask, WarpOracle& oracle, traces::WarpTrace& warp) const {
  WalkState state;
  start(initial_mask, state);
  walk_some(state, oracle, warp, std::numeric_limits<uint64_t>::max());
}

void SassWalker::start(LaneMask initial_mask, WalkState& state) const {
  state.visits.assign(function_.instructions.size(), 0);
  state.stack.clear();
  state.active = initial_mask;
  state.index = 0;
  state.emitted = 0;
  state.done = false;
}

bool SassWalker::walk_some(WalkState& state, WarpOracle& oracle, traces::WarpTrace& warp,
                           uint64_t max_instructions) const {
  const auto fail = [&](uint32_t pc, const std::string& what) {
    throw InputError("SASS walk of " + function_.name + " at PC " + std::to_string(pc) + ": " +
                     what);
  };
  std::vector<uint32_t>& visits = state.visits;
  std::vector<WalkState::StackEntry>& stack = state.stack;
  std::array<uint64_t, 32> lane_addresses{};
  std::array<uint64_t, 32> packed{};
  LaneMask& active = state.active;
  size_t& index = state.index;
  uint64_t& emitted = state.emitted;
  uint64_t appended = 0;

  // Runs the next parked path, or continues past a BSYNC whose lanes all arrived; false when
  // the warp has nothing left to run.
  const auto resume = [&]() -> bool {
    while (!stack.empty()) {
      const WalkState::StackEntry top = stack.back();
      stack.pop_back();
      if (!top.is_barrier || top.arrived != 0) {
        active = top.is_barrier ? top.arrived : top.mask;
        index = top.resume_index;
        return true;
      }
    }
    return false;
  };

  while (!state.done) {
    if (active == 0 || index >= function_.instructions.size()) {
      if (!resume()) state.done = true;
      continue;
    }
    if (appended == max_instructions) return true;
    ++appended;
    const SassInstruction& inst = function_.instructions[index];
    const traces::OpcodeInfo& info = *infos_[index];
    const uint32_t visit = visits[index]++;
    if (++emitted > limits_.max_instructions) {
      fail(inst.pc, "more than " + std::to_string(limits_.max_instructions) +
                        " dynamic instructions in one warp (a runaway loop?)");
    }
    LaneMask exec = active;
    if (inst.guard.valid() && !inst.guard.is_zero()) {
      LaneMask unknown = 0;
      const LaneMask truth = oracle.predicate(inst, visit, active, unknown) & active;
      unknown &= active;
      exec = (inst.guard_negated ? active & ~truth & ~unknown : truth) | unknown;
    } else if (inst.guard.valid() && inst.guard_negated) {
      exec = 0;  // @!PT never executes
    }

    traces::WarpInstruction out;
    out.active_mask = exec;
    out.pc = inst.pc;
    out.opcode = ids_[index];
    out.num_dst = static_cast<uint8_t>(std::min<size_t>(inst.dsts.size(), traces::kMaxDsts));
    out.num_src = static_cast<uint8_t>(std::min<size_t>(inst.srcs.size(), traces::kMaxSrcs));
    for (size_t k = 0; k < out.num_dst; ++k) out.dst[k] = inst.dsts[k];
    for (size_t k = 0; k < out.num_src; ++k) out.src[k] = inst.srcs[k];
    out.guard = inst.guard;
    if (inst.guard_negated) out.flags |= traces::kInstGuardNegated;
    out.issue_stall = inst.control.stall_cycles;
    out.reuse = inst.control.reuse;
    if (info.is_memory()) {
      out.mem_width = info.width_bytes;
      int count = 0;
      if (info.space == traces::MemSpace::kConstant) {
        const uint64_t a = constant_addresses_[index];
        for (int lane = 0; lane < 32; ++lane) {
          if (exec >> lane & 1u) packed[count++] = a;
        }
      } else {
        if (exec != 0) oracle.addresses(inst, visit, exec, lane_addresses);
        for (int lane = 0; lane < 32; ++lane) {
          if (exec >> lane & 1u) packed[count++] = lane_addresses[lane];
        }
      }
      warp.set_lane_addresses(out, std::span<const uint64_t>(packed.data(), count));
    }
    if (const LaneMask off = active & ~exec; off != 0) warp.mutable_extras(out).predicated_off = off;
    warp.instructions.push_back(out);
    oracle.executed(inst, visit, exec);

    switch (kinds_[index]) {
      case kExit:
        active &= ~exec;
        ++index;
        break;
      case kBssy:
        stack.push_back({true, 0, targets_[index], 0});
        ++index;
        break;
      case kBsync: {
        size_t frame = stack.size();
        while (frame > 0 && !stack[frame - 1].is_barrier) --frame;
        if (frame == 0) fail(inst.pc, "BSYNC without an open BSSY");
        stack[frame - 1].arrived |= active;
        stack[frame - 1].resume_index = index + 1;
        active = 0;  // wait here: parked paths run first, then the frame releases the lanes
        break;
      }
      case kBranch: {
        const LaneMask fall = active & ~exec;
        if (exec == 0) {
          ++index;
        } else if (fall == 0) {
          index = targets_[index];
        } else {  // divergence: run the fall-through lanes, park the taken ones
          stack.push_back({false, 0, targets_[index], exec});
          active = fall;
          ++index;
        }
        break;
      }
      default:
        ++index;
    }
  }
  return false;
}

}  // namespace warpsim::workloads
