// A KernelSource that replays profiled kernels: for each ReplayPlan it streams the grid's CTAs,
// each warp executing every plan entry its share of the measured count (spread evenly over the
// grid's warps, or over its CTAs when the kernel has warpgroup-collective instructions; CTA
// barriers the same number of times in every warp). Neighbouring entries with
// the same count form a loop body that repeats its count before the next run of entries starts
// (the paths of a divergent branch run one after the other); each warp ends with EXIT. Active masks
// take the measured lanes per instruction; lane addresses reproduce the measured sectors and
// 128 B lines per request (ncu's L1 tag lookups), each entry's unique footprint (which gives the
// DRAM traffic and the reuse: neighbouring requests share sectors at the loads' L1 hit rate, a
// line's other sectors come round one window of the footprint walk later, within the kernel's
// 4 MiB reuse window, so that each line is fetched from DRAM once) and the shared-memory
// conflict degree. The walk numbers an entry's executions densely, wave by wave of the measured
// GPU and pass by pass within a wave, so warps that run together read neighbouring lines. Waits
// on asynchronous copies keep their count (DEPBAR.LE SB0, 0x3), and the waits measured before
// an instruction (PlanEntry::wait_cycles) become the stall count of the one emitted before it.
// TMA copies carry whole consecutive lines of their footprint in the trace's TMA fields. In a
// kernel with warpgroup-collective instructions the loops (runs) are merged pass by pass, since
// its roles run side by side. Left out: divergence order within a warp (paths are not
// interleaved), data-dependent addresses, reuse between different instructions (each entry has
// its own address region).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/replay/replay_plan.h"
#include "traces/kernel_source.h"

namespace warpsim::replay {

/// Appends warp `global_warp` (of `total_warps` in the grid, `lanes` threads) of `plan` to `warp`.
void build_warp(const ReplayPlan& plan, uint64_t global_warp, uint64_t total_warps, uint32_t lanes,
                traces::WarpTrace& warp);

/// Streams the plans' kernels in order.
class ProfileKernelSource final : public traces::KernelSource {
 public:
  ProfileKernelSource(std::vector<ReplayPlan> plans, std::string description);

  bool next_kernel(traces::KernelInfo& kernel) override;
  bool next_cta(traces::CtaTrace& cta) override;
  std::string describe() const override { return description_; }

 private:
  std::vector<ReplayPlan> plans_;
  std::string description_;
  size_t next_plan_ = 0;
  const ReplayPlan* current_ = nullptr;
  uint64_t next_cta_ = 0;
};

}  // namespace warpsim::replay
