// What the issue core needs to know about each opcode of a kernel, computed once per OpcodeId
// (never per instruction): how it executes (fixed-latency pipe, memory pipeline, Tensor Core,
// branch, barrier, exit, …), its functional-unit class, latency and initiation interval under
// the SM config, the registers each destination covers, and the kind of dependency its results
// create for the scoreboard. The table grows as a trace source interns new mnemonics.
//
// Left out: per-modifier latencies (e.g. IMAD.WIDE versus IMAD) beyond what the class gives.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/functional_unit.h"
#include "sim/core/scoreboard.h"
#include "sim/core/sm_config.h"
#include "sim/core/tensor_unit.h"
#include "traces/isa/opcode_table.h"

namespace warpsim::core {

/// How an instruction executes in the issue core.
enum class ExecKind : std::uint8_t {
  kAlu,            ///< Fixed-latency functional unit.
  kMemory,         ///< Handed to the memory pipeline (memory spaces and SHUFFLE class).
  kMmaWarp,        ///< mma.sync / MFMA on the SMSP's tensor unit.
  kMmaWarpgroup,   ///< Hopper wgmma (asynchronous, per warpgroup).
  kMmaTcgen05,     ///< Blackwell tcgen05.mma (asynchronous, single issue).
  kBranch,         ///< Control transfer: the warp waits branch_resolve_cycles.
  kReconverge,     ///< BSSY / BSYNC / WARPSYNC: reconvergence points (BSYNC resolves).
  kBarrierSync,    ///< BAR.SYNC / BAR.RED: wait for the CTA's warps.
  kBarrierArrive,  ///< BAR.ARV: arrive without waiting.
  kExit,           ///< EXIT / KILL.
  kMembar,         ///< MEMBAR / FENCE: wait for the warp's memory operations.
  kErrbar,         ///< ERRBAR: wait until the memory system acknowledged the warp's writes.
  kNanosleep,      ///< NANOSLEEP: sleep for the immediate's cycles.
  kWarpgroupWait,  ///< WARPGROUP.DEPBAR: wait for committed wgmma groups.
  kAsyncCommit,    ///< LDGDEPBAR: close a group of asynchronous copies.
  kAsyncWait,      ///< DEPBAR: wait for groups of asynchronous copies.
};

/// The decoded form of one opcode.
struct OpcodeDecode {
  const traces::OpcodeInfo* info = nullptr;
  ExecKind kind = ExecKind::kAlu;
  std::uint8_t op_class = 0;  ///< arch::OpClass value (functional-unit index).
  std::uint8_t dst_regs = 1;  ///< Registers each destination covers.
  DependencyKind dependency = DependencyKind::kFixed;  ///< Producer kind of its results.
  bool async_copy = false;           ///< Asynchronous memory copy (LDGSTS, TMA): counted in groups.
  bool tensor_memory_load = false;   ///< Reads tensor memory (waits for tcgen05 operations).
  bool gpu_fence = false;            ///< MEMBAR of GPU or system scope: opens a GPU fence.
  bool resolves = false;             ///< BSYNC, BREAK: waits branch_resolve_cycles, taken or not.
  int latency_cycles = 0;            ///< Issue to dependent issue (fixed-latency kinds).
  FixedCycles interval = kFixedOne;  ///< Functional-unit occupancy per instruction.
  FixedCycles tensor_occupancy = 0;  ///< SM-wide tensor occupancy (wgmma, tcgen05).
  std::uint32_t a_operand_bytes = 0;  ///< wgmma: bytes of its A input (M×K).
  std::uint32_t b_operand_bytes = 0;  ///< wgmma: bytes of its B input (K×N).
};

/// The decoded opcodes of the kernels an SM runs.
class OpcodeDecoder {
 public:
  /// Decodes under `config` (kept by reference).
  explicit OpcodeDecoder(const SmConfig& config) : config_(&config) {}

  /// Decodes every opcode of `table` not decoded yet; a different table (or warp size) starts
  /// afresh. Throws warpsim::InputError for a matrix instruction whose shape or rate is missing.
  void sync(const traces::OpcodeTable& table, int warp_size);

  /// The decode of `id` (sync() must have seen it).
  const OpcodeDecode& operator[](traces::OpcodeId id) const { return decodes_[id]; }
  /// Number of decoded opcodes.
  std::size_t size() const { return decodes_.size(); }

 private:
  OpcodeDecode decode(const traces::OpcodeInfo& info) const;

  const SmConfig* config_;
  const traces::OpcodeTable* table_ = nullptr;
  int warp_size_ = 32;
  std::vector<OpcodeDecode> decodes_;
};

}  // namespace warpsim::core
