#include "traces/builder.h"

#include <algorithm>
#include <utility>

#include "arch/error.h"

namespace warpsim::traces {

WarpBuilder::WarpBuilder(WarpTrace& warp, OpcodeTable& opcodes)
    : warp_(warp),
      opcodes_(opcodes),
      mask_(full_mask(warp_size(opcodes.isa()))),
      pc_step_(is_nvidia(opcodes.isa()) ? 16 : 8) {
  if (!warp_.instructions.empty()) next_pc_ = warp_.instructions.back().pc + pc_step_;
}

WarpBuilder& WarpBuilder::mask(LaneMask mask) {
  mask_ = mask;
  return *this;
}

WarpBuilder& WarpBuilder::pc(uint32_t pc) {
  next_pc_ = pc;
  return *this;
}

WarpInstruction& WarpBuilder::append(std::string_view mnemonic, std::initializer_list<Reg> dsts,
                                     std::initializer_list<Reg> srcs) {
  if (dsts.size() > kMaxDsts || srcs.size() > kMaxSrcs) {
    throw InputError("warp builder: '" + std::string(mnemonic) + "' has " +
                     std::to_string(dsts.size()) + " destinations and " +
                     std::to_string(srcs.size()) + " sources; at most 4 and 6 are allowed");
  }
  WarpInstruction inst;
  inst.opcode = opcodes_.intern(mnemonic);
  inst.pc = next_pc_;
  inst.active_mask = mask_;
  inst.num_dst = static_cast<uint8_t>(dsts.size());
  inst.num_src = static_cast<uint8_t>(srcs.size());
  std::copy(dsts.begin(), dsts.end(), inst.dst.begin());
  std::copy(srcs.begin(), srcs.end(), inst.src.begin());
  next_pc_ += pc_step_;
  warp_.instructions.push_back(inst);
  if (!warp_.line_numbers.empty()) warp_.line_numbers.push_back(0);
  return warp_.instructions.back();
}

WarpBuilder& WarpBuilder::add(std::string_view mnemonic, std::initializer_list<Reg> dsts,
                              std::initializer_list<Reg> srcs) {
  append(mnemonic, dsts, srcs);
  return *this;
}

WarpBuilder& WarpBuilder::mem(std::string_view mnemonic, std::initializer_list<Reg> dsts,
                              std::initializer_list<Reg> srcs,
                              std::span<const uint64_t> lane_addresses, uint16_t width_bytes) {
  WarpInstruction& inst = append(mnemonic, dsts, srcs);
  inst.mem_width = width_bytes != 0 ? width_bytes : opcodes_.info(inst.opcode).width_bytes;
  try {
    warp_.set_lane_addresses(inst, lane_addresses);
  } catch (...) {
    warp_.instructions.pop_back();
    if (!warp_.line_numbers.empty()) warp_.line_numbers.pop_back();
    throw;
  }
  return *this;
}

WarpBuilder& WarpBuilder::guard(Reg predicate, bool negated) {
  WarpInstruction& inst = last();
  if (predicate.kind() != RegKind::kPredicate && predicate.kind() != RegKind::kUniformPredicate) {
    throw InputError("warp builder: guard of pc " + std::to_string(inst.pc) +
                     " must be a predicate register, got " + register_name(predicate));
  }
  inst.guard = predicate;
  inst.flags = static_cast<uint8_t>(negated ? inst.flags | kInstGuardNegated
                                            : inst.flags & ~kInstGuardNegated);
  return *this;
}

WarpBuilder& WarpBuilder::imm(int64_t value) {
  WarpInstruction& inst = last();
  inst.imm = value;
  inst.flags |= kInstHasImm;
  return *this;
}

WarpBuilder& WarpBuilder::line(uint32_t line_number) {
  last();
  warp_.line_numbers.resize(warp_.instructions.size(), 0);
  warp_.line_numbers.back() = line_number;
  return *this;
}

WarpInstruction& WarpBuilder::last() {
  if (warp_.instructions.empty()) throw InternalError("warp builder: no instruction added yet");
  return warp_.instructions.back();
}

std::vector<uint64_t> strided_addresses(LaneMask mask, uint64_t base, int64_t stride_bytes) {
  std::vector<uint64_t> out;
  out.reserve(popcount(mask));
  for_each_lane(mask, [&](uint32_t lane) {
    out.push_back(base + static_cast<uint64_t>(static_cast<int64_t>(lane) * stride_bytes));
  });
  return out;
}

KernelBuilder::KernelBuilder(std::string name, Dim3 grid, Dim3 block, Isa isa)
    : KernelBuilder(std::move(name), grid, block, std::make_shared<OpcodeTable>(isa)) {}

KernelBuilder::KernelBuilder(std::string name, Dim3 grid, Dim3 block,
                             std::shared_ptr<OpcodeTable> opcodes)
    : opcodes_(std::move(opcodes)) {
  if (!opcodes_) throw InternalError("kernel builder: no opcode table");
  info_.name = std::move(name);
  info_.grid = grid;
  info_.block = block;
  info_.isa = opcodes_->isa();
  info_.opcodes = opcodes_;
}

size_t KernelBuilder::add_cta(Dim3 index) {
  if (!contains(info_.grid, index)) {
    throw InputError("kernel builder: kernel '" + info_.name + "': CTA " + to_string(index) +
                     " is outside the grid " + to_string(info_.grid));
  }
  CtaTrace& cta = ctas_.emplace_back();
  cta.reset(info_.warps_per_cta());
  cta.index = index;
  return ctas_.size() - 1;
}

CtaTrace& KernelBuilder::cta(size_t position) {
  if (position >= ctas_.size()) {
    throw InternalError("kernel builder: no CTA at position " + std::to_string(position));
  }
  return ctas_[position];
}

WarpBuilder KernelBuilder::warp(size_t position, uint32_t warp) {
  CtaTrace& c = cta(position);
  if (warp >= c.warps.size()) {
    throw InputError("kernel builder: kernel '" + info_.name + "' has " +
                     std::to_string(c.warps.size()) + " warps per CTA; no warp " +
                     std::to_string(warp));
  }
  return WarpBuilder(c.warps[warp], *opcodes_);
}

void KernelBuilder::fill_grid(
    const std::function<void(WarpBuilder&, const CtaTrace&, uint32_t)>& fn) {
  const uint64_t count = info_.cta_count();
  for (uint64_t linear = 0; linear < count; ++linear) {
    const size_t position = add_cta(index_from_linear(linear, info_.grid));
    const uint32_t warps = static_cast<uint32_t>(cta(position).warps.size());
    for (uint32_t w = 0; w < warps; ++w) {
      WarpBuilder builder = warp(position, w);
      fn(builder, cta(position), w);
    }
  }
}

KernelTrace KernelBuilder::build() && {
  info_.validate("kernel builder");
  KernelTrace trace;
  trace.info = std::move(info_);
  trace.ctas.reserve(ctas_.size());
  for (CtaTrace& cta : ctas_) trace.ctas.push_back(std::move(cta));
  ctas_.clear();
  return trace;
}

}  // namespace warpsim::traces
