// The plan a replay follows for one profiled kernel: its launch description and one entry per
// static instruction with the warp instructions it executes per warp, its active lanes, its
// registers and, for memory instructions, the access shape to reproduce (sectors per request and
// whether they are scattered over lines, the unique footprint that gives the measured DRAM
// traffic, the shared-memory conflict degree).
//
// Three fidelities, best first: the source page's SASS listing (opcodes, order and register
// dependences as compiled); per-PC counts from a report or an instanced raw page (opcodes assigned
// from the per-opcode mix by count, memory kinds from ncu's per-PC memory type, registers chained
// one instruction to the next); the opcode mix alone (one entry per mnemonic); last, a raw page's
// kernel totals (global load and store requests, shared wavefronts less conflicts, the rest
// split between FFMA and IMAD). Left out: control
// flow (loops replay as repeated runs of equal-count entries), immediates, constant contents.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/isa/opcode_table.h"
#include "traces/kernel_info.h"
#include "traces/ncu/profile.h"
#include "traces/registers.h"

namespace warpsim::replay {

/// How faithfully a plan follows the measured kernel.
enum class PlanFidelity : uint8_t { kListing, kPerPc, kOpcodeMix, kKernelTotals };

/// The name of a fidelity ("sass listing", "per-pc counts", "opcode mix", "kernel totals").
const char* fidelity_name(PlanFidelity fidelity);

/// One static instruction of the plan.
struct PlanEntry {
  traces::OpcodeId opcode = 0;
  uint32_t pc = 0;           ///< Byte offset in the function.
  double per_warp = 0;       ///< Executed warp instructions per warp (grid average).
  bool uniform = false;      ///< Same count in every warp (CTA barriers).
  double lane_fraction = 1;  ///< Active (predicated-on) lanes / warp lanes.
  std::vector<traces::Reg> dsts, srcs;
  traces::Reg guard{};
  bool guard_negated = false;
  /// The count a wait leaves outstanding (DEPBAR.LE SB0, 0x3; WARPGROUP.DEPBAR.LE gsb0, 0x1),
  /// from the SASS text; absent for other instructions.
  std::optional<int64_t> wait_count;
  /// Cycles a warp waits on fixed stall counts before issuing this instruction, per execution,
  /// estimated from the PC's warp-state samples (0 when not sampled): the compiler's stall counts,
  /// which ncu's source page does not print.
  double wait_cycles = 0;
  // Memory shape (memory instructions only).
  uint32_t sectors_per_request = 1;  ///< Global: distinct 32 B sectors per warp request.
  uint32_t lines_per_request = 1;    ///< Global: distinct 128 B lines per request (L1 tags).
  bool sparse = false;               ///< Global: the other sectors of a request's 64 B halves are
                                     ///< never touched (each L2 miss fetches unused bytes).
  uint64_t footprint_sectors = 1;    ///< Global/local: distinct sectors the entry touches.
  double reuse_group = 1;            ///< Global: consecutive requests (neighbouring warps of a
                                     ///< CTA, then later iterations) that read the same sectors,
                                     ///< on average (1.28: a second reader for 28 % of groups).
  uint64_t window_lines = 1u << 15;  ///< Global/local: the walk re-reads a line within this many
                                     ///< 128 B lines of the entry's footprint (its part of the
                                     ///< kernel's 4 MiB reuse window).
  uint32_t conflict_ways = 1;        ///< Shared: wavefronts per request / ideal.
  uint64_t region = 0;               ///< Base address of the entry's region.
  uint32_t copy_lines = 0;           ///< TMA copies: 128 B lines each copy moves (0: not a copy).
};

/// A kernel's plan.
struct ReplayPlan {
  traces::KernelInfo info;
  std::vector<PlanEntry> entries;  ///< In PC order; EXIT excluded (each warp ends with one).
  traces::OpcodeId exit_opcode = 0;
  PlanFidelity fidelity = PlanFidelity::kOpcodeMix;
  /// The kernel has warpgroup-collective instructions (HGMMA, WARPGROUP.*): every warp of a CTA
  /// then gets the same counts, so that the warps of a warpgroup issue its wgmma together and meet
  /// the CTA's barriers in the same order (per-warp shares of a warp-specialised kernel such as
  /// cuBLAS's deadlock: one warp waits at a barrier for warps that wait for its wgmma).
  bool warpgroup_collective = false;
  /// CTAs resident at once on the measured GPU (its SMs times CTAs per SM, from ncu's waves per
  /// SM); 0 when unknown or when the grid fits in one wave. Address walks follow the waves.
  uint64_t ctas_per_wave = 0;
};

/// Builds the plan of `profile`, interning into a fresh sm_xx opcode table. Throws InputError
/// naming the kernel when it has no instruction counts or no launch configuration.
ReplayPlan plan_from_profile(const traces::ncu::KernelProfile& profile);

}  // namespace warpsim::replay
