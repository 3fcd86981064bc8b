// Theoretical occupancy of one kernel on one SM: how many CTAs the SM can hold at once and which
// resource limits it, following the rules of CUDA's occupancy calculator
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor) and reporting the per-resource limits under
// Nsight Compute's names (launch__occupancy_limit_{registers,shared_mem,warps,blocks},
// sm__maximum_warps_per_active_cycle_pct).
//
// Fidelity: exact integer arithmetic of the calculator for sm_80 and later: registers allocated
// per warp in units of `register_allocation_unit`, the register file split evenly across the
// sub-partitions (a warp's registers live in one sub-partition), the per-CTA register check made
// as if every sub-partition received a warp, shared memory rounded up to the allocation unit
// after adding the per-CTA reservation of the driver, and the shared-memory carve-out chosen from
// a list of configurations. The carve-out the driver picks is the smallest configuration that
// lets shared memory hold as many CTAs as the other resources allow and is at least the driver's
// floor (default_min_carveout_bytes; the largest one when none does), or, with a preferred
// carve-out percentage, that preference rounded up to a configuration (raised to the CTA's needs
// when smaller).
//
// Left out: block barrier limits (launch__occupancy_limit_barriers), partitioned global caching
// of sm_5x/6x, cluster placement within a GPC (launch__occupancy_cluster_pct; a cluster size is
// only checked against the maximum), and achieved occupancy, which the SM model measures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpsim::core {

/// The per-SM resources that bound occupancy. Sizes in bytes, counts per SM unless named per CTA.
struct SmLimits {
  int warp_size = 32;                  ///< Threads per warp.
  int max_warps_per_sm = 64;           ///< Resident warp slots.
  int max_threads_per_sm = 2048;       ///< Resident threads.
  int max_ctas_per_sm = 32;            ///< CTA slots.
  int max_threads_per_cta = 1024;      ///< Largest legal CTA.
  int registers_per_sm = 65536;        ///< 32-bit registers in the register file.
  int max_registers_per_cta = 65536;   ///< Registers one CTA may hold (regsPerBlock).
  int max_registers_per_thread = 255;  ///< Largest legal per-thread register count.
  int register_allocation_unit = 256;  ///< Registers are given to a warp in multiples of this.
  int sub_partitions = 4;              ///< SMSPs; the register file is split evenly among them.
  std::int64_t shared_memory_per_sm_bytes = 0;             ///< Largest shared-memory carve-out.
  std::int64_t shared_memory_allocation_unit_bytes = 128;  ///< Rounding of a CTA's allocation.
  std::int64_t reserved_shared_memory_per_cta_bytes = 0;   ///< Added by the driver (sm_80+: 1 KiB).
  std::int64_t max_shared_memory_per_cta_bytes = 0;  ///< Static + dynamic, without reservation.
  /// Carve-out configurations the driver chooses from, in bytes, ascending. Empty means the
  /// shared memory is fixed at shared_memory_per_sm_bytes.
  std::vector<std::int64_t> carveout_choices_bytes;
  /// The smallest carve-out the driver picks when the launch states no preference (bytes).
  std::int64_t default_min_carveout_bytes = 0;
  int max_cluster_size = 8;  ///< Largest thread-block cluster (CTAs).
};

/// What a kernel launch asks of each CTA.
struct KernelLaunch {
  int threads_per_cta = 0;                ///< Product of the block dimensions.
  int registers_per_thread = 0;           ///< launch__registers_per_thread.
  std::int64_t static_shared_bytes = 0;   ///< launch__shared_mem_per_block_static.
  std::int64_t dynamic_shared_bytes = 0;  ///< launch__shared_mem_per_block_dynamic.
  int cluster_size = 1;                   ///< CTAs per cluster; 0 or 1 means no cluster.
  int preferred_carveout_pct = -1;        ///< cudaFuncAttributePreferredSharedMemoryCarveout;
                                          ///< -1 lets the driver choose.
};

/// Bits of Occupancy::limiters: every resource whose limit equals the final CTA count.
enum OccupancyLimiter : std::uint32_t {
  kLimitWarps = 1u << 0,
  kLimitRegisters = 1u << 1,
  kLimitSharedMemory = 1u << 2,
  kLimitBlocks = 1u << 3,
};

/// Theoretical occupancy of one launch. Each limit_* is the number of CTAs per SM that resource
/// alone allows (a resource the kernel does not use reports max_ctas_per_sm).
struct Occupancy {
  int warps_per_cta = 0;                   ///< Threads per CTA rounded up to whole warps.
  int registers_per_warp = 0;              ///< Registers allocated to one warp.
  std::int64_t shared_bytes_per_cta = 0;   ///< launch__shared_mem_per_block_allocated.
  std::int64_t carveout_bytes = 0;         ///< launch__shared_mem_config_size.
  int limit_registers = 0;                 ///< launch__occupancy_limit_registers.
  int limit_shared_mem = 0;                ///< launch__occupancy_limit_shared_mem.
  int limit_warps = 0;                     ///< launch__occupancy_limit_warps.
  int limit_blocks = 0;                    ///< launch__occupancy_limit_blocks.
  int ctas_per_sm = 0;                     ///< The minimum of the four limits.
  int warps_per_sm = 0;                    ///< ctas_per_sm * warps_per_cta.
  double theoretical_occupancy_pct = 0.0;  ///< sm__maximum_warps_per_active_cycle_pct.
  std::uint32_t limiters = 0;              ///< OccupancyLimiter bits.
};

/// Checks `limits` for consistency; throws warpsim::InputError naming the offending field.
void validate_sm_limits(const SmLimits& limits);

/// Computes the theoretical occupancy of `launch` on an SM with `limits`. Throws
/// warpsim::InputError for an invalid SM description or a launch CUDA would refuse (too many
/// threads, registers or shared memory per CTA, a bad cluster size, or a CTA that cannot fit).
Occupancy compute_occupancy(const SmLimits& limits, const KernelLaunch& launch);

/// Names the bits of `limiters` ("warps", "registers", "shared_mem", "blocks"), joined by '+'.
std::string limiter_names(std::uint32_t limiters);

}  // namespace warpsim::core
