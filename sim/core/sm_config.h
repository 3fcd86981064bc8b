// The configuration of one SM's issue core: warp size, sub-partitions (SMSPs) and their issue
// width, occupancy limits, the warp-scheduler policy, per operation class the functional units of
// one SMSP (latency, initiation interval, number of such units), branch and barrier costs, the
// Tensor Core rates, and the AMD CDNA options. A plain struct with units in the field names; the
// defaults describe an NVIDIA H100 / H200 SM (sm_90). The architecture description fills it.
//
// Sources of the defaults ([pub] vendor document or paper, [2nd] second-hand, [der] derived):
// unit counts per SM from the Hopper whitepaper and CUDA's throughput table for cc 9.0 [pub]
// (128 FP32, 64 INT32, 64 FP64, 16 SFU per SM: divided by 4 SMSPs and into the 32 threads of a
// warp gives the initiation interval); dependent-issue latencies from Luo et al. 2024 and Jia et
// al. microbenchmarks [2nd]; tensor rates from the vendor peaks (HARDWARE.md) [der].
//
// Left out: the register-file bank model (operand collector), dual issue, and instruction-cache
// misses; per-opcode latencies within a class (all IMADs cost what the INT entry says).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "arch/op_class.pb.h"
#include "sim/core/instruction_fetch.h"
#include "sim/core/occupancy.h"

namespace warpsim::core {

/// Number of arch::OpClass values (the index range of per-class arrays).
inline constexpr int kOpClassCount = arch::OpClass_ARRAYSIZE;
/// Most sub-partitions an SM may have.
inline constexpr int kMaxSubPartitions = 8;
/// Most resident warps an SM may hold (warp sets are 64-bit masks).
inline constexpr int kMaxWarpsPerSm = 64;
/// Most CTAs an SM may hold.
inline constexpr int kMaxCtasPerSm = 64;
/// Most units of one class per SMSP.
inline constexpr int kMaxUnitsPerClass = 4;

/// The functional units of one operation class in one SMSP.
struct FunctionalUnitConfig {
  int latency_cycles = 4;              ///< Issue to dependent issue (fixed-latency results).
  int initiation_interval_cycles = 1;  ///< Cycles a unit is held per warp instruction
                                       ///< (= warp size / lanes per SMSP).
  int units_per_smsp = 1;              ///< Independent units of this class per SMSP.
};

/// Input data types of matrix instructions.
enum class TensorType : std::uint8_t {
  kFp16 = 0,
  kBf16,
  kTf32,
  kFp32,
  kFp64,
  kFp8,
  kFp6,
  kFp4,
  kInt8,
  kInt4,
  kBinary,
};
/// Number of TensorType values.
inline constexpr int kTensorTypeCount = 11;
/// Lower-case name of a tensor type ("fp16", "bf16", "tf32", …), as config fields index them.
std::string_view tensor_type_name(TensorType type);

/// Tensor Core rates and the models of the matrix instructions.
struct TensorConfig {
  /// Dense FLOP (or integer OP) per clock per SM for each TensorType; 0 = not supported.
  /// H100/H200: 989.4 TFLOP/s FP16 dense at 1830 MHz over 132 SMs = 4096 [der].
  std::array<double, kTensorTypeCount> dense_flop_per_clk_per_sm = {
      4096,  // fp16
      4096,  // bf16
      2048,  // tf32
      0,     // fp32 (no NVIDIA matrix instruction)
      256,   // fp64: 66.9 TFLOP/s DMMA [der]
      8192,  // fp8
      0,     // fp6 (Blackwell)
      0,     // fp4 (Blackwell)
      8192,  // int8
      0,     // int4 (dropped on Hopper)
      0,     // binary
  };
  /// Warp-level mma.sync (HMMA/IMMA/DMMA): issue to dependent issue. Hopper m16n8k16: 24.1 [pub:
  /// Luo et al.].
  int mma_sync_latency_cycles = 24;
  /// Fraction of the dense peak that back-to-back mma.sync reaches (Hopper: 62.9 % [pub: Luo]).
  double mma_sync_fraction_of_peak = 0.629;
  /// Cycles from the end of a warpgroup MMA's Tensor Core occupancy to its completion. Hopper
  /// wgmma m64nNk16 measures N/2 cycles, i.e. throughput bound: 0 [pub: Luo].
  int wgmma_extra_latency_cycles = 0;
  /// Blackwell tcgen05.mma: least cycles one instruction occupies the tensor units (~11 [2nd]).
  int tcgen05_min_cycles = 11;
  /// Shape assumed for tcgen05 mnemonics that carry none (the instruction descriptor holds it).
  int tcgen05_default_m = 128;
  int tcgen05_default_n = 256;  ///< See tcgen05_default_m.
  /// CDNA3 MFMA: cycles added to the matrix-core occupancy before a dependent may issue.
  int mfma_extra_latency_cycles = 4;
};

/// AMD CDNA options (used when a kernel's warp size is 64).
struct AmdConfig {
  /// A wave64 VALU instruction holds its SIMD16 for this many cycles.
  int valu_simd_cycles = 4;
};

/// Everything the issue core needs to know about an SM.
struct SmConfig {
  SmLimits limits = default_limits();  ///< Occupancy limits (warp size, SMSPs, registers, …).
  int issue_width = 1;                 ///< Warp instructions each SMSP issues per cycle.
  std::string scheduler = "gto";       ///< Warp-scheduler policy (warp_scheduler.h).
  int two_level_active_warps = 4;      ///< Active-set size per SMSP of the two-level policy.
  int shared_warps = 4;  ///< cta_rr: first-ranked warps per SMSP sharing the issue slots in turn.
  /// Functional units per arch::OpClass (index = enum value).
  std::array<FunctionalUnitConfig, kOpClassCount> units = default_units();
  int branch_resolve_cycles = 4;    ///< A taken branch's warp may issue again after this many.
  /// General-register operands an SMSP reads per cycle (0: unlimited): an ALU instruction with
  /// more (reuse-cache operands excepted) holds the dispatch of the SMSP's other warps for the
  /// extra cycles (its own warp goes on at its stall counts).
  int register_reads_per_cycle = 0;
  int barrier_latency_cycles = 12;  ///< From the last arrival at BAR.SYNC to the warps' release.
  /// From a GPU- or system-scope MEMBAR's issue to the earliest pass of the ERRBAR after it (0:
  /// none).
  int gpu_fence_cycles = 0;
  /// Instruction caches (sizes 0: fetch not modelled).
  InstructionFetchConfig instruction_fetch;
  /// Cycles the SM spends on each warp's barrier arrival, one warp at a time (0: none).
  int barrier_arrival_cycles = 0;
  /// Least SM cycles between two CTA launches on this SM, which sets its CTAs up one at a time
  /// (0: any number at once). A CTA launched sooner keeps its warps on `no_instruction` until its
  /// turn.
  int cta_launch_interval_cycles = 0;
  TensorConfig tensor;              ///< Tensor Cores.
  AmdConfig amd;                    ///< CDNA options.

  /// H100 / H200 occupancy limits (228 KiB shared, 1 KiB reserved per CTA, sm_90 carve-outs).
  static SmLimits default_limits();
  /// H100 / H200 functional units.
  static std::array<FunctionalUnitConfig, kOpClassCount> default_units();
};

/// Checks `config`; throws warpsim::InputError naming the field ("sm.units[FP32].latency_cycles")
/// and the expected range.
void validate_sm_config(const SmConfig& config);

}  // namespace warpsim::core
