// Classification of NVIDIA SASS mnemonics for sm_80 (Ampere/Ada), sm_90 (Hopper) and sm_100
// (Blackwell) through the opcode table of sass_opcodes.h. The base opcode (the first dot-token of a mnemonic) selects an entry that gives the op class,
// the memory space and access kind, and the ISAs that have the opcode; modifiers then refine the
// per-lane width (".U8"/".S8" 1 B, ".U16"/".S16" 2 B, default 4 B, ".64" 8 B, ".128" 16 B,
// ".256" 32 B) and, for a few opcodes, the direction (UBLKCP.G.S is shared → global). Timing
// properties (latency, throughput) are not here: they belong to the architecture description.
#pragma once

#include <string_view>
#include <vector>

#include "traces/isa/isa.h"
#include "traces/isa/opcode_info.h"

namespace warpsim::traces {

/// Classifies a full SASS mnemonic such as "LDG.E.128.CONSTANT". Unknown base opcodes give
/// known == false, op_class OP_CLASS_UNKNOWN and an empty ISA set; this never throws.
OpcodeInfo classify_sass(std::string_view mnemonic);

/// The base opcodes of the table that `isa` has, in table order (documentation and tests).
std::vector<std::string_view> sass_base_opcodes(Isa isa);

}  // namespace warpsim::traces
