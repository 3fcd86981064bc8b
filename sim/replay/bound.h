// An analytical, roofline-style bound of a replayed kernel on an architecture: the SM cycles each
// resource needs at its peak rate — instruction issue (all warps, and one warp's own stream at
// one instruction per cycle), each functional-unit pipe, the tensor cores (FLOPs from the MMA
// shape and data type), shared-memory wavefronts, L1 sectors, L2
// bandwidth and HBM bandwidth — and the largest of them, which names the bottleneck. A lower
// bound: it leaves out latency, occupancy and queueing (the cycle model's job).
#pragma once

#include <string>
#include <vector>

#include "arch/arch.pb.h"
#include "sim/replay/replay_plan.h"
#include "traces/ncu/profile.h"

namespace warpsim::replay {

/// One resource's time at its peak rate.
struct BoundTerm {
  std::string resource;  ///< "issue", "warp issue", "pipe fp32", "tensor bf16", "shared", "l1",
                         ///< "l2", "dram".
  double cycles = 0;     ///< SM cycles at the architecture's SM clock.
};

/// The bound and its terms.
struct Bound {
  std::vector<BoundTerm> terms;  ///< Every resource the kernel uses.
  std::string bottleneck;        ///< The resource of the largest term.
  double cycles = 0;             ///< The largest term, SM cycles.
  double ns = 0;                 ///< The same in nanoseconds.
};

/// The bound of `plan` (work counted over the whole grid; DRAM and L2 traffic as `profile`
/// measured them) on `spec`.
Bound analytical_bound(const ReplayPlan& plan, const traces::ncu::KernelProfile& profile,
                       const arch::Spec& spec);

}  // namespace warpsim::replay
