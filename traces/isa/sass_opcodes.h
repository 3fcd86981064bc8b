// The data of the NVIDIA SASS opcode table (see sass_table.h for how it is used): one entry per
// base opcode of sm_80 (Ampere/Ada), sm_90 (Hopper) and sm_100 (Blackwell), after the
// instruction-set tables of NVIDIA's CUDA Binary Utilities documentation (CUDA 12.8/12.9), with
// its op class, memory space, access kind, per-lane width rule, flags and the ISAs that have it.
// Where the documentation is silent about a generation, an opcode is listed for the generations
// whose compilers emit it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "traces/isa/isa.h"
#include "traces/isa/opcode_info.h"

namespace warpsim::traces {

/// Width rule: bytes per lane from the width modifiers (".U8" 1 … ".128" 16), default 4.
inline constexpr uint16_t kWidthFromModifiers = 0xFFFF;
/// Width rule: 4 bytes × N from an ".xN" modifier (tensor-memory loads and stores).
inline constexpr uint16_t kWidthRepeat = 0xFFFE;

/// One base opcode.
struct SassEntry {
  std::string_view base;  ///< Base opcode, e.g. "LDG".
  arch::OpClass op_class;
  MemSpace space;
  AccessKind access;
  uint16_t width;  ///< Bytes per lane, kWidthFromModifiers or kWidthRepeat (memory entries only).
  uint8_t flags;   ///< OpFlag bits.
  IsaMask isas;    ///< ISAs that have the opcode.
};

/// All entries, in table order; each base opcode appears once.
std::span<const SassEntry> sass_entries();

}  // namespace warpsim::traces
