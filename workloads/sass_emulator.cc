#include "workloads/sass_emulator.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <string_view>

#include "arch/error.h"

namespace warpsim::workloads {
namespace {

using Operand = SassEmulator::Operand;
using Kind = Operand::Kind;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<uint64_t> parse_int(std::string_view s) {
  bool neg = false;
  if (s.starts_with('-')) neg = true, s.remove_prefix(1);
  int base = 10;
  if (s.starts_with("0x")) base = 16, s.remove_prefix(2);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return neg ? ~v + 1 : v;
}

// Register index of "R12" / "UR4" / "P0" / "UP1" (RZ 255, URZ 63, PT/UPT 7), with its kind.
bool parse_reg(std::string_view token, Operand& op) {
  const auto dot = token.find('.');
  const std::string_view name = token.substr(0, dot);
  const auto reg = traces::parse_register(name);
  if (!reg) return false;
  switch (reg->kind()) {
    case traces::RegKind::kGeneral: op.kind = Kind::kReg; break;
    case traces::RegKind::kUniform: op.kind = Kind::kUreg; break;
    case traces::RegKind::kPredicate: op.kind = Kind::kPred; break;
    case traces::RegKind::kUniformPredicate: op.kind = Kind::kUpred; break;
    default: return false;
  }
  op.index = reg->index();
  op.wide = dot != std::string_view::npos && token.substr(dot).find(".64") != std::string_view::npos;
  return true;
}

int special_code(std::string_view s) {
  // SR_CgaCtaId is the CTA's rank in its cluster: 0 for launches without clusters.
  static constexpr std::string_view kNames[] = {"SR_TID.X",   "SR_TID.Y",   "SR_TID.Z",
                                                "SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z",
                                                "SR_LANEID",  "SRZ",        "SR_CgaCtaId"};
  for (int i = 0; i < 9; ++i) {
    if (s == kNames[i]) return i;
  }
  return 99;
}

// "[R2.64+0x10]", "[R3+UR4+-0x4]", "[UR4]": base registers and displacement.
void parse_memory(std::string_view inside, Operand& op) {
  op.kind = Kind::kMem;
  size_t start = 0;
  for (size_t i = 0; i <= inside.size(); ++i) {
    if (i < inside.size() && inside[i] != '+') continue;
    const std::string_view term = trim(inside.substr(start, i - start));
    start = i + 1;
    if (term.empty()) continue;
    Operand reg;
    if (parse_reg(term, reg)) {
      if (reg.kind == Kind::kReg) op.base_reg = reg.index, op.wide = reg.wide;
      if (reg.kind == Kind::kUreg) op.base_ureg = reg.index;
    } else if (const auto v = parse_int(term)) {
      op.imm += *v;
    }
  }
}

Operand decode_operand(std::string_view s) {
  Operand op;
  s = trim(s);
  while (!s.empty() && (s.front() == '-' || s.front() == '!' || s.front() == '~' ||
                        s.front() == '|')) {
    if (s.front() == '-' || s.front() == '!') op.negate = !op.negate;
    if (s.front() == '~') op.invert = true;
    s.remove_prefix(1);
  }
  while (s.ends_with('|')) s.remove_suffix(1);
  if (s.starts_with("c[")) {
    op.kind = Kind::kConst;
    const auto b1 = s.find(']');
    op.const_bank = static_cast<int>(parse_int(s.substr(2, b1 - 2)).value_or(0));
    const auto o0 = s.find('[', b1);
    const auto o1 = s.find(']', o0);
    if (o0 != std::string_view::npos && o1 != std::string_view::npos) {
      Operand inner;
      parse_memory(s.substr(o0 + 1, o1 - o0 - 1), inner);
      op.imm = inner.imm;
      op.const_reg = inner.base_reg;
    }
    return op;
  }
  if (s.starts_with("desc[")) s.remove_prefix(s.find(']') + 1);
  if (s.starts_with('[')) {
    parse_memory(s.substr(1, s.rfind(']') - 1), op);
    return op;
  }
  if (s.starts_with("SR")) {
    op.kind = Kind::kSpecial;
    op.index = special_code(s);
    return op;
  }
  if (parse_reg(s, op)) return op;
  if (const auto v = parse_int(s)) {
    op.kind = Kind::kImm;
    op.imm = op.negate ? ~*v + 1 : *v;
    op.negate = false;
  }
  return op;  // floats and anything else: kNone (unknown value)
}

}  // namespace

SassEmulator::SassEmulator(const SassFunction& function, LaunchContext context,
                           MemoryReader reader)
    : function_(function),
      context_(std::move(context)),
      reader_(std::move(reader)),
      decoded_(function.instructions.size()),
      decoded_ready_(function.instructions.size(), false) {
  start_warp(context_.cta, context_.warp_in_cta);
}

void SassEmulator::start_warp(traces::Dim3 cta, uint32_t warp_in_cta) {
  context_.cta = cta;
  context_.warp_in_cta = warp_in_cta;
  r_known_.fill(0);
  p_known_.fill(0);
  p_known_[7] = ~0u;
  p_value_[7] = ~0u;
  ur_known_.fill(false);
  up_.fill(2);
  up_[7] = 1;
}

SassEmulator::Decoded SassEmulator::decode(const SassInstruction& inst) {
  Decoded d;
  std::string_view text = inst.operands;
  int depth = 0;
  size_t start = 0;
  for (size_t k = 0; k <= text.size(); ++k) {
    if (k < text.size() && text[k] == '[') ++depth;
    if (k < text.size() && text[k] == ']') --depth;
    if (k == text.size() || (text[k] == ',' && depth == 0)) {
      if (!trim(text.substr(start, k - start)).empty()) {
        d.ops.push_back(decode_operand(text.substr(start, k - start)));
      }
      start = k + 1;
    }
  }
  d.uniform = !d.ops.empty() && (d.ops[0].kind == Kind::kUreg || d.ops[0].kind == Kind::kUpred);
  std::string_view base = inst.base();
  if (d.uniform && base.size() > 1 && base.front() == 'U' && base != "UMOV") base.remove_prefix(1);
  if (base == "UMOV") base = "MOV";
  static const std::pair<std::string_view, Op> kOps[] = {
      {"MOV", Op::kMov},     {"MOV32I", Op::kMov},   {"IMAD", Op::kImad},   {"IADD3", Op::kIadd3},
      {"VIADD", Op::kIadd},  {"IADD", Op::kIadd},    {"LOP3", Op::kLop3},   {"PLOP3", Op::kPlop3},
      {"SHF", Op::kShf},     {"LEA", Op::kLea},      {"ISETP", Op::kIsetp}, {"SEL", Op::kSel},
      {"FSEL", Op::kFsel},   {"IMNMX", Op::kImnmx},  {"VIMNMX", Op::kImnmx}, {"IABS", Op::kIabs},
      {"POPC", Op::kPopc},   {"S2R", Op::kS2r},      {"S2UR", Op::kS2r},    {"CS2R", Op::kCs2r},
      {"LDC", Op::kLdc},     {"LDG", Op::kLdg},      {"LD", Op::kLdg},      {"VOTE", Op::kVote},
      {"VOTEU", Op::kVote},  {"SHFL", Op::kShfl}};
  for (const auto& [name, op] : kOps) {
    if (base == name) d.op = op;
  }
  static const std::pair<std::string_view, Mod> kMods[] = {
      {"128", kW128}, {"64", kW64},   {"ALL", kAll},   {"BFLY", kBfly}, {"DOWN", kDown},
      {"EQ", kEq},    {"EX", kEx},    {"GE", kGe},     {"GT", kGt},     {"HI", kHi},
      {"IDX", kIdx},  {"L", kL},      {"LE", kLe},     {"LT", kLt},     {"NE", kNe},
      {"OR", kOr},    {"S32", kS32},  {"S64", kS64},   {"SX32", kSx32}, {"U32", kU32},
      {"U64", kU64},  {"UP", kUp},    {"WIDE", kWide}, {"X", kX},       {"XOR", kXor}};
  std::string_view rest = inst.mnemonic;
  rest.remove_prefix(std::min(rest.size(), rest.find('.')));
  while (!rest.empty()) {
    rest.remove_prefix(1);
    const std::string_view token = rest.substr(0, rest.find('.'));
    for (const auto& [name, mod] : kMods) {
      if (token == name) d.mods |= mod;
    }
    rest.remove_prefix(token.size());
  }
  // Predicate outputs after the first destination (carry-outs, ISETP's second result).
  while (d.first_src < d.ops.size() && d.first_src <= 2 && d.op != Op::kSel &&
         d.op != Op::kFsel &&
         (d.ops[d.first_src].kind == Kind::kPred || d.ops[d.first_src].kind == Kind::kUpred) &&
         !d.ops[d.first_src].negate) {
    ++d.first_src;
  }
  return d;
}

const SassEmulator::Decoded& SassEmulator::decoded(const SassInstruction& inst) {
  const size_t i = static_cast<size_t>(&inst - function_.instructions.data());
  if (!decoded_ready_[i]) {
    decoded_[i] = decode(inst);
    decoded_ready_[i] = true;
  }
  return decoded_[i];
}

uint32_t SassEmulator::special(int code, int lane) const {
  const uint32_t thread = context_.warp_in_cta * 32 + static_cast<uint32_t>(lane);
  const auto& b = context_.block;
  switch (code) {
    case 0: return thread % b.x;
    case 1: return (thread / b.x) % b.y;
    case 2: return thread / (b.x * b.y);
    case 3: return context_.cta.x;
    case 4: return context_.cta.y;
    case 5: return context_.cta.z;
    case 6: return static_cast<uint32_t>(lane);
    default: return 0;
  }
}

std::optional<uint32_t> SassEmulator::constant(int bank, uint64_t offset) const {
  if (bank != 0) return std::nullopt;
  const uint32_t dims[6] = {context_.block.x, context_.block.y, context_.block.z,
                            context_.grid.x,  context_.grid.y,  context_.grid.z};
  if (offset < 24 && offset % 4 == 0) return dims[offset / 4];
  if (offset >= context_.parameter_offset &&
      offset + 4 <= context_.parameter_offset + context_.parameters.size()) {
    uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = v << 8 | context_.parameters[offset - context_.parameter_offset + k];
    return v;
  }
  return std::nullopt;
}

std::optional<uint64_t> SassEmulator::read(const Operand& op, int lane, bool as64) const {
  std::optional<uint64_t> v;
  switch (op.kind) {
    case Kind::kReg:
      if (op.index == 255) {
        v = 0;
      } else if ((r_known_[op.index] >> lane & 1u) &&
                 (!as64 || op.index == 254 || (r_known_[op.index + 1] >> lane & 1u))) {
        v = r_[op.index][lane];
        if (as64) *v |= uint64_t{op.index == 254 ? 0u : r_[op.index + 1][lane]} << 32;
      }
      break;
    case Kind::kUreg:
      if (op.index == 63) {
        v = 0;
      } else if (ur_known_[op.index] && (!as64 || ur_known_[op.index + 1])) {
        v = ur_[op.index];
        if (as64) *v |= uint64_t{ur_[op.index + 1]} << 32;
      }
      break;
    case Kind::kImm:
      v = as64 ? op.imm : (op.imm & 0xFFFFFFFFu);
      break;
    case Kind::kConst: {
      uint64_t off = op.imm;
      if (op.const_reg >= 0) {
        if (op.const_reg != 255 && !(r_known_[op.const_reg] >> lane & 1u)) return std::nullopt;
        off += op.const_reg == 255 ? 0 : r_[op.const_reg][lane];
      }
      const auto lo = constant(op.const_bank, off);
      if (!lo) return std::nullopt;
      v = *lo;
      if (as64) {
        const auto hi = constant(op.const_bank, off + 4);
        if (!hi) return std::nullopt;
        *v |= uint64_t{*hi} << 32;
      }
      break;
    }
    case Kind::kSpecial:
      if (op.index == 99) return std::nullopt;
      v = special(op.index, lane);
      break;
    default:
      return std::nullopt;
  }
  if (op.invert) *v = ~*v;
  if (op.negate) *v = ~*v + 1;
  if (!as64) *v &= 0xFFFFFFFFu;
  return v;
}

std::optional<bool> SassEmulator::read_pred(const Operand& op, int lane) const {
  uint8_t s = 2;
  if (op.kind == Kind::kPred && (p_known_[op.index] >> lane & 1u)) {
    s = (p_value_[op.index] >> lane) & 1u;
  }
  if (op.kind == Kind::kUpred) s = up_[op.index];
  if (s == 2) return std::nullopt;
  return (s == 1) != op.negate;
}

void SassEmulator::write(int reg, bool uniform, int lane, std::optional<uint64_t> value,
                         bool wide) {
  const int last = uniform ? 63 : 255;
  for (int k = 0; k < (wide ? 2 : 1); ++k) {
    const int r = reg + k;
    if (r >= last) break;
    const bool known = value.has_value();
    const uint32_t word = known ? static_cast<uint32_t>(*value >> (32 * k)) : 0;
    if (uniform) {
      ur_[r] = word, ur_known_[r] = known;
    } else {
      r_[r][lane] = word;
      r_known_[r] = known ? r_known_[r] | 1u << lane : r_known_[r] & ~(1u << lane);
    }
  }
}

void SassEmulator::write_pred(const Operand& op, int lane, std::optional<bool> value) {
  const uint32_t bit = 1u << lane;
  if (op.kind == Kind::kPred && op.index != 7) {
    p_known_[op.index] = value ? p_known_[op.index] | bit : p_known_[op.index] & ~bit;
    p_value_[op.index] = value.value_or(false) ? p_value_[op.index] | bit
                                               : p_value_[op.index] & ~bit;
  }
  if (op.kind == Kind::kUpred && op.index != 7) up_[op.index] = value ? (*value ? 1 : 0) : 2;
}

std::optional<uint32_t> SassEmulator::reg(int index, int lane) const {
  if (index == 255) return 0u;
  if (!(r_known_[index] >> lane & 1u)) return std::nullopt;
  return r_[index][lane];
}

std::optional<uint32_t> SassEmulator::ureg(int index) const {
  if (index == 63) return 0u;
  if (!ur_known_[index]) return std::nullopt;
  return ur_[index];
}

traces::LaneMask SassEmulator::predicate(const SassInstruction& inst, uint32_t,
                                         traces::LaneMask active, traces::LaneMask& unknown) {
  Operand guard;
  guard.kind = inst.guard.kind() == traces::RegKind::kUniformPredicate ? Kind::kUpred : Kind::kPred;
  guard.index = inst.guard.index();
  traces::LaneMask truth = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (!(active >> lane & 1u)) continue;
    const auto v = read_pred(guard, lane);
    if (!v) {
      if (inst.base() == "BRA" || inst.base() == "EXIT") {
        throw InputError("workload model: the predicate " + traces::register_name(inst.guard) +
                         " guarding " + inst.mnemonic + " at PC " + std::to_string(inst.pc) +
                         " of " + function_.name +
                         " depends on values the model does not compute (floating point or "
                         "memory contents)");
      }
      unknown |= 1u << lane;  // unknown guard on a plain instruction: every lane runs it
      continue;
    }
    if (*v) truth |= 1u << lane;
  }
  return truth;
}

