// The functional units of one SM sub-partition (SMSP): per operation class, `units_per_smsp`
// pipelines, each free again `initiation_interval` cycles after it accepted a warp instruction.
// A warp whose next instruction finds every unit of its class busy is not eligible (ncu's
// math_pipe_throttle for arithmetic pipes; the memory pipes report mio/lg/tex throttles).
//
// Busy times are kept in fixed point (1/65536 cycle) so that fractional initiation intervals
// (a Tensor Core running at 62.9 % of its peak) sustain their exact average rate: a unit that
// was busy until a fraction of a cycle ago continues from where it was, not from the issue cycle.
//
// Left out: result-bus (write-back) conflicts and operand-collector bank conflicts.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "sim/core/sm_config.h"
#include "sim/engine/clock_domain.h"

namespace warpsim::core {

/// Fixed-point cycles: 1 cycle = kFixedOne.
using FixedCycles = std::uint64_t;
/// One cycle in FixedCycles.
inline constexpr FixedCycles kFixedOne = 1u << 16;

/// Converts a (possibly fractional) cycle count to FixedCycles, rounding to nearest.
FixedCycles to_fixed(double cycles);

/// The units of one SMSP.
class FunctionalUnits {
 public:
  /// Units as `config` describes them.
  explicit FunctionalUnits(const SmConfig& config);

  /// Makes every unit free.
  void reset();

  /// The first cycle ≥ `now` at which a unit of class `op_class` is free.
  engine::Cycle free_at(int op_class, engine::Cycle now) const;

  /// True when a unit of `op_class` can accept an instruction at `now`.
  bool can_issue(int op_class, engine::Cycle now) const { return free_at(op_class, now) == now; }

  /// Occupies the earliest-free unit of `op_class` for `interval` (fixed point) from `now`.
  void issue(int op_class, engine::Cycle now, FixedCycles interval);

  /// Number of units of `op_class`.
  int units(int op_class) const { return counts_[static_cast<std::size_t>(op_class)]; }

 private:
  std::array<std::array<FixedCycles, kMaxUnitsPerClass>, kOpClassCount> next_free_{};
  std::array<int, kOpClassCount> counts_{};
};

inline engine::Cycle FunctionalUnits::free_at(int op_class, engine::Cycle now) const {
  const auto c = static_cast<std::size_t>(op_class);
  FixedCycles earliest = next_free_[c][0];
  for (int u = 1; u < counts_[c]; ++u) earliest = std::min(earliest, next_free_[c][u]);
  const engine::Cycle cycle = (earliest + kFixedOne - 1) / kFixedOne;
  return std::max(cycle, now);
}

}  // namespace warpsim::core
