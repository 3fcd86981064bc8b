// A column of L2 slices ticked as one component: the slice with the same index in each partition
// (NVIDIA's two-partition L2 with near-partition copies, l2_slice.h). The slices look into and
// install copies in each other's tag arrays; ticking them in one component, in partition order,
// keeps that deterministic whatever the thread count, since the engine evaluates components in
// parallel.
//
// The group is the engine component (registered, woken by the slices' ports, which are created
// with the group as their endpoint); the slices are plain members it ticks. Each slice keeps its
// own ports, lookup bandwidth, MSHRs and counters, so the timing equals that of separate slices.
//
// Left out: nothing beyond the slices themselves.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sim/engine/component.h"
#include "sim/mem/l2_slice.h"

namespace warpsim::mem {

/// Ticks the slices of one column (not owned; they must outlive the group).
class L2SliceGroup final : public engine::Component {
 public:
  /// `column`: one slice per partition, in partition order. Wires each slice's column.
  L2SliceGroup(std::string name, const engine::ClockDomain& domain, std::vector<L2Slice*> column);

  engine::Cycle tick(engine::Cycle now) override;
  bool busy() const override;
  void dump_state(std::ostream& out) const override;

 private:
  std::vector<L2Slice*> column_;
};

}  // namespace warpsim::mem
