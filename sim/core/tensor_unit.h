// Tensor Cores: the matrix shape and data type of a matrix instruction read from its mnemonic,
// the cycles it occupies the tensor units, and the SM-wide timeline of asynchronous matrix
// operations with Hopper's warpgroup commit/wait groups.
//
// Rate model: an instruction of shape M×N×K does 2·M·N·K FLOP; the SM's tensor units do
// `dense_flop_per_clk_per_sm` of its input type per clock, split evenly across the SMSPs.
//   - Warp-level mma.sync (HMMA, IMMA, DMMA, …, and CDNA3 MFMA per wavefront) holds its SMSP's
//     tensor unit for FLOP / (rate / SMSPs × fraction) cycles (fraction = mma_sync_fraction_of_peak
//     on NVIDIA, 1 for MFMA); its accumulator is ready after mma_sync_latency_cycles (MFMA: the
//     occupancy plus mfma_extra_latency_cycles), never sooner than the occupancy.
//   - Hopper wgmma (HGMMA, IGMMA, QGMMA, BGMMA) runs once per warpgroup of 4 warps when the
//     last of them issued it, occupying all the SM's tensor units for FLOP / rate cycles (m64nNk16
//     FP16: N/2), queued in order behind earlier ones; it completes wgmma_extra_latency_cycles
//     later. Issue does not block a warp; WARPGROUP.DEPBAR.LE gsb0, N waits (stall `gmma`) until
//     at most N of the warp's committed groups are unfinished. A group is committed by an HGMMA
//     carrying the gsb0 commit flag, or implicitly by the wait when no HGMMA carried one.
//   - Blackwell tcgen05 (UTCHMMA, …) is issued by one thread, occupies the tensor units for
//     max(FLOP / rate, tcgen05_min_cycles) and writes tensor memory; a tensor-memory load (LDTM)
//     waits until the SM's queued tcgen05 operations finished.
// wgmma operands in shared memory (A unless it comes from registers, and B) are read through the
// SM's shared-memory data path, 128 bytes a wavefront, competing with LDS/STS (the SM adds them
// to the MIO data path; an HGMMA completes no sooner than its reads). The register operands of
// mma.sync and of wgmma's A are checked by the warp's scoreboard as sources.
//
// Left out: sparsity (2:4) rates, the 2-CTA tcgen05 variants and tcgen05's shared-memory operand
// reads, power throttling, and contention between mma.sync and wgmma on the same units (they use
// separate timelines).
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "sim/core/functional_unit.h"
#include "sim/core/sm_config.h"
#include "sim/engine/clock_domain.h"
#include "traces/isa/opcode_info.h"

namespace warpsim::core {

/// How a matrix instruction executes.
enum class MatrixOpKind : std::uint8_t {
  kWarp,       ///< Warp-level mma.sync on the SMSP's tensor unit (NVIDIA HMMA family).
  kMfma,       ///< CDNA3 MFMA per wavefront on its SIMD's matrix core.
  kWarpgroup,  ///< Hopper wgmma over a warpgroup, asynchronous.
  kTcgen05,    ///< Blackwell tcgen05.mma, single-thread issue, asynchronous.
};

/// Shape and types of one matrix instruction.
struct MatrixShape {
  MatrixOpKind kind = MatrixOpKind::kWarp;
  int m = 0;
  int n = 0;
  int k = 0;
  int blocks = 1;                       ///< CDNA multi-block MFMA (e.g. "_4b").
  TensorType type = TensorType::kFp16;  ///< Input type.
  int accumulator_bytes = 4;            ///< Bytes per accumulator element.
  /// 2·M·N·K·blocks.
  double flops() const { return 2.0 * m * n * k * blocks; }
  /// Bytes of the A input (M×K elements of `type`) and of the B input (K×N).
  std::uint32_t a_bytes() const;
  std::uint32_t b_bytes() const;
};

/// Bits of one input element of `type` (fp16 16, fp8 8, fp4 4, …).
int tensor_input_bits(TensorType type);

/// Reads the shape of `info`'s mnemonic ("HMMA.16816.F32.BF16" → 16×8×16 bf16,
/// "HGMMA.64x128x16.F32.BF16", "v_mfma_f32_32x32x8_f16"). Nullopt for a tensor-class opcode that
/// is not a matrix multiply (UTCSHIFT). tcgen05 mnemonics without a shape take the config's
/// default M and N. Throws warpsim::InputError naming the mnemonic when no shape can be read.
std::optional<MatrixShape> parse_matrix_shape(const traces::OpcodeInfo& info,
                                              const TensorConfig& config);

/// Timing of one matrix instruction under a config.
struct MatrixTiming {
  FixedCycles occupancy = 0;  ///< Cycles the tensor unit(s) are held (fixed point).
  int latency_cycles = 0;     ///< Warp-level: issue to dependent issue. Async: issue to
                              ///< completion after the occupancy ends.
};

/// The timing of `shape`. Throws warpsim::InputError naming the config field when the input
/// type's rate is 0 (the SM has no such Tensor Core).
MatrixTiming matrix_timing(const MatrixShape& shape, const SmConfig& config,
                           const traces::OpcodeInfo& info);

/// The SM-wide timeline of asynchronous matrix operations (wgmma, tcgen05).
class TensorTimeline {
 public:
  /// Empties the timeline.
  void reset();
  /// Queues an operation at `now` holding the units for `occupancy`; returns the cycle it
  /// completes (`extra_latency` after the occupancy ends).
  engine::Cycle enqueue(engine::Cycle now, FixedCycles occupancy, int extra_latency);
  /// Completion cycle of the latest queued operation (0 when none).
  engine::Cycle last_completion() const { return last_completion_; }
  /// Tensor-unit busy time so far, in fixed-point cycles.
  FixedCycles busy() const { return busy_; }

 private:
  FixedCycles free_ = 0;
  FixedCycles busy_ = 0;
  engine::Cycle last_completion_ = 0;
};

/// wgmma progress of one warpgroup (up to 4 warps of a CTA).
struct WarpgroupState {
  /// HGMMAs whose completion cycles are remembered.
  static constexpr std::uint32_t kRing = 64;
  std::array<std::uint32_t, 4> issued{};  ///< HGMMAs issued by each member warp.
  std::uint8_t members = 0;               ///< Bit i: member warp i is still running.
  std::uint32_t enqueued = 0;             ///< HGMMAs started on the tensor units.
  std::array<engine::Cycle, kRing> completion{};
  FixedCycles occupancy = 0;  ///< Tensor occupancy of the latest HGMMA issued.
  std::uint32_t operand_bytes = 0;  ///< Its inputs read from shared memory.
  int extra_latency = 0;      ///< Its completion latency after the occupancy.

  /// A warpgroup whose live members are `member_mask`.
  void reset(std::uint8_t member_mask);
  /// Completion cycle of the HGMMA with index `index` (from 0), or engine::kSleep when it has
  /// not started.
  engine::Cycle completion_of(std::uint32_t index) const {
    return index < enqueued ? completion[index % kRing] : engine::kSleep;
  }
  /// The fewest HGMMAs every live member has issued.
  std::uint32_t ready_count() const;
};

}  // namespace warpsim::core