void SassEmulator::addresses(const SassInstruction& inst, uint32_t, traces::LaneMask active,
                             std::span<uint64_t, 32> out) {
  const Decoded& d = decoded(inst);
  const Operand* mem = nullptr;
  for (const Operand& op : d.ops) {
    if (op.kind == Kind::kMem) mem = &op;
  }
  if (mem == nullptr) {
    throw InputError("workload model: no memory operand in " + inst.mnemonic + " " +
                     inst.operands + " at PC " + std::to_string(inst.pc));
  }
  for (int lane = 0; lane < 32; ++lane) {
    if (!(active >> lane & 1u)) continue;
    uint64_t a = mem->imm;
    bool known = true;
    if (mem->base_reg >= 0) {
      Operand base;
      base.kind = Kind::kReg;
      base.index = mem->base_reg;
      const auto v = read(base, lane, mem->wide);
      known = known && v.has_value();
      a += v.value_or(0);
    }
    if (mem->base_ureg >= 0) {
      Operand base;
      base.kind = Kind::kUreg;
      base.index = mem->base_ureg;
      const auto v = read(base, lane, mem->base_reg < 0);
      known = known && v.has_value();
      a += v.value_or(0);
    }
    if (!known) {
      throw InputError("workload model: the address of " + inst.mnemonic + " " + inst.operands +
                       " at PC " + std::to_string(inst.pc) + " of " + function_.name +
                       " depends on values the model does not compute");
    }
    out[lane] = a;
  }
}

}  // namespace warpsim::workloads
