// Parsing of Accel-Sim instruction lines (see instruction_line.h).
#include <array>
#include <limits>

#include "arch/error.h"
#include "traces/accelsim/instruction_line.h"

namespace warpsim::traces::accelsim {
namespace {

constexpr std::array<std::string_view, 7> kTmaOpcodes = {"UTMALDG", "UTMASTG", "UTMAPF",
                                                         "UTMAREDG", "UBLKCP", "UBLKPF",
                                                         "UBLKRED"};

uint32_t to_u32(Tokens& tokens, uint64_t value, std::string_view expected) {
  if (value > std::numeric_limits<uint32_t>::max()) tokens.fail(expected, std::to_string(value));
  return static_cast<uint32_t>(value);
}

/// Lane addresses after a non-zero MEM_WIDTH: mode, then the encoded addresses.
void parse_lane_addresses(Tokens& tokens, WarpTrace& warp, WarpInstruction& inst) {
  std::array<uint64_t, kMaxLanes> lanes{};
  const uint32_t count = popcount(inst.active_mask);
  const uint64_t mode = tokens.next_decimal("an address mode (0 list, 1 base+stride, 2 base+deltas)");
  if (mode == 0) {
    for (uint32_t i = 0; i < count; ++i) lanes[i] = tokens.next_hex("a hex lane address");
  } else if (mode == 1) {
    const uint64_t base = tokens.next_hex("a hex base address");
    const int64_t stride = tokens.next_signed("a decimal address stride");
    for (uint32_t i = 0; i < count; ++i) lanes[i] = base + static_cast<uint64_t>(stride) * i;
  } else if (mode == 2) {
    const uint64_t base = tokens.next_hex("a hex base address");
    if (count > 0) lanes[0] = base;
    for (uint32_t i = 1; i < count; ++i) {
      lanes[i] = lanes[i - 1] + static_cast<uint64_t>(
                                    tokens.next_signed("a decimal address delta (popcount-1 of them)"));
    }
  } else {
    tokens.fail("an address mode (0 list, 1 base+stride, 2 base+deltas)", std::to_string(mode));
  }
  warp.set_lane_addresses(inst, std::span<const uint64_t>(lanes.data(), count));
}

/// TMA fields after MEM_WIDTH (v6).
TmaInfo parse_tma(Tokens& tokens, WarpTrace& warp) {
  TmaInfo tma;
  tma.mbarrier_address = tokens.next_hex("a hex mbarrier address");
  const uint64_t multicast = tokens.next_decimal("a multicast flag (0 or 1)");
  if (multicast > 1) tokens.fail("a multicast flag (0 or 1)", std::to_string(multicast));
  tma.multicast = multicast == 1;
  if (tma.multicast) tma.multicast_cta_mask = tokens.next_hex("a hex multicast CTA mask");
  // One copy fills at most a CTA's shared memory (228 KB on Hopper, 256 KB of unified L1).
  constexpr uint64_t kMaxCopyBytes = 1u << 18;
  const uint64_t bytes = tokens.next_decimal("a TMA byte count");
  if (bytes > kMaxCopyBytes) {
    tokens.fail("a TMA byte count of at most 262144", std::to_string(bytes));
  }
  tma.bytes = static_cast<uint32_t>(bytes);
  tma.oob_bytes = to_u32(tokens, tokens.next_decimal("an out-of-bounds byte count"),
                         "an out-of-bounds byte count");
  const uint64_t mode = tokens.next_decimal("a TMA address mode (0 list or 2 base+deltas)");
  if (mode != 0 && mode != 2) tokens.fail("a TMA address mode (0 or 2)", std::to_string(mode));
  tma.address_mode = static_cast<uint8_t>(mode);
  const uint64_t count = tokens.next_decimal("a TMA address count");
  tma.address_offset = static_cast<uint32_t>(warp.addresses.size());
  tma.address_count = to_u32(tokens, count, "a TMA address count");
  for (uint64_t i = 0; i < count; ++i) {
    if (mode == 0 || i == 0) {
      warp.addresses.push_back(tokens.next_hex("a hex TMA address"));
    } else {
      warp.addresses.push_back(warp.addresses.back() +
                               static_cast<uint64_t>(tokens.next_signed("a TMA address delta")));
    }
  }
  return tma;
}

/// "Val" register values: per operand, 1 or warp-size values.
void parse_values(Tokens& tokens, const LineFormat& format, uint32_t operands, WarpTrace& warp,
                  InstructionExtras& extras) {
  extras.has_values = true;
  extras.values_offset = static_cast<uint32_t>(warp.values.size());
  for (uint32_t op = 0; op < operands; ++op) {
    const uint64_t n = tokens.next_decimal("a value count (1 or the warp size)");
    if (n != 1 && n != format.warp_size) {
      tokens.fail("a value count (1 or " + std::to_string(format.warp_size) + ")",
                  std::to_string(n));
    }
    if (n != 1) extras.wide_values = static_cast<uint16_t>(extras.wide_values | (1u << op));
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t value = tokens.next_hex("a hex register value");
      warp.values.push_back(to_u32(tokens, value, "a 32-bit register value"));
    }
  }
}

}  // namespace

