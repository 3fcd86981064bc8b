#include "traces/isa/cdna_table.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace warpsim::traces {
namespace {

using arch::OpClass;
using MS = MemSpace;
using AK = AccessKind;

enum class Match : uint8_t { kExact, kPrefix };

/// One rule: the mnemonic equals (kExact) or starts with (kPrefix) `pattern` and, when `contains`
/// is not empty, also contains it. The first matching rule decides.
struct CdnaRule {
  Match match;
  std::string_view pattern;
  std::string_view contains;
  OpClass op_class;
  MemSpace space;
  AccessKind access;
  uint8_t flags;
};

constexpr uint8_t kUni = kOpUniform;
// A shared-memory read-modify-write: kAtomic with "_rtn" in its name, kReduction without.
constexpr uint8_t kRtnRule = 0x80;

// clang-format off
constexpr CdnaRule kRules[] = {
    // Exact names.
    {Match::kExact, "s_endpgm", "", arch::EXIT, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_barrier", "", arch::BARRIER, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_nop", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_sleep", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_setprio", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_sethalt", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_trap", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_sendmsg", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_sendmsghalt", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_icache_inv", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_memtime", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_memrealtime", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_ttracedata", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_branch", "", arch::BRANCH, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_setpc_b64", "", arch::BRANCH, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_swappc_b64", "", arch::BRANCH, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "s_call_b64", "", arch::BRANCH, MS::kNone, AK::kNone, kUni},
    {Match::kExact, "ds_swizzle_b32", "", arch::SHUFFLE, MS::kNone, AK::kNone, 0},
    {Match::kExact, "ds_bpermute_b32", "", arch::SHUFFLE, MS::kNone, AK::kNone, 0},
    {Match::kExact, "ds_permute_b32", "", arch::SHUFFLE, MS::kNone, AK::kNone, 0},
    {Match::kExact, "ds_nop", "", arch::CONTROL, MS::kNone, AK::kNone, 0},
    {Match::kExact, "v_readlane_b32", "", arch::SHUFFLE, MS::kNone, AK::kNone, 0},
    {Match::kExact, "v_readfirstlane_b32", "", arch::SHUFFLE, MS::kNone, AK::kNone, 0},
    {Match::kExact, "v_writelane_b32", "", arch::SHUFFLE, MS::kNone, AK::kNone, 0},
    {Match::kExact, "v_nop", "", arch::CONTROL, MS::kNone, AK::kNone, 0},
    {Match::kExact, "buffer_wbl2", "", arch::CONTROL, MS::kNone, AK::kNone, 0},
    {Match::kExact, "buffer_inv", "", arch::CONTROL, MS::kNone, AK::kNone, 0},
    {Match::kExact, "buffer_wbinvl1", "", arch::CONTROL, MS::kNone, AK::kNone, 0},
    {Match::kExact, "buffer_wbinvl1_vol", "", arch::CONTROL, MS::kNone, AK::kNone, 0},
    // Scalar unit.
    {Match::kPrefix, "s_waitcnt", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kPrefix, "s_cbranch_", "", arch::BRANCH, MS::kNone, AK::kNone, kUni},
    {Match::kPrefix, "s_load_", "", arch::LOAD_STORE, MS::kConstant, AK::kLoad, kUni},
    {Match::kPrefix, "s_buffer_load_", "", arch::LOAD_STORE, MS::kConstant, AK::kLoad, kUni},
    {Match::kPrefix, "s_store_", "", arch::LOAD_STORE, MS::kGlobal, AK::kStore, kUni},
    {Match::kPrefix, "s_buffer_store_", "", arch::LOAD_STORE, MS::kGlobal, AK::kStore, kUni},
    {Match::kPrefix, "s_scratch_load_", "", arch::LOAD_STORE, MS::kLocal, AK::kLoad, kUni},
    {Match::kPrefix, "s_scratch_store_", "", arch::LOAD_STORE, MS::kLocal, AK::kStore, kUni},
    {Match::kPrefix, "s_atomic_", "", arch::LOAD_STORE, MS::kGlobal, AK::kAtomic, kUni},
    {Match::kPrefix, "s_buffer_atomic_", "", arch::LOAD_STORE, MS::kGlobal, AK::kAtomic, kUni},
    {Match::kPrefix, "s_dcache_", "", arch::CONTROL, MS::kNone, AK::kNone, kUni},
    {Match::kPrefix, "s_", "", arch::UNIFORM, MS::kNone, AK::kNone, kUni},
    // Vector ALU: matrix cores, conversions, transcendentals, then by operand type.
    {Match::kPrefix, "v_mfma_", "", arch::TENSOR, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_smfmac_", "", arch::TENSOR, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_cvt_", "", arch::CONVERSION, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_exp_", "", arch::SFU, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_log_", "", arch::SFU, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_rcp_", "", arch::SFU, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_rsq_", "", arch::SFU, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_sqrt_", "", arch::SFU, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_sin_", "", arch::SFU, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_cos_", "", arch::SFU, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_", "_dpp", arch::SHUFFLE, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_accvgpr_", "", arch::INT, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_", "_f64", arch::FP64, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_pk_", "_f32", arch::FP32, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_pk_", "", arch::FP16, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_", "f16", arch::FP16, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_", "_f32", arch::FP32, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "v_", "", arch::INT, MS::kNone, AK::kNone, 0},
    // LDS (shared memory).
    {Match::kPrefix, "ds_read", "", arch::LOAD_STORE, MS::kShared, AK::kLoad, 0},
    {Match::kPrefix, "ds_load", "", arch::LOAD_STORE, MS::kShared, AK::kLoad, 0},
    {Match::kPrefix, "ds_write", "", arch::LOAD_STORE, MS::kShared, AK::kStore, 0},
    {Match::kPrefix, "ds_store", "", arch::LOAD_STORE, MS::kShared, AK::kStore, 0},
    {Match::kPrefix, "ds_gws_", "", arch::BARRIER, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "ds_", "", arch::LOAD_STORE, MS::kShared, AK::kAtomic, kRtnRule},
    // Vector memory.
    {Match::kPrefix, "global_load_lds_", "", arch::LOAD_STORE, MS::kGlobalToShared, AK::kLoad, kOpAsync},
    {Match::kPrefix, "global_load", "", arch::LOAD_STORE, MS::kGlobal, AK::kLoad, 0},
    {Match::kPrefix, "global_store", "", arch::LOAD_STORE, MS::kGlobal, AK::kStore, 0},
    {Match::kPrefix, "global_atomic_", "", arch::LOAD_STORE, MS::kGlobal, AK::kAtomic, 0},
    {Match::kPrefix, "buffer_load", "", arch::LOAD_STORE, MS::kGlobal, AK::kLoad, 0},
    {Match::kPrefix, "buffer_store", "", arch::LOAD_STORE, MS::kGlobal, AK::kStore, 0},
    {Match::kPrefix, "buffer_atomic_", "", arch::LOAD_STORE, MS::kGlobal, AK::kAtomic, 0},
    {Match::kPrefix, "flat_load", "", arch::LOAD_STORE, MS::kGeneric, AK::kLoad, 0},
    {Match::kPrefix, "flat_store", "", arch::LOAD_STORE, MS::kGeneric, AK::kStore, 0},
    {Match::kPrefix, "flat_atomic_", "", arch::LOAD_STORE, MS::kGeneric, AK::kAtomic, 0},
    {Match::kPrefix, "scratch_load", "", arch::LOAD_STORE, MS::kLocal, AK::kLoad, 0},
    {Match::kPrefix, "scratch_store", "", arch::LOAD_STORE, MS::kLocal, AK::kStore, 0},
    // Image (texture) instructions.
    {Match::kPrefix, "image_get_resinfo", "", arch::TEXTURE, MS::kNone, AK::kNone, 0},
    {Match::kPrefix, "image_store", "", arch::TEXTURE, MS::kTexture, AK::kStore, 0},
    {Match::kPrefix, "image_atomic_", "", arch::TEXTURE, MS::kTexture, AK::kAtomic, 0},
    {Match::kPrefix, "image_", "", arch::TEXTURE, MS::kTexture, AK::kLoad, 0},
};

/// Size tags ('_'-separated tokens) and the bytes per lane they mean; the first one wins.
constexpr std::pair<std::string_view, uint16_t> kSizeTags[] = {
    {"dword", 4}, {"dwordx2", 8}, {"dwordx3", 12}, {"dwordx4", 16}, {"dwordx8", 32},
    {"dwordx16", 64}, {"byte", 1}, {"ubyte", 1}, {"sbyte", 1}, {"short", 2}, {"ushort", 2},
    {"sshort", 2}, {"b8", 1}, {"u8", 1}, {"i8", 1}, {"b16", 2}, {"u16", 2}, {"i16", 2},
    {"b32", 4}, {"u32", 4}, {"i32", 4}, {"f32", 4}, {"x2", 8}, {"b64", 8}, {"u64", 8},
    {"i64", 8}, {"f64", 8}, {"b96", 12}, {"b128", 16},
};
/// Tokens that move two elements per lane (ds_read2_b32 moves 8 bytes).
constexpr std::string_view kPairTags[] = {"read2", "write2", "read2st64", "write2st64"};
// clang-format on

constexpr uint16_t kDefaultWidth = 4;

bool matches(const CdnaRule& rule, std::string_view name) {
  const bool head =
      rule.match == Match::kExact ? name == rule.pattern : name.starts_with(rule.pattern);
  return head && (rule.contains.empty() || name.find(rule.contains) != std::string_view::npos);
}

uint16_t width_from_tags(std::string_view name) {
  uint16_t width = 0;
  uint16_t multiplier = 1;
  size_t start = 0;
  while (start <= name.size()) {
    const size_t end = std::min(name.find('_', start), name.size());
    const std::string_view token = name.substr(start, end - start);
    for (std::string_view pair : kPairTags) {
      if (token == pair) multiplier = 2;
    }
    if (width == 0) {
      for (const auto& [tag, bytes] : kSizeTags) {
        if (token == tag) {
          width = bytes;
          break;
        }
      }
    }
    start = end + 1;
  }
  return static_cast<uint16_t>((width == 0 ? kDefaultWidth : width) * multiplier);
}

}  // namespace

OpcodeInfo classify_cdna(std::string_view mnemonic) {
  OpcodeInfo info;
  info.mnemonic = std::string(mnemonic);
  std::string name(mnemonic);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  info.base = name;
  for (const CdnaRule& rule : kRules) {
    if (!matches(rule, name)) continue;
    info.known = true;
    info.op_class = rule.op_class;
    info.space = rule.space;
    info.access = rule.access;
    info.flags = rule.flags & ~kRtnRule;
    info.isas = isa_bit(Isa::kGfx942);
    if ((rule.flags & kRtnRule) && name.find("_rtn") == std::string::npos) {
      info.access = AccessKind::kReduction;
    }
    if (info.space != MemSpace::kNone) info.width_bytes = width_from_tags(name);
    break;
  }
  return info;
}

}  // namespace warpsim::traces
