#include "traces/registers.h"

#include <array>
#include <charconv>

namespace warpsim::traces {
namespace {

struct Prefix {
  std::string_view text;
  RegKind kind;
  uint32_t limit;  // largest index accepted
};

// Longer prefixes first so that "UR" is not read as "U" + "R".
constexpr std::array<Prefix, 7> kPrefixes = {{
    {"UR", RegKind::kUniform, 63},
    {"UP", RegKind::kUniformPredicate, 7},
    {"R", RegKind::kGeneral, 255},
    {"P", RegKind::kPredicate, 7},
    {"v", RegKind::kVector, 511},
    {"s", RegKind::kScalar, 127},
    {"a", RegKind::kAccumulator, 255},
}};

}  // namespace

std::optional<Reg> parse_register(std::string_view text) {
  if (text == "RZ") return kRZ;
  if (text == "URZ") return kURZ;
  if (text == "PT") return kPT;
  if (text == "UPT") return kUPT;
  for (const Prefix& prefix : kPrefixes) {
    if (!text.starts_with(prefix.text)) continue;
    const std::string_view digits = text.substr(prefix.text.size());
    if (digits.empty() || digits.size() > 4) return std::nullopt;
    uint32_t index = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || end != digits.data() + digits.size() || index > prefix.limit) {
      return std::nullopt;
    }
    return make_reg(prefix.kind, index);
  }
  return std::nullopt;
}

std::string register_name(Reg reg) {
  const std::string index = std::to_string(reg.index());
  switch (reg.kind()) {
    case RegKind::kNone:
      return "-";
    case RegKind::kGeneral:
      return reg.is_zero() ? "RZ" : "R" + index;
    case RegKind::kUniform:
      return reg.is_zero() ? "URZ" : "UR" + index;
    case RegKind::kPredicate:
      return reg.is_zero() ? "PT" : "P" + index;
    case RegKind::kUniformPredicate:
      return reg.is_zero() ? "UPT" : "UP" + index;
    case RegKind::kVector:
      return "v" + index;
    case RegKind::kScalar:
      return "s" + index;
    case RegKind::kAccumulator:
      return "a" + index;
  }
  return "?";
}

}  // namespace warpsim::traces
