#include "traces/isa/isa.h"

#include <array>
#include <utility>

namespace warpsim::traces {

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::kSm80:
      return "sm_80";
    case Isa::kSm90:
      return "sm_90";
    case Isa::kSm100:
      return "sm_100";
    case Isa::kGfx942:
      return "gfx942";
  }
  return "unknown";
}

std::optional<Isa> parse_isa(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, Isa>, 20> kNames = {{
      {"sm_80", Isa::kSm80},    {"sm_86", Isa::kSm80},    {"sm_87", Isa::kSm80},
      {"sm_89", Isa::kSm80},    {"ampere", Isa::kSm80},   {"ada", Isa::kSm80},
      {"sm_90", Isa::kSm90},    {"sm_90a", Isa::kSm90},   {"hopper", Isa::kSm90},
      {"sm_100", Isa::kSm100},  {"sm_100a", Isa::kSm100}, {"sm_101", Isa::kSm100},
      {"sm_103", Isa::kSm100},  {"sm_103a", Isa::kSm100}, {"blackwell", Isa::kSm100},
      {"gfx942", Isa::kGfx942}, {"cdna3", Isa::kGfx942},  {"mi300x", Isa::kGfx942},
      {"mi300a", Isa::kGfx942}, {"mi300", Isa::kGfx942},
  }};
  for (const auto& [key, isa] : kNames) {
    if (key == name) return isa;
  }
  return std::nullopt;
}

std::optional<Isa> isa_from_binary_version(uint32_t binary_version) {
  if (binary_version < 30) return std::nullopt;
  if (binary_version < 90) return Isa::kSm80;
  if (binary_version < 100) return Isa::kSm90;
  return Isa::kSm100;
}

}  // namespace warpsim::traces
