// The instruction semantics of SassEmulator: one function per lane for the integer and predicate
// operations, and the two warp-wide operations (VOTE, SHFL) that read other lanes.
#include <bit>

#include "workloads/sass_emulator.h"

namespace warpsim::workloads {
namespace {

using Operand = SassEmulator::Operand;
using Kind = Operand::Kind;
using Value = std::optional<uint64_t>;
using Op = SassEmulator::Op;
using Mod = SassEmulator::Mod;

bool is_pred(const Operand& op) { return op.kind == Kind::kPred || op.kind == Kind::kUpred; }

uint32_t lut3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (uint32_t k = 0; k < 8; ++k) {
    if ((lut >> k) & 1) r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
  }
  return r;
}

int64_t sext32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

std::optional<bool> compare(const SassEmulator::Decoded& d, Value a, Value b) {
  if (!a || !b) return std::nullopt;
  const bool u = d.has(Mod::kU32);
  const int64_t x = u ? static_cast<int64_t>(*a & 0xFFFFFFFFu) : sext32(*a);
  const int64_t y = u ? static_cast<int64_t>(*b & 0xFFFFFFFFu) : sext32(*b);
  if (d.has(Mod::kLt)) return x < y;
  if (d.has(Mod::kLe)) return x <= y;
  if (d.has(Mod::kGt)) return x > y;
  if (d.has(Mod::kGe)) return x >= y;
  if (d.has(Mod::kEq)) return x == y;
  if (d.has(Mod::kNe)) return x != y;
  return std::nullopt;
}

std::optional<bool> combine(const SassEmulator::Decoded& d, std::optional<bool> r,
                            std::optional<bool> c) {
  if (!r || !c) return std::nullopt;
  if (d.has(Mod::kOr)) return *r || *c;
  if (d.has(Mod::kXor)) return *r != *c;
  return *r && *c;
}

}  // namespace

void SassEmulator::executed(const SassInstruction& inst, uint32_t, traces::LaneMask exec) {
  const Decoded& d = decoded(inst);
  if (d.ops.empty() || exec == 0) return;
  const bool uniform = d.uniform;
  if (d.op == Op::kVote) {  // VOTE.ANY Rd, Pd, Ps (all lanes read)
    uint32_t ballot = 0;
    bool known = true;
    const Operand& src = d.ops.back();
    for (int lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1u)) continue;
      const auto v = read_pred(src, lane);
      known = known && v.has_value();
      if (v.value_or(false)) ballot |= 1u << lane;
    }
    const bool any = ballot != 0;
    const bool all = ballot == exec;
    for (int lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1u) && !uniform) continue;
      for (size_t k = 0; k + 1 < d.ops.size(); ++k) {
        const Operand& o = d.ops[k];
        if (o.kind == Kind::kReg || o.kind == Kind::kUreg) {
          write(o.index, o.kind == Kind::kUreg, lane, known ? Value(ballot) : Value(), false);
        } else if (is_pred(o)) {
          write_pred(o, lane, known ? std::optional<bool>(d.has(Mod::kAll) ? all : any)
                                    : std::nullopt);
        }
      }
      if (uniform) break;
    }
    return;
  }
  if (d.op == Op::kShfl) {  // SHFL.mode Pd, Rd, Ra, b, c
    if (d.ops.size() < 4) return;
    const Operand& dst = d.ops[1];
    std::array<Value, 32> src{};
    for (int lane = 0; lane < 32; ++lane) src[lane] = read(d.ops[2], lane, false);
    std::array<Value, 32> result{};
    std::array<std::optional<bool>, 32> valid{};
    for (int lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1u)) continue;
      const Value b = read(d.ops[3], lane, false);
      if (!b) continue;
      int from = lane;
      const int k = static_cast<int>(*b & 31);
      if (d.has(Mod::kDown)) from = lane + k;
      if (d.has(Mod::kUp)) from = lane - k;
      if (d.has(Mod::kBfly)) from = lane ^ k;
      if (d.has(Mod::kIdx)) from = k;
      const bool ok = from >= 0 && from < 32 && (exec >> from & 1u);
      valid[lane] = ok;
      result[lane] = ok ? src[from] : src[lane];
    }
    for (int lane = 0; lane < 32; ++lane) {
      if (!(exec >> lane & 1u)) continue;
      write(dst.index, false, lane, result[lane], false);
      write_pred(d.ops[0], lane, valid[lane]);
    }
    return;
  }
  for (int lane = 0; lane < 32; ++lane) {
    if (!(exec >> lane & 1u)) continue;
    execute_lane(d, lane);
    if (uniform) break;
  }
}

