// Walks a SASS function for one warp and emits its dynamic instruction stream into the trace IR:
// the opcodes and registers come from the listing, the dynamic behaviour (guard predicates per
// lane, hence branch outcomes, exits and divergence; lane addresses of memory instructions) from a
// WarpOracle that a workload model implements from its parameters.
//
// Divergence follows the convergence barriers the compiler placed: BSSY records the active lanes
// that must reconverge, a branch that splits the warp runs the fall-through lanes first and parks
// the taken lanes, and BSYNC releases the warp only when every member lane arrived (or exited),
// as a SIMT stack does. Constant-bank loads (LDC, ULDC: c[bank][offset]) get their address from
// the operand text. Left out: indirect branches (BRX/JMX), CALL/RET, and independent thread
// scheduling's interleaving of diverged paths (paths run one after the other).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "traces/builder.h"
#include "traces/lane_mask.h"
#include "workloads/sass_listing.h"

namespace warpsim::workloads {

/// The dynamic facts a listing cannot give, supplied by a workload model for one warp.
class WarpOracle {
 public:
  virtual ~WarpOracle() = default;
  /// Lanes of `active` whose guard predicate register (inst.guard, before any '!') is true at the
  /// `visit`-th execution (0-based) of `inst` by this warp. Lanes whose value the oracle cannot
  /// tell go to `unknown` (initially 0); they execute the instruction whatever its negation.
  virtual traces::LaneMask predicate(const SassInstruction& inst, uint32_t visit,
                                     traces::LaneMask active, traces::LaneMask& unknown) = 0;
  /// Addresses of the active lanes of global, shared or local memory instruction `inst` at its
  /// `visit`-th execution: out[lane] for each lane set in `active`.
  virtual void addresses(const SassInstruction& inst, uint32_t visit, traces::LaneMask active,
                         std::span<uint64_t, 32> out) = 0;
  /// Called after `inst` executed on the lanes of `exec` (an emulating oracle updates its
  /// registers here). The default does nothing.
  virtual void executed(const SassInstruction& inst, uint32_t visit, traces::LaneMask exec) {
    (void)inst, (void)visit, (void)exec;
  }
};

/// Limits that turn a runaway oracle into an error instead of a hang.
struct WalkLimits {
  uint64_t max_instructions = 100'000'000;  ///< Dynamic instructions per warp.
};

/// Where one warp's walk stands between calls, so that its stream can be generated in pieces.
struct WalkState {
  /// A convergence-barrier frame (BSSY) or a parked path waiting to run.
  struct StackEntry {
    bool is_barrier = false;
    traces::LaneMask arrived = 0;  ///< Barrier: lanes that reached its BSYNC.
    size_t resume_index = 0;       ///< Parked path: where it resumes; barrier: after the BSYNC.
    traces::LaneMask mask = 0;     ///< Parked path: its lanes.
  };
  std::vector<uint32_t> visits;     ///< Executions so far, per static instruction.
  std::vector<StackEntry> stack;
  traces::LaneMask active = 0;      ///< Lanes on the path being walked.
  size_t index = 0;                 ///< Static instruction the path is at.
  uint64_t emitted = 0;             ///< Dynamic instructions so far.
  bool done = false;                ///< The warp has nothing left to run.
};

/// Walks one function for many warps. Interning and classification happen once per static
/// instruction at construction; a walk appends plain WarpInstructions to a WarpTrace.
class SassWalker {
 public:
  /// Interns every mnemonic of `function` into `opcodes` (which must outlive the walker).
  SassWalker(const SassFunction& function, traces::OpcodeTable& opcodes, WalkLimits limits = {});

  /// Appends warp `warp`'s dynamic stream, walking from PC 0 with `initial_mask` active lanes.
  /// Throws InputError naming the function and PC on a branch to a missing PC, a BSYNC without
  /// its BSSY, or more than limits.max_instructions instructions.
  void walk(traces::LaneMask initial_mask, WarpOracle& oracle, traces::WarpTrace& warp) const;

  /// Puts `state` at PC 0 with `initial_mask` active lanes.
  void start(traces::LaneMask initial_mask, WalkState& state) const;

  /// Appends the next instructions of the walk in `state`, at most `max_instructions` of them;
  /// returns true when the warp has more to run. `oracle` must be the one this warp's walk began
  /// with (its registers carry over). Throws as walk() does.
  bool walk_some(WalkState& state, WarpOracle& oracle, traces::WarpTrace& warp,
                 uint64_t max_instructions) const;

  const SassFunction& function() const { return function_; }

 private:
  const SassFunction& function_;
  WalkLimits limits_;
  std::vector<traces::OpcodeId> ids_;                  // per static instruction
  std::vector<const traces::OpcodeInfo*> infos_;      // per static instruction
  std::vector<size_t> targets_;                        // branch/BSSY target index, or SIZE_MAX
  std::vector<uint8_t> kinds_;                         // control-flow kind per instruction
  std::vector<uint64_t> constant_addresses_;           // c[bank][offset] operand, per instruction
};

}  // namespace warpsim::workloads
