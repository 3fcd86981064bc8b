// Register operands of a warp instruction, packed in 16 bits: a kind (SASS general R, uniform UR,
// predicate P, uniform predicate UP; AMD vector v, scalar s, accumulator a) and an index. The
// zero registers RZ (R255), URZ (UR63) and the true predicates PT (P7), UPT (UP7) are ordinary
// values with is_zero() true: they read a constant and discard writes, so a scoreboard ignores
// them (AMD has no zero register). Register pairs and quads are named by their first register,
// as SASS traces do; special AMD registers (vcc, exec, m0) are not represented.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpsim::traces {

/// The register file an operand lives in.
enum class RegKind : uint8_t {
  kNone = 0,              ///< No operand.
  kGeneral = 1,           ///< SASS per-lane registers R0–R255 (R255 = RZ).
  kUniform = 2,           ///< SASS per-warp registers UR0–UR63 (UR63 = URZ).
  kPredicate = 3,         ///< SASS per-lane predicates P0–P7 (P7 = PT).
  kUniformPredicate = 4,  ///< SASS per-warp predicates UP0–UP7 (UP7 = UPT).
  kVector = 5,            ///< AMD per-lane VGPRs v0–v511.
  kScalar = 6,            ///< AMD per-wavefront SGPRs s0–s127.
  kAccumulator = 7,       ///< AMD AGPRs a0–a255 (MFMA accumulators).
};

/// A register operand. Default-constructed = no operand.
struct Reg {
  /// Largest index a Reg can hold.
  static constexpr uint16_t kMaxIndex = (1u << 13) - 1;

  uint16_t bits = 0;  ///< kind << 13 | index.

  constexpr RegKind kind() const { return static_cast<RegKind>(bits >> 13); }
  constexpr uint16_t index() const { return bits & kMaxIndex; }
  /// False for the "no operand" value.
  constexpr bool valid() const { return kind() != RegKind::kNone; }
  /// RZ, URZ, PT or UPT.
  constexpr bool is_zero() const {
    switch (kind()) {
      case RegKind::kGeneral:
        return index() == 255;
      case RegKind::kUniform:
        return index() == 63;
      case RegKind::kPredicate:
      case RegKind::kUniformPredicate:
        return index() == 7;
      default:
        return false;
    }
  }
  friend constexpr bool operator==(Reg, Reg) = default;
};

/// A register of `kind` with `index` (index ≤ Reg::kMaxIndex; larger values are truncated).
constexpr Reg make_reg(RegKind kind, uint32_t index) {
  return Reg{static_cast<uint16_t>((static_cast<uint32_t>(kind) << 13) | (index & Reg::kMaxIndex))};
}
/// R<n>.
constexpr Reg gpr(uint32_t n) { return make_reg(RegKind::kGeneral, n); }
/// UR<n>.
constexpr Reg ureg(uint32_t n) { return make_reg(RegKind::kUniform, n); }
/// P<n>.
constexpr Reg pred(uint32_t n) { return make_reg(RegKind::kPredicate, n); }
/// UP<n>.
constexpr Reg upred(uint32_t n) { return make_reg(RegKind::kUniformPredicate, n); }
/// AMD v<n>.
constexpr Reg vgpr(uint32_t n) { return make_reg(RegKind::kVector, n); }
/// AMD s<n>.
constexpr Reg sgpr(uint32_t n) { return make_reg(RegKind::kScalar, n); }
/// AMD a<n>.
constexpr Reg agpr(uint32_t n) { return make_reg(RegKind::kAccumulator, n); }

/// True for registers that hold one value per lane (R, P, v, a); false for per-warp ones.
constexpr bool is_per_lane(RegKind kind) {
  return kind == RegKind::kGeneral || kind == RegKind::kPredicate || kind == RegKind::kVector ||
         kind == RegKind::kAccumulator;
}

inline constexpr Reg kRZ = gpr(255);
inline constexpr Reg kURZ = ureg(63);
inline constexpr Reg kPT = pred(7);
inline constexpr Reg kUPT = upred(7);

/// Parses a register name: SASS "R12", "RZ", "UR4", "URZ", "P0", "PT", "UP1", "UPT" (upper case,
/// R0–R255, UR0–UR63, P0–P7, UP0–UP7) or AMD "v3", "s5", "a2" (lower case, v0–v511, s0–s127,
/// a0–a255). Nullopt for anything else.
std::optional<Reg> parse_register(std::string_view text);

/// The name parse_register accepts (zero registers as "RZ", "URZ", "PT", "UPT"); "-" for no
/// operand.
std::string register_name(Reg reg);

}  // namespace warpsim::traces
