// One warp instruction of the trace IR, laid out for the simulator's hot path: a 64-byte plain
// struct with the PC, the interned opcode id (see isa/opcode_table.h), the active mask, up to 4
// destination and 6 source registers, the guard predicate, the first immediate and the memory
// width. Lane addresses live in a side pool of the warp (WarpTrace::addresses), so only memory
// instructions pay for them; rare fields (a second immediate, Accel-Sim v6 TMA fields and
// register values) live in a second side pool (WarpTrace::extras). No strings per instruction.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "traces/isa/opcode_table.h"
#include "traces/lane_mask.h"
#include "traces/registers.h"

namespace warpsim::traces {

/// Most destination registers an instruction carries.
inline constexpr int kMaxDsts = 4;
/// Most source registers an instruction carries (Accel-Sim v6 writes up to 5).
inline constexpr int kMaxSrcs = 6;
/// WarpInstruction::extras value meaning "no extras".
inline constexpr uint32_t kNoExtras = 0xFFFFFFFFu;

/// WarpInstruction::flags bits.
enum InstFlag : uint8_t {
  kInstGuardNegated = 1u << 0,   ///< The guard is "@!P": the instruction runs where it is false.
  kInstLaneAddresses = 1u << 1,  ///< mem_offset points at popcount(active_mask) lane addresses.
  kInstGmmaCommit = 1u << 2,     ///< Accel-Sim v6 GMMA commit-group flag was 1.
  kInstHasImm = 1u << 3,         ///< The source wrote an immediate (older traces omit it).
  /// With kInstLaneAddresses: every active lane has the same address, stored once at mem_offset
  /// (constant and uniform loads; set by WarpTrace::set_lane_addresses).
  kInstUniformAddress = 1u << 4,
};

/// Accel-Sim v6 Tensor Memory Accelerator fields (UTMALDG, UTMASTG, UBLKCP, …).
struct TmaInfo {
  uint64_t mbarrier_address = 0;    ///< The mbarrier the copy signals.
  uint64_t multicast_cta_mask = 0;  ///< CTAs of the cluster receiving the data, if multicast.
  uint32_t bytes = 0;               ///< Bytes moved.
  uint32_t oob_bytes = 0;           ///< Bytes out of the tensor's bounds (filled, not moved).
  uint32_t address_offset = 0;      ///< First of the copy's addresses in WarpTrace::addresses.
  uint32_t address_count = 0;       ///< Number of those addresses.
  uint8_t address_mode = 0;         ///< How the source encoded the addresses (kept for writers).
  bool multicast = false;           ///< Multicast flag.
  friend bool operator==(const TmaInfo&, const TmaInfo&) = default;
};

/// Rare per-instruction fields, stored out of line.
struct InstructionExtras {
  std::optional<int64_t> imm2;  ///< A second immediate (Accel-Sim v6).
  std::optional<TmaInfo> tma;   ///< TMA fields.
  bool has_values = false;      ///< Register values were recorded (Accel-Sim v6 "Val").
  uint16_t wide_values = 0;     ///< Bit i: operand i (destinations, then sources) has one value
                                ///< per lane (32 on NVIDIA); clear: one value for the warp.
  uint32_t values_offset = 0;   ///< First value in WarpTrace::values.
  /// Lanes that were active but did not execute because the guard predicate was false. They
  /// count as executed threads for Nsight Compute's smsp__thread_inst_executed (which ignores
  /// predication) although active_mask excludes them. Sources that only know active AND guard
  /// (Accel-Sim traces) leave it 0.
  LaneMask predicated_off = 0;
  friend bool operator==(const InstructionExtras&, const InstructionExtras&) = default;
};

/// One dynamic warp instruction.
struct WarpInstruction {
  LaneMask active_mask = 0;         ///< Lanes that execute (active AND guard, as traces record).
  int64_t imm = 0;                  ///< First immediate (e.g. DEPBAR's wait count); 0 if absent.
  uint32_t pc = 0;                  ///< Byte offset in the function.
  uint32_t mem_offset = 0;          ///< First lane address in WarpTrace::addresses.
  uint32_t extras = kNoExtras;      ///< Index in WarpTrace::extras, or kNoExtras.
  OpcodeId opcode = 0;              ///< Id in the kernel's OpcodeTable.
  std::array<Reg, kMaxDsts> dst{};  ///< Destination registers; the first num_dst are valid.
  std::array<Reg, kMaxSrcs> src{};  ///< Source registers; the first num_src are valid.
  Reg guard{};                      ///< Guard predicate if known (P or UP), else no register.
  uint16_t mem_width = 0;           ///< Bytes per lane for memory instructions, else 0.
  uint8_t num_dst = 0;              ///< Valid entries of dst.
  uint8_t num_src = 0;              ///< Valid entries of src.
  uint8_t flags = 0;                ///< InstFlag bits.
  /// The compiler's stall count (SASS control field, 0-15): cycles after this instruction issues
  /// before its warp may issue the next one; 0 when the source does not record it.
  uint8_t issue_stall = 0;
  /// Operand reuse-cache flags (SASS control field; bit i: source operand slot i), 0 if unknown.
  uint8_t reuse = 0;

  /// True when `flag` (an InstFlag) is set.
  bool has(InstFlag flag) const { return (flags & flag) != 0; }
  /// True when lane addresses were recorded for this instruction.
  bool has_lane_addresses() const { return has(kInstLaneAddresses); }
  /// True when the active lanes' addresses are recorded once for all (kInstUniformAddress).
  bool has_uniform_address() const { return has(kInstUniformAddress); }
  /// Number of lane addresses stored when recorded (1 when uniform, else the popcount of the
  /// mask), else 0.
  uint32_t lane_address_count() const {
    if (!has_lane_addresses()) return 0;
    return has_uniform_address() ? 1 : popcount(active_mask);
  }
  friend bool operator==(const WarpInstruction&, const WarpInstruction&) = default;
};

static_assert(sizeof(WarpInstruction) <= 64, "WarpInstruction must stay within a cache line");

}  // namespace warpsim::traces
