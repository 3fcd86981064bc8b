// The configuration of every simulated unit, derived from one architecture description
// (arch::Spec): the SM issue core, the SM memory pipeline (LSU, MIO, L1), the memory system (NoC,
// L2 slices, HBM channels), the clock domains and the kernel-launch overhead. The derivation is
// the one place where the description's load-to-use latencies (what microbenchmarks measure) are
// split into the per-unit latencies the models chain together.
//
// Chiplets: dies.count > 1 splits SMs, L2 slices and channels into dies joined by links
// (dies.link_*), with one home per line across the dies (l2.die_scope "shared": B200) or one L2
// per die (die_scope "per_die": MI300X XCDs); a memory_side_cache puts one slice in front of each
// channel (MI300X Infinity Cache). See sim/mem/memory_system.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.pb.h"
#include "sim/core/cta_dispatcher.h"
#include "sim/core/sm_config.h"
#include "sim/core/sm_memory_config.h"
#include "sim/mem/dram_background.h"
#include "sim/mem/memory_system.h"

namespace warpsim::gpu {

struct GpuConfig {
  std::string name;       ///< "H200"
  int sms = 0;
  double sm_mhz = 0;      ///< SM clock domain
  double l2_mhz = 0;      ///< L2 / NoC clock domain
  double memory_mhz = 0;  ///< DRAM command clock: half the pin data rate (double data rate)
  core::SmConfig sm;
  core::SmMemoryConfig sm_memory;  ///< sm_id is set per SM by the assembly
  mem::MemorySystemConfig memory;
  core::DispatcherConfig dispatch;
  mem::DramBackground dram_background;  ///< the GPU's own DRAM bytes during a kernel (hbm.background_*)
  bool warm_caches = false;           ///< launch.cache_start == WARM
  std::vector<std::string> warnings;  ///< Approximations applied to this description.
};

/// Builds the configuration from a resolved, checked description. Throws InputError naming the
/// field when a value the models need is missing or out of range.
GpuConfig gpu_config_from_spec(const arch::Spec& spec);

}  // namespace warpsim::gpu
