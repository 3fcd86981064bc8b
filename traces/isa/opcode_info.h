// What warpsim knows about one opcode mnemonic: its functional-unit class (arch::OpClass), the
// memory space it touches, how (load, store, atomic, reduction, prefetch), the bytes each lane
// moves, and which ISAs have it. One OpcodeInfo exists per distinct full mnemonic of a trace (see
// opcode_table.h); warp instructions refer to it by a 16-bit id, so nothing here is looked up per
// instruction. The semantics are those a timing model needs, not a functional decode: operand
// types, rounding and the meaning of most modifiers are left out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "arch/op_class.pb.h"
#include "traces/isa/isa.h"

namespace warpsim::traces {

/// The memory an instruction addresses.
enum class MemSpace : uint8_t {
  kNone = 0,        ///< Not a memory instruction.
  kGlobal,          ///< Device memory through L1/L2 (LDG, STG, ATOMG, AMD global_*/buffer_*).
  kShared,          ///< CTA shared memory / AMD LDS (LDS, STS, ATOMS, LDSM, ds_*).
  kLocal,           ///< Per-thread local memory (LDL, STL; AMD scratch_*).
  kConstant,        ///< Constant banks (LDC, ULDC; AMD scalar s_load_*).
  kGeneric,         ///< Generic addressing, resolved by address (LD, ST, ATOM, RED; AMD flat_*).
  kTexture,         ///< Texture path (TEX, TLD; AMD image_*).
  kSurface,         ///< Surface loads and stores (SULD, SUST, SUATOM).
  kGlobalToShared,  ///< Asynchronous copy global → shared (LDGSTS, UTMALDG, UBLKCP).
  kSharedToGlobal,  ///< Asynchronous copy shared → global (UTMASTG, UTMAREDG, UBLKRED).
  kTensorMemory,    ///< Blackwell tensor memory (LDTM, STTM, UTCCP).
};

/// How an instruction accesses its memory space.
enum class AccessKind : uint8_t {
  kNone = 0,   ///< No memory access.
  kLoad,       ///< Reads memory into registers (or, for async copies, into shared memory).
  kStore,      ///< Writes memory.
  kAtomic,     ///< Read-modify-write that returns the old value (ATOM, ATOMS, *_rtn).
  kReduction,  ///< Read-modify-write without a return value (RED, UTMAREDG).
  kPrefetch,   ///< Moves data toward the SM without writing registers (UTMAPF, CCTL prefetch).
};

/// Properties of an opcode beyond class and memory (bit flags).
enum OpFlag : uint8_t {
  kOpAsync = 1u << 0,      ///< Completes asynchronously (LDGSTS, TMA, wgmma, tcgen05).
  kOpWarpgroup = 1u << 1,  ///< Executes over a warpgroup of 4 warps (HGMMA and friends).
  kOpGmma = 1u << 2,       ///< Accel-Sim v6 writes a GMMA commit-group flag after its operands.
  kOpTma = 1u << 3,      ///< Accel-Sim v6 writes TMA fields (mbarrier, bytes, …) after MEM_WIDTH.
  kOpUniform = 1u << 4,  ///< Runs on the uniform (per-warp) datapath (U* ops, AMD s_*).
};

/// Everything warpsim derives from one full mnemonic.
struct OpcodeInfo {
  std::string mnemonic;  ///< The full mnemonic as written, e.g. "LDG.E.128.CONSTANT".
  std::string base;      ///< The base opcode, e.g. "LDG" (SASS: first dot-token; AMD: whole name).
  arch::OpClass op_class = arch::OP_CLASS_UNKNOWN;  ///< Functional-unit class.
  MemSpace space = MemSpace::kNone;                 ///< Memory space, kNone if not memory.
  AccessKind access = AccessKind::kNone;            ///< Access kind, kNone if not memory.
  uint16_t width_bytes = 0;  ///< Bytes per lane for memory instructions (0 for others and TMA).
  /// Lanes whose addresses the access uses: 32, or 8 per 8x8 matrix of LDSM / STSM (.1, .2, .4;
  /// the other lanes' addresses are ignored, PTX ISA ldmatrix / stmatrix).
  uint8_t address_lanes = 32;
  uint8_t flags = 0;         ///< OpFlag bits.
  IsaMask isas = 0;          ///< ISAs whose instruction set has this base opcode.
  bool known = false;        ///< False when the ISA table has no entry (op_class is UNKNOWN).

  /// True when the instruction addresses memory.
  bool is_memory() const { return space != MemSpace::kNone; }
  /// True when `target` has this opcode.
  bool available_on(Isa target) const { return (isas & isa_bit(target)) != 0; }
  /// True when `flag` (an OpFlag) is set.
  bool has(OpFlag flag) const { return (flags & flag) != 0; }
};

/// Lower-case name of a memory space ("global", "shared", "global_to_shared", …).
std::string_view mem_space_name(MemSpace space);
/// Lower-case name of an access kind ("load", "store", "atomic", …).
std::string_view access_kind_name(AccessKind kind);

}  // namespace warpsim::traces
