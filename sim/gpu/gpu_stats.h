// The statistics of one simulated kernel: every unit's counters registered with a stats::Registry
// under the component tree (gpu.sm[i]…, gpu.l2…, gpu.dram…), and the Nsight Compute metrics
// defined on them as formulas and roll-ups, so that a simulated column lines up with ncu's.
#pragma once

#include <memory>
#include <vector>

#include "sim/core/cta_dispatcher.h"
#include "sim/core/sm.h"
#include "sim/core/sm_memory_pipeline.h"
#include "sim/gpu/gpu_config.h"
#include "sim/mem/memory_system.h"
#include "sim/stats/report.h"
#include "traces/kernel_info.h"

namespace warpsim::gpu {

/// The report of kernel `info` after its simulation: metrics (ncu names) and stats. `at_end` are
/// `memory`'s counters when the kernel ended: its last CTA retired and its writes acknowledged
/// (Nsight Compute's range ends with the kernel; what the L2 and DRAM do after it is not counted).
stats::KernelReport kernel_report(const GpuConfig& config, const traces::KernelInfo& info,
                                  const core::KernelRecord& record,
                                  const std::vector<core::Sm*>& sms,
                                  const std::vector<std::unique_ptr<core::SmMemoryPipeline>>& pipelines,
                                  const mem::MemorySystem& memory,
                                  const mem::MemorySystemCounters& at_end);

}  // namespace warpsim::gpu
