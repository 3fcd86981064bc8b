#include "workloads/sass_emulator.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>
#include <string_view>

#include "arch/error.h"

namespace warpsim::workloads {
namespace {
// Word w of a lane's 64-bit value; words beyond the two it holds (wide results such as HGMMA's
// accumulators, which the emulator does not compute) read 0.
uint32_t word_of(uint64_t v, int w) { return w < 2 ? static_cast<uint32_t>(v >> (32 * w)) : 0; }
}  // namespace
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
                           MemoryReader reader) {
  auto program = std::make_shared<Program>();
  program->function = &function;
  program->dims = {context.block.x, context.block.y, context.block.z,
                   context.grid.x,  context.grid.y,  context.grid.z};
  program->reader = std::move(reader);
  program->decoded.reserve(function.instructions.size());
  int highest = -1;
  for (const SassInstruction& inst : function.instructions) {
    program->decoded.push_back(decode(inst));
    for (const Operand& op : program->decoded.back().ops) {
      for (const int r : {op.kind == Kind::kReg ? op.index : -1, op.base_reg, op.const_reg}) {
        if (r < 255) highest = std::max(highest, r);
      }
    }
  }
  // Up to four words from the highest register named (a 128-bit access), below RZ.
  program->registers = std::min(255, highest + 4);
  r_.assign(static_cast<size_t>(program->registers), {});
  const traces::Dim3 cta = context.cta;
  const uint32_t warp_in_cta = context.warp_in_cta;
  program->context = std::move(context);
  program_ = std::move(program);
  start_warp(cta, warp_in_cta);
}

