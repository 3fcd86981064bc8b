// Writing of Accel-Sim instruction lines (see instruction_line.h).
#include <array>
#include <bit>
#include <charconv>
#include <cinttypes>
#include <cstdio>

#include "traces/accelsim/instruction_line.h"

namespace warpsim::traces::accelsim {
namespace {

void put_decimal(std::string& out, uint64_t value) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
  out += ' ';
}

void put_signed(std::string& out, int64_t value) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
  out += ' ';
}

/// `value` as hex with at least `digits` digits, optionally prefixed with 0x.
void put_hex(std::string& out, uint64_t value, int digits, bool prefix) {
  char buffer[24];
  const int n =
      std::snprintf(buffer, sizeof buffer, prefix ? "0x%0*" PRIx64 : "%0*" PRIx64, digits, value);
  out.append(buffer, static_cast<size_t>(n));
  out += ' ';
}

/// Registers as the tracer prints them: R255 rather than RZ, numeric indices throughout.
void put_register(std::string& out, Reg reg) {
  switch (reg.kind()) {
    case RegKind::kUniform:
      out += "UR";
      break;
    case RegKind::kPredicate:
      out += 'P';
      break;
    case RegKind::kUniformPredicate:
      out += "UP";
      break;
    case RegKind::kGeneral:
      out += 'R';
      break;
    default:
      out += register_name(reg);
      out += ' ';
      return;
  }
  put_decimal(out, reg.index());
}

/// Lane addresses: mode 1 when the active lanes are contiguous with a constant stride, mode 2
/// (base + popcount−1 deltas) otherwise; an all-zero mask prints "1 0x0 0".
void put_lane_addresses(std::string& out, LaneMask mask, std::span<const uint64_t> lanes) {
  if (lanes.empty()) {
    out += "1 0x0 0 ";
    return;
  }
  const LaneMask shifted = mask >> std::countr_zero(mask);
  const bool contiguous = (shifted & (shifted + 1)) == 0;
  bool strided = contiguous && lanes.size() > 1;
  const uint64_t stride = lanes.size() > 1 ? lanes[1] - lanes[0] : 0;
  for (size_t i = 1; strided && i < lanes.size(); ++i) strided = lanes[i] - lanes[i - 1] == stride;
  if (strided) {
    out += "1 ";
    put_hex(out, lanes[0], 16, true);
    put_signed(out, static_cast<int64_t>(stride));
    return;
  }
  out += "2 ";
  put_hex(out, lanes[0], 16, true);
  for (size_t i = 1; i < lanes.size(); ++i)
    put_signed(out, static_cast<int64_t>(lanes[i] - lanes[i - 1]));
}

void put_tma(std::string& out, const WarpTrace& warp, const WarpInstruction& inst,
             const InstructionExtras* extras) {
  const TmaInfo tma = extras != nullptr && extras->tma ? *extras->tma : TmaInfo{};
  put_hex(out, tma.mbarrier_address, 16, true);
  put_decimal(out, tma.multicast ? 1 : 0);
  if (tma.multicast) put_hex(out, tma.multicast_cta_mask, 1, true);
  put_decimal(out, tma.bytes);
  put_decimal(out, tma.oob_bytes);
  const std::span<const uint64_t> addresses = warp.tma_addresses(inst);
  const bool deltas = tma.address_mode == 2;
  put_decimal(out, deltas ? 2 : 0);
  put_decimal(out, addresses.size());
  for (size_t i = 0; i < addresses.size(); ++i) {
    if (!deltas || i == 0) {
      put_hex(out, addresses[i], 16, true);
    } else {
      put_signed(out, static_cast<int64_t>(addresses[i] - addresses[i - 1]));
    }
  }
}

}  // namespace

void format_instruction(const WarpTrace& warp, size_t index, const OpcodeTable& opcodes,
                        const LineFormat& format, std::string& out) {
  const WarpInstruction& inst = warp.instructions[index];
  const std::string& mnemonic = opcodes.info(inst.opcode).mnemonic;
  const InstructionExtras* extras = warp.extras_of(inst);
  const bool v6 = format.version >= 6;
  if (format.line_info)
    put_decimal(out, index < warp.line_numbers.size() ? warp.line_numbers[index] : 0);
  put_hex(out, inst.pc, 4, false);
  put_hex(out, inst.active_mask, 8, false);
  put_decimal(out, inst.num_dst);
  for (int i = 0; i < inst.num_dst; ++i) put_register(out, inst.dst[i]);
  out += mnemonic;
  out += ' ';
  put_decimal(out, inst.num_src);
  for (int i = 0; i < inst.num_src; ++i) put_register(out, inst.src[i]);
  if (v6 && has_gmma_flag(mnemonic)) put_decimal(out, inst.has(kInstGmmaCommit) ? 1 : 0);
  if (v6 && is_tma_opcode(mnemonic)) {
    put_decimal(out, inst.mem_width);
    put_tma(out, warp, inst, extras);
  } else if (inst.mem_width > 0 && inst.has_lane_addresses()) {
    put_decimal(out, inst.mem_width);
    std::span<const uint64_t> lanes = warp.lane_addresses(inst);
    std::array<uint64_t, kMaxLanes> uniform;
    if (inst.has_uniform_address() && !lanes.empty()) {
      uniform.fill(lanes.front());
      lanes = std::span<const uint64_t>(uniform.data(), popcount(inst.active_mask));
    }
    put_lane_addresses(out, inst.active_mask, lanes);
  } else {
    out += "0 ";
  }
  const bool imm2 = v6 && extras != nullptr && extras->imm2;
  const bool values = v6 && extras != nullptr && extras->has_values;
  const bool imm = inst.has(kInstHasImm) || inst.imm != 0 || imm2;
  if (imm) put_signed(out, inst.imm);
  if (imm2) put_signed(out, *extras->imm2);
  if (values) {
    out += "Val ";
    const uint32_t operands = uint32_t{inst.num_dst} + inst.num_src;
    for (uint32_t op = 0; op < operands; ++op) {
      const std::span<const uint32_t> v = warp.operand_values(inst, op, format.warp_size);
      put_decimal(out, v.size());
      for (const uint32_t value : v) put_hex(out, value, 1, true);
    }
  } else if (v6 && imm) {
    out += "NoVal ";
  }
  out += '\n';
}

}  // namespace warpsim::traces::accelsim
