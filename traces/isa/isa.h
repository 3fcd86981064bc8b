// Instruction-set architectures that warpsim traces are recorded in and replayed on: NVIDIA SASS
// for sm_80 (Ampere, also used for Ada and older Volta/Turing traces), sm_90 (Hopper) and sm_100
// (Blackwell), and AMD CDNA3 (gfx942, MI300X). This file names them, maps an Accel-Sim "binary
// version" to one, and gives each its warp (wavefront) size. It does not describe the opcodes
// themselves: see opcode_table.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim::traces {

/// A target or source instruction set. Values are stable (they index bit masks).
enum class Isa : uint8_t {
  kSm80 = 0,    ///< NVIDIA Ampere / Ada SASS (sm_80, sm_86, sm_89); older SASS maps here too.
  kSm90 = 1,    ///< NVIDIA Hopper SASS (sm_90, sm_90a).
  kSm100 = 2,   ///< NVIDIA Blackwell SASS (sm_100, sm_100a and the other Blackwell variants).
  kGfx942 = 3,  ///< AMD CDNA3 (MI300X / MI300A), wave64.
};

/// Number of Isa values.
inline constexpr int kIsaCount = 4;

/// A set of ISAs, one bit per Isa value.
using IsaMask = uint8_t;

/// The bit of `isa` in an IsaMask.
constexpr IsaMask isa_bit(Isa isa) {
  return static_cast<IsaMask>(1u << static_cast<unsigned>(isa));
}

inline constexpr IsaMask kAllSass =
    isa_bit(Isa::kSm80) | isa_bit(Isa::kSm90) | isa_bit(Isa::kSm100);

/// True for the NVIDIA SASS ISAs, false for AMD.
constexpr bool is_nvidia(Isa isa) { return isa != Isa::kGfx942; }

/// Threads per warp (32) or wavefront (64 on CDNA3).
constexpr uint32_t warp_size(Isa isa) { return is_nvidia(isa) ? 32u : 64u; }

/// Canonical name: "sm_80", "sm_90", "sm_100", "gfx942".
std::string_view isa_name(Isa isa);

/// Parses a canonical name or a common alias ("sm_86", "sm_90a", "sm_100a", "ampere", "hopper",
/// "blackwell", "cdna3", "mi300x"); nullopt when unknown.
std::optional<Isa> parse_isa(std::string_view name);

/// Maps an Accel-Sim / CUDA binary version (compute capability × 10, e.g. 80, 86, 90, 100) to the
/// ISA table that describes it. Versions before 80 map to sm_80 (their opcodes are checked against
/// the Ampere table); 90–99 to sm_90; 100 and above to sm_100. Nullopt for 0 or values below 30.
std::optional<Isa> isa_from_binary_version(uint32_t binary_version);

}  // namespace warpsim::traces