void SassEmulator::execute_lane(const Decoded& d, int lane) {
  const auto& ops = d.ops;
  const size_t first_src = d.first_src;
  const auto src = [&](size_t k, bool as64 = false) -> Value {
    return first_src + k < ops.size() ? read(ops[first_src + k], lane, as64) : Value();
  };
  const auto src_pred = [&](size_t k) -> std::optional<bool> {
    return first_src + k < ops.size() ? read_pred(ops[first_src + k], lane) : std::nullopt;
  };
  const Operand& dst = ops[0];
  const bool wide_dst = dst.wide || d.has(Mod::kW64) || d.has(Mod::kWide);
  const auto put = [&](Value v, bool wide = false) {
    if (dst.kind == Kind::kReg || dst.kind == Kind::kUreg) {
      write(dst.index, dst.kind == Kind::kUreg, lane, v, wide);
    }
  };
  const auto put_carry = [&](size_t which, std::optional<bool> v) {
    if (1 + which < first_src) write_pred(ops[1 + which], lane, v);
  };
  const auto all = [](std::initializer_list<Value> vs) {
    for (const Value& v : vs) {
      if (!v) return false;
    }
    return true;
  };

  if (d.op == Op::kMov) {
    put(src(0));
  } else if (d.op == Op::kImad) {
    const bool wide = d.has(Mod::kWide);
    const bool u = d.has(Mod::kU32);
    const Value a = src(0), b = src(1), c = src(2, wide);
    if (!all({a, b, c})) return put(Value(), wide);
    const uint64_t x = u ? (*a & 0xFFFFFFFFu) : static_cast<uint64_t>(sext32(*a));
    const uint64_t y = u ? (*b & 0xFFFFFFFFu) : static_cast<uint64_t>(sext32(*b));
    uint64_t r;
    if (wide) {
      r = x * y + *c;
    } else if (d.has(Mod::kHi)) {
      const __int128 p = u ? static_cast<__int128>(x) * static_cast<__int128>(y)
                           : static_cast<__int128>(sext32(*a)) * sext32(*b);
      r = static_cast<uint64_t>(p >> 32) + *c;
    } else {
      r = x * y + *c;
    }
    if (d.has(Mod::kX)) {
      const auto carry = src_pred(3);
      if (!carry) return put(Value(), wide);
      r += *carry ? 1 : 0;
    }
    put(r, wide);
  } else if (d.op == Op::kIadd3 || d.op == Op::kIadd) {
    const Value a = src(0), b = src(1), c = d.op == Op::kIadd3 ? src(2) : Value(0);
    if (!all({a, b, c})) return put(Value()), put_carry(0, std::nullopt);
    uint64_t r = (*a & 0xFFFFFFFFu) + (*b & 0xFFFFFFFFu) + (*c & 0xFFFFFFFFu);
    if (d.has(Mod::kX)) {
      for (size_t k = 3; k < 5; ++k) {
        const auto p = src_pred(k);
        if (first_src + k < ops.size() && !p) return put(Value());
        r += p.value_or(false) ? 1 : 0;
      }
    }
    put(r & 0xFFFFFFFFu);
    put_carry(0, (r >> 32) & 1);
    put_carry(1, (r >> 33) & 1);
  } else if (d.op == Op::kLop3) {
    // "LOP3.LUT Rd, a, b, c, lut, Pin" or, with a predicate result, "LOP3.LUT Pd, Rd, a, b, …".
    const bool pred_form = is_pred(ops[0]);
    const size_t s0 = pred_form ? 2 : first_src;
    const auto at = [&](size_t k) { return s0 + k < ops.size() ? read(ops[s0 + k], lane, false)
                                                               : Value(); };
    const Operand& rd = pred_form && ops.size() > 1 ? ops[1] : ops[0];
    const Value a = at(0), b = at(1), c = at(2), lut = at(3);
    Value r;
    if (all({a, b, c, lut})) {
      r = lut3(static_cast<uint32_t>(*a), static_cast<uint32_t>(*b), static_cast<uint32_t>(*c),
               static_cast<uint32_t>(*lut));
    }
    if (rd.kind == Kind::kReg || rd.kind == Kind::kUreg) {
      write(rd.index, rd.kind == Kind::kUreg, lane, r, false);
    }
    if (pred_form) write_pred(ops[0], lane, r ? std::optional<bool>(*r != 0) : std::nullopt);
  } else if (d.op == Op::kPlop3) {
    const auto a = read_pred(ops[2], lane), b = read_pred(ops[3], lane),
               c = read_pred(ops[4], lane);
    const Value l1 = ops.size() > 5 ? read(ops[5], lane, false) : Value();
    const Value l2 = ops.size() > 6 ? read(ops[6], lane, false) : Value();
    if (!a || !b || !c || !l1 || !l2) {
      write_pred(ops[0], lane, std::nullopt), write_pred(ops[1], lane, std::nullopt);
      return;
    }
    const uint32_t k = (*a ? 4 : 0) | (*b ? 2 : 0) | (*c ? 1 : 0);
    write_pred(ops[0], lane, ((*l1 >> k) & 1) != 0);
    write_pred(ops[1], lane, ((*l2 >> k) & 1) != 0);
  } else if (d.op == Op::kShf) {
    const Value a = src(0), sh = src(1), c = src(2);
    if (!all({a, sh, c})) return put(Value());
    const bool is64 = d.has(Mod::kU64) || d.has(Mod::kS64);
    const uint64_t funnel = (*c << 32) | (*a & 0xFFFFFFFFu);
    const uint32_t n = static_cast<uint32_t>(*sh) & 63;
    uint64_t v;
    if (d.has(Mod::kL)) {
      v = n >= 64 ? 0 : funnel << std::min<uint32_t>(n, is64 ? 63 : 32);
    } else if (d.has(Mod::kS32) || d.has(Mod::kS64)) {
      v = static_cast<uint64_t>(static_cast<int64_t>(funnel) >> std::min<uint32_t>(n, 63));
    } else {
      v = funnel >> std::min<uint32_t>(n, 63);
    }
    put(d.has(Mod::kHi) ? (v >> 32) : (v & 0xFFFFFFFFu));
  } else if (d.op == Op::kLea) {
    const bool hi = d.has(Mod::kHi);
    const bool sx = d.has(Mod::kSx32);
    const Value a = src(0), b = src(1);
    const Value c = hi && !sx ? src(2) : Value(0);
    const Value sh = src(hi && !sx ? 3 : 2);
    if (!all({a, b, c, sh})) return put(Value()), put_carry(0, std::nullopt);
    const uint64_t high = sx ? static_cast<uint64_t>(sext32(*a)) >> 32 : *c;
    const uint64_t funnel = (high << 32) | (*a & 0xFFFFFFFFu);
    const uint32_t n = static_cast<uint32_t>(*sh) & 31;
    uint64_t part = hi ? ((funnel << n) >> 32) & 0xFFFFFFFFu : (funnel << n) & 0xFFFFFFFFu;
    uint64_t r = part + (*b & 0xFFFFFFFFu);
    if (d.has(Mod::kX)) {
      const auto carry = src_pred(hi && !sx ? 4 : 3);
      if (!carry) return put(Value());
      r += *carry ? 1 : 0;
    }
    put(r & 0xFFFFFFFFu);
    put_carry(0, (r >> 32) & 1);
  } else if (d.op == Op::kIsetp) {
    if (d.has(Mod::kEx)) {
      write_pred(ops[0], lane, std::nullopt), write_pred(ops[1], lane, std::nullopt);
      return;
    }
    const auto r = compare(d, read(ops[2], lane, false), read(ops[3], lane, false));
    const auto c = ops.size() > 4 ? read_pred(ops[4], lane) : std::optional<bool>(true);
    write_pred(ops[0], lane, combine(d, r, c));
    write_pred(ops[1], lane, combine(d, r ? std::optional<bool>(!*r) : std::nullopt, c));
  } else if (d.op == Op::kSel) {
    const auto p = read_pred(ops.back(), lane);
    if (!p) return put(Value());
    put(read(ops[*p ? 1 : 2], lane, false));
  } else if (d.op == Op::kImnmx) {
    const Value a = src(0), b = src(1);
    const auto p = read_pred(ops.back(), lane);
    if (!all({a, b}) || !p) return put(Value());
    const bool u = d.has(Mod::kU32);
    const int64_t x = u ? static_cast<int64_t>(*a) : sext32(*a);
    const int64_t y = u ? static_cast<int64_t>(*b) : sext32(*b);
    put(static_cast<uint64_t>(*p ? std::min(x, y) : std::max(x, y)) & 0xFFFFFFFFu);
  } else if (d.op == Op::kIabs) {
    const Value a = src(0);
    put(a ? Value(static_cast<uint64_t>(std::abs(sext32(*a))) & 0xFFFFFFFFu) : Value());
  } else if (d.op == Op::kPopc) {
    const Value a = src(0);
    put(a ? Value(std::popcount(static_cast<uint32_t>(*a))) : Value());
  } else if (d.op == Op::kS2r || d.op == Op::kCs2r) {
    put(src(0), d.op == Op::kCs2r);
  } else if (d.op == Op::kLdc) {
    put(src(0, wide_dst), wide_dst);
  } else if (d.op == Op::kLdg && reader_ && !d.has(Mod::kW64) &&
             !d.has(Mod::kW128)) {
    Value value;
    const Operand& mem = ops.back();
    if (mem.kind == Kind::kMem && mem.base_reg >= 0) {
      Operand b;
      b.kind = Kind::kReg;
      b.index = mem.base_reg;
      if (const Value a = read(b, lane, mem.wide)) {
        if (const auto word = reader_(*a + mem.imm)) value = *word;
      }
    }
    put(value);
  } else {
    // Floating point, conversions, other loads, and anything not modelled: results unknown.
    for (size_t k = 0; k < first_src && k < ops.size(); ++k) {
      if (is_pred(ops[k])) {
        write_pred(ops[k], lane, std::nullopt);
      } else if (ops[k].kind == Kind::kReg || ops[k].kind == Kind::kUreg) {
        const bool multi = d.has(Mod::kW64) || d.has(Mod::kWide);
        const int words = d.has(Mod::kW128) ? 4 : multi ? 2 : 1;
        for (int w = 0; w < words; ++w) {
          write(ops[k].index + w, ops[k].kind == Kind::kUreg, lane, Value(), false);
        }
      }
    }
  }
}

}  // namespace warpsim::workloads