void SassEmulator::start_warp(traces::Dim3 cta, uint32_t warp_in_cta) {
  cta_ = cta;
  warp_in_cta_ = warp_in_cta;
  r_known_.fill(0);
  r_known_[255] = ~0u;
  p_known_.fill(0);
  p_known_[7] = ~0u;
  p_value_[7] = ~0u;
  ur_known_ = uint64_t{1} << 63;
  ur_[63] = 0;
  up_known_ = 0x80;
  up_value_ = 0x80;
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

const SassEmulator::Decoded& SassEmulator::decoded(const SassInstruction& inst) const {
  return program_->decoded[static_cast<size_t>(&inst - program_->function->instructions.data())];
}

std::optional<uint32_t> SassEmulator::constant(int bank, uint64_t offset) const {
  if (bank != 0) return std::nullopt;
  if (offset < 24 && offset % 4 == 0) return program_->dims[offset / 4];
  const LaunchContext& context = program_->context;
  const uint64_t base = context.parameter_offset;
  if (offset >= base && offset + 4 <= base + context.parameters.size()) {
    uint32_t v;
    std::memcpy(&v, context.parameters.data() + (offset - base), 4);
    return v;
  }
  return std::nullopt;
}

SassEmulator::Vec SassEmulator::fetch(const Operand& op, bool as64) const {
  Vec out;
  switch (op.kind) {
    case Kind::kReg: {
      const auto& lo = lanes(op.index);
      out.known = r_known_[op.index];
      if (as64 && op.index < 254) {
        const auto& hi = lanes(op.index + 1);
        out.known &= r_known_[op.index + 1];
        for (int l = 0; l < 32; ++l) out.v[l] = uint64_t{hi[l]} << 32 | lo[l];
      } else {
        for (int l = 0; l < 32; ++l) out.v[l] = lo[l];
      }
      break;
    }
    case Kind::kUreg: {
      const bool known = (ur_known_ >> op.index & 1) &&
                         (!as64 || op.index >= 62 || (ur_known_ >> (op.index + 1) & 1));
      uint64_t v = ur_[op.index];
      if (as64 && op.index < 62) v |= uint64_t{ur_[op.index + 1]} << 32;
      out.v.fill(v);
      out.known = known ? ~0u : 0u;
      break;
    }
    case Kind::kImm:
      out.v.fill(as64 ? op.imm : (op.imm & 0xFFFFFFFFu));
      out.known = ~0u;
      break;
    case Kind::kConst: {
      if (op.const_reg < 0) {  // the same word for every lane
        const auto lo = constant(op.const_bank, op.imm);
        const auto hi = as64 ? constant(op.const_bank, op.imm + 4) : std::optional<uint32_t>(0);
        if (lo && hi) {
          out.v.fill(uint64_t{*hi} << 32 | *lo);
          out.known = ~0u;
        }
        break;
      }
      for (int l = 0; l < 32; ++l) {
        if (!(r_known_[op.const_reg] >> l & 1u)) continue;
        const uint64_t off = op.imm + lanes(op.const_reg)[l];
        const auto lo = constant(op.const_bank, off);
        const auto hi = as64 ? constant(op.const_bank, off + 4) : std::optional<uint32_t>(0);
        if (!lo || !hi) continue;
        out.v[l] = uint64_t{*hi} << 32 | *lo;
        out.known |= 1u << l;
      }
      break;
    }
    case Kind::kSpecial: {
      if (op.index == 99) break;
      const auto& b = program_->context.block;
      const uint32_t first = warp_in_cta_ * 32;
      for (int l = 0; l < 32; ++l) {
        const uint32_t t = first + static_cast<uint32_t>(l);
        uint32_t v = 0;
        switch (op.index) {
          case 0: v = t % b.x; break;
          case 1: v = (t / b.x) % b.y; break;
          case 2: v = t / (b.x * b.y); break;
          case 3: v = cta_.x; break;
          case 4: v = cta_.y; break;
          case 5: v = cta_.z; break;
          case 6: v = static_cast<uint32_t>(l); break;
          default: v = 0;
        }
        out.v[l] = v;
      }
      out.known = ~0u;
      break;
    }
    default:
      return out;
  }
  const uint64_t width_mask = as64 ? ~uint64_t{0} : 0xFFFFFFFFull;
  if (op.invert || op.negate) {
    for (int l = 0; l < 32; ++l) {
      uint64_t v = out.v[l];
      if (op.invert) v = ~v;
      if (op.negate) v = ~v + 1;
      out.v[l] = v & width_mask;
    }
  }
  return out;
}

void SassEmulator::fetch_pred(const Operand& op, uint32_t& value, uint32_t& known) const {
  value = 0, known = 0;
  if (op.kind == Kind::kPred) value = p_value_[op.index], known = p_known_[op.index];
  if (op.kind == Kind::kUpred) {
    value = (up_value_ >> op.index & 1) ? ~0u : 0u;
    known = (up_known_ >> op.index & 1) ? ~0u : 0u;
  }
  if (op.negate) value = ~value;
}

void SassEmulator::store(const Operand& dst, const Vec& value, uint32_t exec, int words) {
  if (dst.kind == Kind::kUreg) {
    for (int w = 0; w < words && dst.index + w < 63; ++w) {
      const int r = dst.index + w;
      const bool known = (value.known & exec) != 0 && (value.known & exec) == exec;
      const int lane = std::countr_zero(exec | 0x80000000u);
      ur_[r] = word_of(value.v[lane], w);
      ur_known_ = known ? ur_known_ | uint64_t{1} << r : ur_known_ & ~(uint64_t{1} << r);
    }
    return;
  }
  if (dst.kind != Kind::kReg) return;
  for (int w = 0; w < words && dst.index + w < program_->registers; ++w) {
    const int r = dst.index + w;
    for (int l = 0; l < 32; ++l) {
      if (exec >> l & 1u) r_[r][l] = word_of(value.v[l], w);
    }
    r_known_[r] = (r_known_[r] & ~exec) | (value.known & exec);
  }
}

void SassEmulator::store_pred(const Operand& dst, uint32_t value, uint32_t known, uint32_t exec) {
  if (dst.kind == Kind::kPred && dst.index != 7) {
    p_value_[dst.index] = (p_value_[dst.index] & ~exec) | (value & exec);
    p_known_[dst.index] = (p_known_[dst.index] & ~exec) | (known & exec);
  }
  if (dst.kind == Kind::kUpred && dst.index != 7) {
    const int lane = std::countr_zero(exec | 0x80000000u);
    const uint8_t bit = static_cast<uint8_t>(1u << dst.index);
    up_value_ = (value >> lane & 1u) ? up_value_ | bit : up_value_ & ~bit;
    up_known_ = (known >> lane & 1u) ? up_known_ | bit : up_known_ & ~bit;
  }
}

const std::array<uint32_t, 32>& SassEmulator::lanes(int index) const {
  static const std::array<uint32_t, 32> kZeros{};
  return index < program_->registers ? r_[static_cast<size_t>(index)] : kZeros;
}

std::optional<uint32_t> SassEmulator::reg(int index, int lane) const {
  if (!(r_known_[index] >> lane & 1u)) return std::nullopt;
  return lanes(index)[lane];
}

std::optional<uint32_t> SassEmulator::ureg(int index) const {
  if (!(ur_known_ >> index & 1)) return std::nullopt;
  return ur_[index];
}

traces::LaneMask SassEmulator::predicate(const SassInstruction& inst, uint32_t,
                                         traces::LaneMask active, traces::LaneMask& unknown) {
  Operand guard;
  guard.kind = inst.guard.kind() == traces::RegKind::kUniformPredicate ? Kind::kUpred : Kind::kPred;
  guard.index = inst.guard.index();
  uint32_t value, known;
  fetch_pred(guard, value, known);
  const uint32_t lanes = static_cast<uint32_t>(active);
  if ((known & lanes) != lanes) {
    const auto& assumed_predicates = program_->context.assumed_predicates;
    if (const auto assumed = assumed_predicates.find(inst.pc);
        assumed != assumed_predicates.end()) {
      return ((value & known) | (assumed->second ? ~known : 0u)) & lanes;
    }
    if (inst.base() == "BRA" || inst.base() == "EXIT") {
      throw InputError("workload model: the predicate " + traces::register_name(inst.guard) +
                       " guarding " + inst.mnemonic + " at PC " + std::to_string(inst.pc) +
                       " of " + program_->function->name +
                       " depends on values the model does not compute (floating point or "
                       "memory contents)");
    }
    unknown |= lanes & ~known;  // unknown guard on a plain instruction: every lane runs it
  }
  return value & known & lanes;
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
  Vec sum;
  sum.v.fill(mem->imm);
  sum.known = ~0u;
  const auto add = [&](Kind kind, int index, bool as64) {
    Operand base;
    base.kind = kind;
    base.index = index;
    const Vec v = fetch(base, as64);
    for (int l = 0; l < 32; ++l) sum.v[l] += v.v[l];
    sum.known &= v.known;
  };
  if (mem->base_reg >= 0) add(Kind::kReg, mem->base_reg, mem->wide);
  if (mem->base_ureg >= 0) add(Kind::kUreg, mem->base_ureg, mem->base_reg < 0);
  const uint32_t lanes = static_cast<uint32_t>(active);
  if ((sum.known & lanes) != lanes) {
    throw InputError("workload model: the address of " + inst.mnemonic + " " + inst.operands +
                     " at PC " + std::to_string(inst.pc) + " of " + program_->function->name +
                     " depends on values the model does not compute");
  }
  for (int l = 0; l < 32; ++l) {
    if (lanes >> l & 1u) out[l] = sum.v[l];
  }
}

void SassEmulator::executed(const SassInstruction& inst, uint32_t, traces::LaneMask exec) {
  const Decoded& d = decoded(inst);
  if (!d.ops.empty() && exec != 0) execute(d, static_cast<uint32_t>(exec));
}

}  // namespace warpsim::workloads