bool has_gmma_flag(std::string_view mnemonic) { return mnemonic.find("GMMA") != std::string_view::npos; }

bool is_tma_opcode(std::string_view mnemonic) {
  const std::string_view base = mnemonic.substr(0, mnemonic.find('.'));
  for (const std::string_view tma : kTmaOpcodes) {
    if (base == tma) return true;
  }
  return false;
}

void parse_instruction(Tokens& tokens, const LineFormat& format, OpcodeTable& opcodes,
                       WarpTrace& warp) {
  WarpInstruction inst;
  uint32_t line = 0;
  if (format.line_info) line = to_u32(tokens, tokens.next_decimal("a source line number"), "a source line number");
  inst.pc = to_u32(tokens, tokens.next_hex("a hex PC"), "a 32-bit hex PC");
  const std::string_view mask_text = tokens.peek();
  inst.active_mask = tokens.next_hex("a hex active mask");
  if ((inst.active_mask & ~full_mask(format.warp_size)) != 0) {
    tokens.fail("an active mask within " + std::to_string(format.warp_size) + " lanes", mask_text);
  }
  const uint64_t dsts = tokens.next_decimal("a destination count (0-4)");
  if (dsts > kMaxDsts) tokens.fail("a destination count (0-4)", std::to_string(dsts));
  inst.num_dst = static_cast<uint8_t>(dsts);
  for (uint64_t i = 0; i < dsts; ++i) inst.dst[i] = tokens.next_register("a destination register");
  const std::string_view mnemonic = tokens.next("an opcode");
  if (!(mnemonic[0] >= 'A' && mnemonic[0] <= 'Z')) tokens.fail("an opcode", mnemonic);
  inst.opcode = opcodes.intern(mnemonic);
  const uint64_t srcs = tokens.next_decimal("a source count (0-6)");
  if (srcs > kMaxSrcs) tokens.fail("a source count (0-6)", std::to_string(srcs));
  inst.num_src = static_cast<uint8_t>(srcs);
  for (uint64_t i = 0; i < srcs; ++i) inst.src[i] = tokens.next_register("a source register");
  const bool v6 = format.version >= 6;
  if (v6 && has_gmma_flag(mnemonic)) {
    const uint64_t commit = tokens.next_decimal("a GMMA commit-group flag (0 or 1)");
    if (commit > 1) tokens.fail("a GMMA commit-group flag (0 or 1)", std::to_string(commit));
    if (commit == 1) inst.flags |= kInstGmmaCommit;
  }
  const uint64_t width = tokens.next_decimal("a memory width in bytes");
  if (width > 0xFFFF) tokens.fail("a memory width of at most 65535 bytes", std::to_string(width));
  inst.mem_width = static_cast<uint16_t>(width);
  InstructionExtras extras;
  bool need_extras = false;
  if (v6 && is_tma_opcode(mnemonic)) {
    extras.tma = parse_tma(tokens, warp);
    need_extras = true;
  } else if (width > 0) {
    parse_lane_addresses(tokens, warp, inst);
  }
  const auto at_values = [&] { return tokens.peek() == "Val" || tokens.peek() == "NoVal"; };
  if (!tokens.done() && !(v6 && at_values())) {
    inst.imm = tokens.next_signed("a decimal immediate");
    inst.flags |= kInstHasImm;
  }
  if (v6 && !tokens.done() && !at_values()) {
    extras.imm2 = tokens.next_signed("a second immediate, Val or NoVal");
    need_extras = true;
  }
  if (v6 && !tokens.done()) {
    if (tokens.next("Val or NoVal") == "Val") {
      parse_values(tokens, format, uint32_t{inst.num_dst} + inst.num_src, warp, extras);
      need_extras = true;
    }
  }
  tokens.expect_end();
  if (need_extras) {
    inst.extras = static_cast<uint32_t>(warp.extras.size());
    warp.extras.push_back(extras);
  }
  warp.instructions.push_back(inst);
  if (format.line_info) warp.line_numbers.push_back(line);
}

}  // namespace warpsim::traces::accelsim
