#include "sim/core/tensor_unit.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "arch/error.h"

namespace warpsim::core {
namespace {

using traces::OpcodeInfo;

struct BaseEntry {
  std::string_view base;
  MatrixOpKind kind;
  TensorType default_type;
};

constexpr BaseEntry kBases[] = {
    {"HMMA", MatrixOpKind::kWarp, TensorType::kFp16},
    {"IMMA", MatrixOpKind::kWarp, TensorType::kInt8},
    {"DMMA", MatrixOpKind::kWarp, TensorType::kFp64},
    {"BMMA", MatrixOpKind::kWarp, TensorType::kBinary},
    {"QMMA", MatrixOpKind::kWarp, TensorType::kFp8},
    {"OMMA", MatrixOpKind::kWarp, TensorType::kFp4},
    {"HGMMA", MatrixOpKind::kWarpgroup, TensorType::kFp16},
    {"IGMMA", MatrixOpKind::kWarpgroup, TensorType::kInt8},
    {"QGMMA", MatrixOpKind::kWarpgroup, TensorType::kFp8},
    {"BGMMA", MatrixOpKind::kWarpgroup, TensorType::kBinary},
    {"UTCHMMA", MatrixOpKind::kTcgen05, TensorType::kFp16},
    {"UTCIMMA", MatrixOpKind::kTcgen05, TensorType::kInt8},
    {"UTCQMMA", MatrixOpKind::kTcgen05, TensorType::kFp8},
    {"UTCOMMA", MatrixOpKind::kTcgen05, TensorType::kFp4},
};

struct TypeToken {
  std::string_view token;
  TensorType type;
  int bytes;         // element bytes when the token names an accumulator
  bool accumulator;  // may name an accumulator type
};

// Upper-case SASS and lower-case CDNA spellings.
constexpr TypeToken kTypes[] = {
    {"F16", TensorType::kFp16, 2, true},   {"BF16", TensorType::kBf16, 2, false},
    {"TF32", TensorType::kTf32, 4, false}, {"F32", TensorType::kFp32, 4, true},
    {"S32", TensorType::kInt8, 4, true},   {"F64", TensorType::kFp64, 8, true},
    {"E4M3", TensorType::kFp8, 1, false},  {"E5M2", TensorType::kFp8, 1, false},
    {"E2M3", TensorType::kFp6, 1, false},  {"E3M2", TensorType::kFp6, 1, false},
    {"E2M1", TensorType::kFp4, 1, false},  {"S8", TensorType::kInt8, 1, false},
    {"U8", TensorType::kInt8, 1, false},   {"S4", TensorType::kInt4, 1, false},
    {"U4", TensorType::kInt4, 1, false},   {"B1", TensorType::kBinary, 1, false},
    {"f16", TensorType::kFp16, 2, true},   {"bf16", TensorType::kBf16, 2, false},
    {"xf32", TensorType::kTf32, 4, false}, {"f32", TensorType::kFp32, 4, true},
    {"i32", TensorType::kInt8, 4, true},   {"f64", TensorType::kFp64, 8, true},
    {"fp8", TensorType::kFp8, 1, false},   {"bf8", TensorType::kFp8, 1, false},
    {"i8", TensorType::kInt8, 1, false},
};

const TypeToken* find_type(std::string_view token) {
  for (const TypeToken& t : kTypes) {
    if (t.token == token) return &t;
  }
  return nullptr;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string_view::npos ? s.size() - start : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return out;
}

bool read_int(std::string_view s, int& value) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && ptr == s.data() + s.size() && value > 0;
}

// "64x128x16" (optionally followed by letters, returned in `suffix`).
bool parse_mnk(std::string_view token, MatrixShape& shape, std::string_view& suffix) {
  const std::size_t x1 = token.find('x');
  if (x1 == std::string_view::npos) return false;
  const std::size_t x2 = token.find('x', x1 + 1);
  if (x2 == std::string_view::npos) return false;
  std::size_t end = x2 + 1;
  while (end < token.size() && token[end] >= '0' && token[end] <= '9') ++end;
  suffix = token.substr(end);
  return read_int(token.substr(0, x1), shape.m) &&
         read_int(token.substr(x1 + 1, x2 - x1 - 1), shape.n) &&
         read_int(token.substr(x2 + 1, end - x2 - 1), shape.k);
}

// SASS's compact "16816" (m16 n8 k16), "1688", "884", "16832".
bool parse_compact(std::string_view token, MatrixShape& shape) {
  if (token.empty() || token.find_first_not_of("0123456789") != std::string_view::npos) {
    return false;
  }
  std::string_view rest = token;
  if (rest.starts_with("16")) {
    shape.m = 16;
    rest.remove_prefix(2);
  } else if (rest.starts_with("8")) {
    shape.m = 8;
    rest.remove_prefix(1);
  } else {
    return false;
  }
  if (!rest.starts_with("8")) return false;
  shape.n = 8;
  rest.remove_prefix(1);
  return read_int(rest, shape.k);
}

int default_k(TensorType type) {
  switch (type) {
    case TensorType::kTf32:
      return 8;
    case TensorType::kFp8:
    case TensorType::kFp6:
    case TensorType::kInt8:
      return 32;
    case TensorType::kFp4:
      return 64;
    default:
      return 16;
  }
}

[[noreturn]] void bad_shape(const OpcodeInfo& info) {
  throw InputError("matrix instruction '" + info.mnemonic +
                   "': cannot read its shape; expected e.g. HMMA.16816.F32.BF16, "
                   "HGMMA.64x128x16.F32.BF16 or v_mfma_f32_32x32x8_f16");
}

// Applies the type tokens (accumulator first, input last) to `shape`.
void apply_types(const std::vector<std::string_view>& tokens, MatrixShape& shape) {
  std::vector<const TypeToken*> types;
  for (std::string_view t : tokens) {
    if (const TypeToken* type = find_type(t)) types.push_back(type);
  }
  if (types.empty()) return;
  if (types.front()->accumulator) shape.accumulator_bytes = types.front()->bytes;
  if (types.size() > 1 || !types.front()->accumulator) {
    shape.type = types.back()->type;
  } else if (types.front()->type == TensorType::kFp16 || types.front()->type == TensorType::kFp64) {
    shape.type = types.front()->type;
  }
}

std::optional<MatrixShape> parse_cdna(const OpcodeInfo& info) {
  const std::string_view name = info.mnemonic;
  if (!name.starts_with("v_mfma_") && !name.starts_with("v_smfmac_")) return std::nullopt;
  MatrixShape shape;
  shape.kind = MatrixOpKind::kMfma;
  const std::vector<std::string_view> tokens = split(name, '_');
  std::vector<std::string_view> type_tokens;
  bool found = false;
  for (std::size_t i = 2; i < tokens.size(); ++i) {
    std::string_view suffix;
    int blocks = 0;
    if (!found && parse_mnk(tokens[i], shape, suffix)) {
      found = true;
      if (!suffix.empty()) type_tokens.push_back(suffix);
    } else if (tokens[i].size() > 1 && tokens[i].back() == 'b' &&
               read_int(tokens[i].substr(0, tokens[i].size() - 1), blocks)) {
      shape.blocks = blocks;
    } else {
      type_tokens.push_back(tokens[i]);
    }
  }
  if (!found) bad_shape(info);
  shape.accumulator_bytes = 4;
  shape.type = TensorType::kFp16;
  apply_types(type_tokens, shape);
  if (tokens.size() > 2) {
    if (const TypeToken* acc = find_type(tokens[2])) shape.accumulator_bytes = acc->bytes;
  }
  return shape;
}

}  // namespace

