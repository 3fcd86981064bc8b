#include "sim/core/functional_unit.h"

#include <algorithm>
#include <cmath>

namespace warpsim::core {

FixedCycles to_fixed(double cycles) {
  return static_cast<FixedCycles>(std::llround(cycles * static_cast<double>(kFixedOne)));
}

FunctionalUnits::FunctionalUnits(const SmConfig& config) {
  for (std::size_t c = 0; c < counts_.size(); ++c) {
    counts_[c] = std::clamp(config.units[c].units_per_smsp, 1, kMaxUnitsPerClass);
  }
}

void FunctionalUnits::reset() {
  for (auto& units : next_free_) units.fill(0);
}

void FunctionalUnits::issue(int op_class, engine::Cycle now, FixedCycles interval) {
  const auto c = static_cast<std::size_t>(op_class);
  int best = 0;
  for (int u = 1; u < counts_[c]; ++u) {
    if (next_free_[c][u] < next_free_[c][best]) best = u;
  }
  FixedCycles& unit = next_free_[c][best];
  // A unit idle for less than a cycle keeps its fractional position (exact average rates).
  const FixedCycles start = now * kFixedOne;
  const FixedCycles base = unit + kFixedOne > start ? unit : start;
  unit = base + interval;
}

}  // namespace warpsim::core
