// The instruction semantics of SassEmulator, executed for all 32 lanes of a warp at once: each
// operation reads its operands as lane vectors with a known-mask, computes every lane, and writes
// the lanes of the execution mask. Results of anything not modelled (floating point, conversions,
// loads without a MemoryReader) become unknown.
#include <bit>

#include "workloads/sass_emulator.h"

namespace warpsim::workloads {
namespace {

using Kind = SassEmulator::Operand::Kind;
using Op = SassEmulator::Op;
using Mod = SassEmulator::Mod;

bool is_pred(const SassEmulator::Operand& op) {
  return op.kind == Kind::kPred || op.kind == Kind::kUpred;
}

uint64_t lut3(uint64_t a, uint64_t b, uint64_t c, uint64_t lut) {
  uint64_t r = 0;
  for (uint32_t k = 0; k < 8; ++k) {
    if ((lut >> k) & 1) r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
  }
  return r & 0xFFFFFFFFu;
}

int64_t sext32(uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }

// ISETP's comparison on one lane.
bool compare(const SassEmulator::Decoded& d, uint64_t a, uint64_t b) {
  const bool u = d.has(Mod::kU32);
  const int64_t x = u ? static_cast<int64_t>(a & 0xFFFFFFFFu) : sext32(a);
  const int64_t y = u ? static_cast<int64_t>(b & 0xFFFFFFFFu) : sext32(b);
  if (d.has(Mod::kLt)) return x < y;
  if (d.has(Mod::kLe)) return x <= y;
  if (d.has(Mod::kGt)) return x > y;
  if (d.has(Mod::kGe)) return x >= y;
  if (d.has(Mod::kEq)) return x == y;
  return x != y;
}

uint32_t combine(const SassEmulator::Decoded& d, uint32_t r, uint32_t c) {
  if (d.has(Mod::kOr)) return r | c;
  if (d.has(Mod::kXor)) return r ^ c;
  return r & c;
}

}  // namespace

void SassEmulator::execute(const Decoded& d, uint32_t exec) {
  const auto& ops = d.ops;
  const size_t fs = d.first_src;
  const auto src = [&](size_t k, bool as64 = false) {
    return fs + k < ops.size() ? fetch(ops[fs + k], as64) : Vec{};
  };
  const auto src_pred = [&](size_t k, uint32_t& value, uint32_t& known) {
    value = 0, known = 0;
    if (fs + k < ops.size()) fetch_pred(ops[fs + k], value, known);
  };
  const Operand& dst = ops[0];
  const int words = d.has(Mod::kW128) ? 4 : (d.has(Mod::kW64) || d.has(Mod::kWide)) ? 2 : 1;
  const auto carry_out = [&](size_t which, uint32_t value, uint32_t known) {
    if (1 + which < fs) store_pred(ops[1 + which], value, known, exec);
  };
  Vec r;
  switch (d.op) {
    case Op::kMov:
      store(dst, src(0), exec, 1);
      return;
    case Op::kS2r:
    case Op::kCs2r:
      store(dst, src(0), exec, d.op == Op::kCs2r ? 2 : 1);
      return;
    case Op::kLdc:
      store(dst, src(0, words > 1), exec, words);
      return;
    case Op::kImad: {
      const bool wide = d.has(Mod::kWide), u = d.has(Mod::kU32), hi = d.has(Mod::kHi);
      const Vec a = src(0), b = src(1), c = src(2, wide);
      uint32_t cin = 0, cin_known = ~0u;
      if (d.has(Mod::kX)) src_pred(3, cin, cin_known);
      r.known = a.known & b.known & c.known & cin_known;
      for (int l = 0; l < 32; ++l) {
        const uint64_t x = u ? (a.v[l] & 0xFFFFFFFFu) : static_cast<uint64_t>(sext32(a.v[l]));
        const uint64_t y = u ? (b.v[l] & 0xFFFFFFFFu) : static_cast<uint64_t>(sext32(b.v[l]));
        uint64_t v;
        if (hi && !wide) {
          const __int128 p = u ? static_cast<__int128>(x) * static_cast<__int128>(y)
                               : static_cast<__int128>(sext32(a.v[l])) * sext32(b.v[l]);
          v = static_cast<uint64_t>(p >> 32) + c.v[l];
        } else {
          v = x * y + c.v[l];
        }
        r.v[l] = v + (cin >> l & 1u);
      }
      store(dst, r, exec, wide ? 2 : 1);
      return;
    }
    case Op::kIadd3:
    case Op::kIadd: {
      const Vec a = src(0), b = src(1);
      const Vec c = d.op == Op::kIadd3 ? src(2) : Vec{{}, ~0u};
      r.known = a.known & b.known & c.known;
      uint32_t cin[2] = {0, 0};
      if (d.has(Mod::kX)) {
        for (size_t k = 0; k < 2; ++k) {
          uint32_t known = ~0u;
          if (fs + 3 + k < ops.size()) src_pred(3 + k, cin[k], known);
          r.known &= known;
        }
      }
      uint32_t c0 = 0, c1 = 0;
      for (int l = 0; l < 32; ++l) {
        const uint64_t sum = (a.v[l] & 0xFFFFFFFFu) + (b.v[l] & 0xFFFFFFFFu) +
                             (c.v[l] & 0xFFFFFFFFu) + (cin[0] >> l & 1u) + (cin[1] >> l & 1u);
        r.v[l] = sum & 0xFFFFFFFFu;
        c0 |= static_cast<uint32_t>((sum >> 32) & 1) << l;
        c1 |= static_cast<uint32_t>((sum >> 33) & 1) << l;
      }
      store(dst, r, exec, 1);
      carry_out(0, c0, r.known);
      carry_out(1, c1, r.known);
      return;
    }
    case Op::kLop3: {
      // "LOP3.LUT Rd, a, b, c, lut, Pin" or, with a predicate result, "LOP3.LUT Pd, Rd, a, …".
      const bool pred_form = is_pred(dst);
      const size_t s0 = pred_form ? 2 : fs;
      const auto at = [&](size_t k) { return s0 + k < ops.size() ? fetch(ops[s0 + k], false) : Vec{}; };
      const Vec a = at(0), b = at(1), c = at(2), lut = at(3);
      r.known = a.known & b.known & c.known & lut.known;
      uint32_t nonzero = 0;
      for (int l = 0; l < 32; ++l) {
        r.v[l] = lut3(a.v[l], b.v[l], c.v[l], lut.v[l]);
        nonzero |= (r.v[l] != 0 ? 1u : 0u) << l;
      }
      store(pred_form && ops.size() > 1 ? ops[1] : dst, r, exec, 1);
      if (pred_form) store_pred(dst, nonzero, r.known, exec);
      return;
    }
    case Op::kPlop3: {
      if (ops.size() < 7) break;
      uint32_t v[3], k[3];
      for (int i = 0; i < 3; ++i) fetch_pred(ops[2 + i], v[i], k[i]);
      const Vec l1 = fetch(ops[5], false), l2 = fetch(ops[6], false);
      const uint32_t known = k[0] & k[1] & k[2] & l1.known & l2.known;
      uint32_t out1 = 0, out2 = 0;
      for (int l = 0; l < 32; ++l) {
        const uint32_t idx = ((v[0] >> l & 1u) << 2) | ((v[1] >> l & 1u) << 1) | (v[2] >> l & 1u);
        out1 |= static_cast<uint32_t>((l1.v[l] >> idx) & 1) << l;
        out2 |= static_cast<uint32_t>((l2.v[l] >> idx) & 1) << l;
      }
      store_pred(ops[0], out1, known, exec);
      store_pred(ops[1], out2, known, exec);
      return;
    }
    case Op::kShf: {
      const Vec a = src(0), sh = src(1), c = src(2);
      r.known = a.known & sh.known & c.known;
      const bool is64 = d.has(Mod::kU64) || d.has(Mod::kS64);
      const bool arith = d.has(Mod::kS32) || d.has(Mod::kS64);
      for (int l = 0; l < 32; ++l) {
        const uint64_t funnel = (c.v[l] << 32) | (a.v[l] & 0xFFFFFFFFu);
        const uint32_t n = std::min<uint32_t>(static_cast<uint32_t>(sh.v[l]) & 63, is64 ? 63 : 32);
        uint64_t v;
        if (d.has(Mod::kL)) {
          v = funnel << n;
        } else {
          v = arith ? static_cast<uint64_t>(static_cast<int64_t>(funnel) >> n) : funnel >> n;
        }
        r.v[l] = d.has(Mod::kHi) ? (v >> 32) & 0xFFFFFFFFu : v & 0xFFFFFFFFu;
      }
      store(dst, r, exec, 1);
      return;
    }
    case Op::kLea: {
      const bool hi = d.has(Mod::kHi), sx = d.has(Mod::kSx32);
      const Vec a = src(0), b = src(1);
      const Vec c = hi && !sx ? src(2) : Vec{{}, ~0u};
      const Vec sh = src(hi && !sx ? 3 : 2);
      uint32_t cin = 0, cin_known = ~0u;
      if (d.has(Mod::kX)) src_pred(hi && !sx ? 4 : 3, cin, cin_known);
      r.known = a.known & b.known & c.known & sh.known & cin_known;
      uint32_t carry = 0;
      for (int l = 0; l < 32; ++l) {
        const uint64_t high = sx ? static_cast<uint64_t>(sext32(a.v[l])) >> 32 : c.v[l];
        const uint64_t funnel = (high << 32) | (a.v[l] & 0xFFFFFFFFu);
        const uint32_t n = static_cast<uint32_t>(sh.v[l]) & 31;
        const uint64_t part = hi ? ((funnel << n) >> 32) & 0xFFFFFFFFu : (funnel << n) & 0xFFFFFFFFu;
        const uint64_t sum = part + (b.v[l] & 0xFFFFFFFFu) + (cin >> l & 1u);
        r.v[l] = sum & 0xFFFFFFFFu;
        carry |= static_cast<uint32_t>((sum >> 32) & 1) << l;
      }
      store(dst, r, exec, 1);
      carry_out(0, carry, r.known);
      return;
    }
    case Op::kIsetp: {
      if (ops.size() < 4) break;
      if (d.has(Mod::kEx)) {
        store_pred(ops[0], 0, 0, exec);
        store_pred(ops[1], 0, 0, exec);
        return;
      }
      const Vec a = fetch(ops[2], false), b = fetch(ops[3], false);
      uint32_t cv = ~0u, ck = ~0u;
      if (ops.size() > 4) fetch_pred(ops[4], cv, ck);
      uint32_t res = 0;
      for (int l = 0; l < 32; ++l) res |= (compare(d, a.v[l], b.v[l]) ? 1u : 0u) << l;
      const uint32_t known = a.known & b.known & ck;
      store_pred(ops[0], combine(d, res, cv), known, exec);
      store_pred(ops[1], combine(d, ~res, cv), known, exec);
      return;
    }
    case Op::kSel: {
      if (ops.size() < 4) break;
      const Vec a = fetch(ops[1], false), b = fetch(ops[2], false);
      uint32_t p, pk;
      fetch_pred(ops[3], p, pk);
      for (int l = 0; l < 32; ++l) r.v[l] = (p >> l & 1u) ? a.v[l] : b.v[l];
      r.known = pk & ((p & a.known) | (~p & b.known));
      store(dst, r, exec, 1);
      return;
    }
    case Op::kImnmx: {
      const Vec a = src(0), b = src(1);
      uint32_t p, pk;
      fetch_pred(ops.back(), p, pk);
      const bool u = d.has(Mod::kU32);
      for (int l = 0; l < 32; ++l) {
        const int64_t x = u ? static_cast<int64_t>(a.v[l] & 0xFFFFFFFFu) : sext32(a.v[l]);
        const int64_t y = u ? static_cast<int64_t>(b.v[l] & 0xFFFFFFFFu) : sext32(b.v[l]);
        r.v[l] = static_cast<uint64_t>((p >> l & 1u) ? std::min(x, y) : std::max(x, y)) &
                 0xFFFFFFFFu;
      }
      r.known = a.known & b.known & pk;
      store(dst, r, exec, 1);
      return;
    }
    case Op::kIabs:
    case Op::kPopc: {
      const Vec a = src(0);
      for (int l = 0; l < 32; ++l) {
        r.v[l] = d.op == Op::kPopc ? std::popcount(static_cast<uint32_t>(a.v[l]))
                                   : static_cast<uint64_t>(std::abs(sext32(a.v[l]))) & 0xFFFFFFFFu;
      }
      r.known = a.known;
      store(dst, r, exec, 1);
      return;
    }
    case Op::kLdg: {
      const Operand& mem = ops.back();
      if (!program_->reader || words != 1 || mem.kind != Kind::kMem || mem.base_reg < 0) break;
      Operand base;
      base.kind = Kind::kReg;
      base.index = mem.base_reg;
      const Vec address = fetch(base, mem.wide);
      for (int l = 0; l < 32; ++l) {
        if (!((exec & address.known) >> l & 1u)) continue;
        if (const auto word = program_->reader(address.v[l] + mem.imm)) {
          r.v[l] = *word;
          r.known |= 1u << l;
        }
      }
      store(dst, r, exec, 1);
      return;
    }
    case Op::kVote: {  // VOTE.ANY Rd, Pd, Ps: the ballot of Ps over the executing lanes
      uint32_t p, pk;
      fetch_pred(ops.back(), p, pk);
      const bool known = (pk & exec) == exec;
      const uint32_t ballot = p & exec;
      const bool result = d.has(Mod::kAll) ? ballot == exec : ballot != 0;
      r.v.fill(ballot);
      r.known = known ? ~0u : 0u;
      for (size_t k = 0; k + 1 < ops.size(); ++k) {
        if (is_pred(ops[k])) store_pred(ops[k], result ? ~0u : 0u, r.known, exec);
        else store(ops[k], r, exec, 1);
      }
      return;
    }
    case Op::kShfl: {  // SHFL.mode Pd, Rd, Ra, b, c
      if (ops.size() < 4) break;
      const Vec a = fetch(ops[2], false), b = fetch(ops[3], false);
      uint32_t valid = 0;
      for (int l = 0; l < 32; ++l) {
        const int k = static_cast<int>(b.v[l] & 31);
        int from = l;
        if (d.has(Mod::kDown)) from = l + k;
        if (d.has(Mod::kUp)) from = l - k;
        if (d.has(Mod::kBfly)) from = l ^ k;
        if (d.has(Mod::kIdx)) from = k;
        const bool ok = from >= 0 && from < 32 && (exec >> from & 1u);
        const int take = ok ? from : l;
        r.v[l] = a.v[take];
        r.known |= ((a.known >> take & 1u) & (b.known >> l & 1u)) << l;
        valid |= (ok ? 1u : 0u) << l;
      }
      store(ops[1], r, exec, 1);
      store_pred(ops[0], valid, b.known, exec);
      return;
    }
    default:
      break;
  }
  // Not modelled: every destination (the first operand and predicate outputs) becomes unknown.
  for (size_t k = 0; k < fs && k < ops.size(); ++k) {
    if (is_pred(ops[k])) store_pred(ops[k], 0, 0, exec);
    else store(ops[k], Vec{}, exec, words);
  }
}

}  // namespace warpsim::workloads