std::optional<MatrixShape> parse_matrix_shape(const OpcodeInfo& info, const TensorConfig& config) {
  if (info.op_class != arch::TENSOR) return std::nullopt;
  if (!info.mnemonic.empty() && info.mnemonic[0] == 'v') return parse_cdna(info);
  const std::vector<std::string_view> tokens = split(info.mnemonic, '.');
  const BaseEntry* entry = nullptr;
  for (const BaseEntry& b : kBases) {
    if (b.base == tokens.front()) entry = &b;
  }
  if (entry == nullptr) return std::nullopt;
  MatrixShape shape;
  shape.kind = entry->kind;
  shape.type = entry->default_type;
  shape.accumulator_bytes = entry->default_type == TensorType::kFp64 ? 8 : 4;
  bool found = false;
  for (std::size_t i = 1; i < tokens.size() && !found; ++i) {
    std::string_view suffix;
    found =
        (parse_mnk(tokens[i], shape, suffix) && suffix.empty()) || parse_compact(tokens[i], shape);
  }
  apply_types(tokens, shape);
  if (!found) {
    if (entry->kind != MatrixOpKind::kTcgen05) bad_shape(info);
    shape.m = config.tcgen05_default_m;
    shape.n = config.tcgen05_default_n;
    shape.k = default_k(shape.type);
  }
  return shape;
}

