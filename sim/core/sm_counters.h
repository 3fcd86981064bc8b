// The statistics an SM's issue core keeps: a plain struct of counters, updated without lookups
// on the hot path and read by the stats layer, which evaluates ncu's formulas from them:
//   smsp__inst_executed.sum = sum(inst_issued);  sm__inst_executed.avg.per_cycle_active =
//   sum(inst_issued) / cycles_active;  smsp__thread_inst_executed_per_inst_executed.ratio =
//   thread_inst_executed / sum(inst_issued);  sm__warps_active.avg.pct_of_peak_sustained_active =
//   warps_active_sum / (cycles_active × max warps) × 100;
//   smsp__average_warp_latency_issue_stalled_<r> = stalls[r] / sum(inst_issued);
//   smsp__average_warps_issue_stalled_<r>_per_issue_active.ratio = stalls[r] / issue_active_cycles;
//   sm__pipe_tensor_op_hmma_cycles_active = tensor_active_cycles.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/core/sm_config.h"
#include "sim/core/stall_reason.h"

namespace warpsim::core {

/// Counters of one SM.
struct SmCounters {
  std::array<std::uint64_t, kMaxSubPartitions> inst_issued{};  ///< Warp instructions per SMSP.
  std::array<std::uint64_t, kMaxSubPartitions> issue_active_cycles{};  ///< Cycles with an issue.
  std::uint64_t thread_inst_executed = 0;  ///< Active lanes summed over issued instructions.
  StallCounters stalls;                    ///< Warp-cycles per reason (selected included).
  std::uint64_t cycles_active = 0;         ///< Cycles with at least one resident warp.
  std::uint64_t warps_active_sum = 0;      ///< Resident warps summed over cycles.
  std::array<std::uint64_t, kOpClassCount> inst_per_op_class{};  ///< Per arch::OpClass.
  std::vector<std::uint64_t> inst_per_opcode;  ///< Per OpcodeId of the current opcode table.
  std::uint64_t ctas_launched = 0;
  std::uint64_t ctas_retired = 0;
  std::uint64_t warps_launched = 0;
  std::uint64_t warps_retired = 0;
  std::uint64_t mma_warp_inst = 0;      ///< mma.sync / MFMA instructions (per warp).
  std::uint64_t mma_warpgroup_ops = 0;  ///< wgmma operations started (per warpgroup).
  std::uint64_t mma_tcgen05_ops = 0;    ///< tcgen05 operations started.
  double tensor_active_cycles = 0.0;    ///< Tensor-unit busy cycles, averaged over SMSPs.

  /// Total warp instructions issued.
  std::uint64_t total_issued() const;
};

}  // namespace warpsim::core
