// The simulated GPU: the engine with its clock domains, the SMs (issue core and memory pipeline
// each), the memory system, and the CTA dispatcher, assembled from a GpuConfig, and the loop that
// simulates a stream of kernels and reports each with Nsight Compute's metric names.
//
// Each kernel runs on a freshly built GPU, so caches start cold as they do under ncu's
// --cache-control all (the default of warpsim's descriptions). With launch.cache_start WARM the
// L2 (and memory-side cache) slices hand their contents, dirty lines and replacement state
// included, from one kernel to the next, as under --cache-control none; L1s start empty, as the
// hardware invalidates them between kernels. Kernels of one run are simulated in order; the launch
// overhead between them is reported, not simulated as idle time.
//
// Left out: concurrent kernels and streams, chiplet topologies (see gpu_config.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/gpu/cta_log.h"
#include "sim/gpu/gpu_config.h"
#include "sim/gpu/source_profile.h"
#include "sim/gpu/timeline.h"
#include "sim/stats/report.h"
#include "traces/kernel_source.h"

namespace warpsim::gpu {

/// Progress of a run, for a progress bar.
struct RunProgress {
  std::uint64_t kernels_done = 0;
  std::uint64_t ctas_retired = 0;
  std::uint64_t ctas_total = 0;
  std::uint64_t simulated_cycles = 0;
  std::uint64_t warp_instructions = 0;
};

struct SimulationOptions {
  unsigned threads = 1;  ///< Host threads for the engine's evaluate phase.
  /// No progress for this many SM cycles while work remains fails the run (exit 3).
  std::uint64_t watchdog_cycles = 50'000'000;
  Timeline* timeline = nullptr;                        ///< Records events when set.
  SourceProfile* source_profile = nullptr;  ///< Records each PC's issues and stalls when set.
  CtaLog* cta_log = nullptr;  ///< Records each CTA's SM, launch and retirement when set.
  std::function<void(const RunProgress&)> progress{};  ///< Called every progress_cycles.
  std::uint64_t progress_cycles = 2'000'000;
  /// Instructions of a warp generated at a time where the source can stream warps (workload
  /// models): a resident warp holds about this many (64 B each, plus their lane addresses)
  /// however long it runs. 0 asks for whole warps. The results do not depend on it.
  std::uint32_t warp_piece_instructions = 512;
};

/// Simulates every kernel of `source`; returns one report per kernel (metrics and stats).
/// Throws InputError for kernels the configuration cannot run (occupancy, unknown matrix shapes)
/// and InternalError when the watchdog fires.
std::vector<stats::KernelReport> simulate(const GpuConfig& config, traces::KernelSource& source,
                                          const SimulationOptions& options,
                                          std::uint64_t* warp_instructions = nullptr);

}  // namespace warpsim::gpu