MatrixTiming matrix_timing(const MatrixShape& shape, const SmConfig& config,
                           const OpcodeInfo& info) {
  const TensorConfig& t = config.tensor;
  const double rate = t.dense_flop_per_clk_per_sm[static_cast<std::size_t>(shape.type)];
  if (rate <= 0.0) {
    throw InputError("SM config: field 'sm.tensor.dense_flop_per_clk_per_sm[" +
                     std::string(tensor_type_name(shape.type)) + "]' is 0, but the kernel uses '" +
                     info.mnemonic + "'; expected a positive rate");
  }
  const double smsps = config.limits.sub_partitions;
  MatrixTiming timing;
  switch (shape.kind) {
    case MatrixOpKind::kWarp: {
      const double cycles = shape.flops() / (rate / smsps * t.mma_sync_fraction_of_peak);
      timing.occupancy = to_fixed(cycles);
      timing.latency_cycles =
          std::max(t.mma_sync_latency_cycles, static_cast<int>(std::ceil(cycles)));
      break;
    }
    case MatrixOpKind::kMfma: {
      const double cycles = shape.flops() / (rate / smsps);
      timing.occupancy = to_fixed(cycles);
      timing.latency_cycles = static_cast<int>(std::ceil(cycles)) + t.mfma_extra_latency_cycles;
      break;
    }
    case MatrixOpKind::kWarpgroup:
      timing.occupancy = to_fixed(shape.flops() / rate);
      timing.latency_cycles = t.wgmma_extra_latency_cycles;
      break;
    case MatrixOpKind::kTcgen05:
      timing.occupancy =
          to_fixed(std::max(shape.flops() / rate, static_cast<double>(t.tcgen05_min_cycles)));
      timing.latency_cycles = 0;
      break;
  }
  return timing;
}

void TensorTimeline::reset() { *this = TensorTimeline(); }

engine::Cycle TensorTimeline::enqueue(engine::Cycle now, FixedCycles occupancy, int extra_latency) {
  const FixedCycles start = std::max(free_, now * kFixedOne);
  free_ = start + occupancy;
  busy_ += occupancy;
  last_completion_ =
      (free_ + kFixedOne - 1) / kFixedOne + static_cast<engine::Cycle>(extra_latency);
  return last_completion_;
}

int tensor_input_bits(TensorType type) {
  switch (type) {
    case TensorType::kTf32:
    case TensorType::kFp32:
      return 32;
    case TensorType::kFp64:
      return 64;
    case TensorType::kFp8:
    case TensorType::kInt8:
      return 8;
    case TensorType::kFp6:
      return 6;
    case TensorType::kFp4:
    case TensorType::kInt4:
      return 4;
    case TensorType::kBinary:
      return 1;
    default:
      return 16;
  }
}

std::uint32_t MatrixShape::a_bytes() const {
  return static_cast<std::uint32_t>(m * k * blocks * tensor_input_bits(type) / 8);
}

std::uint32_t MatrixShape::b_bytes() const {
  return static_cast<std::uint32_t>(n * k * blocks * tensor_input_bits(type) / 8);
}

void WarpgroupState::reset(std::uint8_t member_mask) {
  issued.fill(0);
  members = member_mask;
  enqueued = 0;
}

std::uint32_t WarpgroupState::ready_count() const {
  std::uint32_t least = ~0u;
  for (int i = 0; i < 4; ++i) {
    if (((members >> i) & 1u) != 0) least = std::min(least, issued[static_cast<std::size_t>(i)]);
  }
  return least == ~0u ? enqueued : least;
}

}  // namespace warpsim::core
