#include "sim/core/occupancy.h"

#include <algorithm>
#include <string>

#include "arch/error.h"

namespace warpsim::core {
namespace {

std::int64_t round_up(std::int64_t value, std::int64_t unit) {
  return (value + unit - 1) / unit * unit;
}

std::int64_t divide_round_up(std::int64_t value, std::int64_t unit) {
  return (value + unit - 1) / unit;
}

[[noreturn]] void bad_limit(const char* field, const std::string& expected, std::int64_t got) {
  throw InputError("SM limits: field '" + std::string(field) + "' must be " + expected + " (got " +
                   std::to_string(got) + ")");
}

void require_positive(const char* field, std::int64_t value) {
  if (value <= 0) bad_limit(field, "positive", value);
}

[[noreturn]] void bad_launch(const std::string& what) {
  throw InputError("kernel launch: " + what);
}

// Smallest carve-out configuration of at least `bytes`; the largest carve-out when none is.
std::int64_t align_up_to_carveout(const SmLimits& limits, std::int64_t bytes) {
  for (std::int64_t choice : limits.carveout_choices_bytes) {
    if (choice >= bytes) return choice;
  }
  return limits.shared_memory_per_sm_bytes;
}

// CTAs per SM allowed by the register file alone; 0 when one CTA cannot fit.
int register_limit(const SmLimits& limits, const KernelLaunch& launch, int warps_per_cta,
                   std::int64_t registers_per_warp) {
  if (registers_per_warp == 0) return limits.max_ctas_per_sm;
  const std::int64_t allocated_per_cta = registers_per_warp * warps_per_cta;
  // The hardware's per-CTA check assumes every sub-partition receives the same number of warps.
  const std::int64_t assumed_per_cta =
      registers_per_warp * round_up(warps_per_cta, limits.sub_partitions);
  if (assumed_per_cta > limits.max_registers_per_cta ||
      allocated_per_cta > limits.max_registers_per_cta) {
    bad_launch(std::to_string(launch.registers_per_thread) + " registers per thread x " +
               std::to_string(warps_per_cta) + " warps need " + std::to_string(assumed_per_cta) +
               " registers per CTA (allocated per warp in units of " +
               std::to_string(limits.register_allocation_unit) + ", warps rounded up to " +
               std::to_string(limits.sub_partitions) + " sub-partitions), more than " +
               "max_registers_per_cta = " + std::to_string(limits.max_registers_per_cta));
  }
  const std::int64_t per_sub_partition = limits.registers_per_sm / limits.sub_partitions;
  const std::int64_t warps_per_sm = per_sub_partition / registers_per_warp * limits.sub_partitions;
  return static_cast<int>(warps_per_sm / warps_per_cta);
}

void validate_launch(const SmLimits& limits, const KernelLaunch& launch) {
  if (launch.threads_per_cta <= 0 || launch.threads_per_cta > limits.max_threads_per_cta) {
    bad_launch("threads_per_cta = " + std::to_string(launch.threads_per_cta) + ", expected 1.." +
               std::to_string(limits.max_threads_per_cta));
  }
  if (launch.registers_per_thread < 0 ||
      launch.registers_per_thread > limits.max_registers_per_thread) {
    bad_launch("registers_per_thread = " + std::to_string(launch.registers_per_thread) +
               ", expected 0.." + std::to_string(limits.max_registers_per_thread));
  }
  if (launch.static_shared_bytes < 0 || launch.dynamic_shared_bytes < 0) {
    bad_launch("shared memory sizes must not be negative (static " +
               std::to_string(launch.static_shared_bytes) + ", dynamic " +
               std::to_string(launch.dynamic_shared_bytes) + ")");
  }
  const std::int64_t shared = launch.static_shared_bytes + launch.dynamic_shared_bytes;
  if (shared > limits.max_shared_memory_per_cta_bytes) {
    bad_launch("static + dynamic shared memory = " + std::to_string(shared) +
               " bytes per CTA, more than max_shared_memory_per_cta_bytes = " +
               std::to_string(limits.max_shared_memory_per_cta_bytes));
  }
  if (launch.cluster_size < 0 || launch.cluster_size > limits.max_cluster_size) {
    bad_launch("cluster_size = " + std::to_string(launch.cluster_size) + ", expected 0.." +
               std::to_string(limits.max_cluster_size));
  }
  if (launch.preferred_carveout_pct < -1 || launch.preferred_carveout_pct > 100) {
    bad_launch("preferred_carveout_pct = " + std::to_string(launch.preferred_carveout_pct) +
               ", expected -1 (driver's choice) or 0..100");
  }
}

}  // namespace

void validate_sm_limits(const SmLimits& limits) {
  require_positive("warp_size", limits.warp_size);
  require_positive("max_warps_per_sm", limits.max_warps_per_sm);
  require_positive("max_threads_per_sm", limits.max_threads_per_sm);
  require_positive("max_ctas_per_sm", limits.max_ctas_per_sm);
  require_positive("max_threads_per_cta", limits.max_threads_per_cta);
  require_positive("registers_per_sm", limits.registers_per_sm);
  require_positive("max_registers_per_cta", limits.max_registers_per_cta);
  require_positive("max_registers_per_thread", limits.max_registers_per_thread);
  require_positive("register_allocation_unit", limits.register_allocation_unit);
  require_positive("sub_partitions", limits.sub_partitions);
  require_positive("shared_memory_allocation_unit_bytes",
                   limits.shared_memory_allocation_unit_bytes);
  require_positive("max_cluster_size", limits.max_cluster_size);
  if (limits.shared_memory_per_sm_bytes < 0) {
    bad_limit("shared_memory_per_sm_bytes", "non-negative", limits.shared_memory_per_sm_bytes);
  }
  if (limits.reserved_shared_memory_per_cta_bytes < 0) {
    bad_limit("reserved_shared_memory_per_cta_bytes", "non-negative",
              limits.reserved_shared_memory_per_cta_bytes);
  }
  if (limits.max_shared_memory_per_cta_bytes < 0 ||
      limits.max_shared_memory_per_cta_bytes > limits.shared_memory_per_sm_bytes) {
    bad_limit("max_shared_memory_per_cta_bytes", "between 0 and shared_memory_per_sm_bytes",
              limits.max_shared_memory_per_cta_bytes);
  }
  std::int64_t previous = -1;
  for (std::int64_t choice : limits.carveout_choices_bytes) {
    if (choice <= previous || choice > limits.shared_memory_per_sm_bytes) {
      bad_limit("carveout_choices_bytes",
                "strictly ascending and at most shared_memory_per_sm_bytes", choice);
    }
    previous = choice;
  }
}

Occupancy compute_occupancy(const SmLimits& limits, const KernelLaunch& launch) {
  validate_sm_limits(limits);
  validate_launch(limits, launch);

  Occupancy result;
  result.warps_per_cta =
      static_cast<int>(divide_round_up(launch.threads_per_cta, limits.warp_size));
  const int max_warps =
      std::min(limits.max_warps_per_sm, limits.max_threads_per_sm / limits.warp_size);
  result.limit_warps = max_warps / result.warps_per_cta;
  if (result.limit_warps == 0) {
    bad_launch(std::to_string(result.warps_per_cta) + " warps per CTA exceed the " +
               std::to_string(max_warps) + " warp slots of an SM");
  }
  result.limit_blocks = limits.max_ctas_per_sm;

  const std::int64_t registers_per_warp =
      round_up(std::int64_t{launch.registers_per_thread} * limits.warp_size,
               limits.register_allocation_unit);
  result.registers_per_warp = static_cast<int>(registers_per_warp);
  result.limit_registers = register_limit(limits, launch, result.warps_per_cta, registers_per_warp);

  const std::int64_t shared_per_cta =
      round_up(launch.static_shared_bytes + launch.dynamic_shared_bytes +
                   limits.reserved_shared_memory_per_cta_bytes,
               limits.shared_memory_allocation_unit_bytes);
  result.shared_bytes_per_cta = shared_per_cta;
  const int others = std::min({result.limit_warps, result.limit_registers, result.limit_blocks});
  if (launch.preferred_carveout_pct >= 0) {
    const std::int64_t preferred =
        launch.preferred_carveout_pct * limits.shared_memory_per_sm_bytes / 100;
    result.carveout_bytes = align_up_to_carveout(limits, std::max(preferred, shared_per_cta));
  } else {
    result.carveout_bytes = align_up_to_carveout(
        limits, std::max(limits.default_min_carveout_bytes, others * shared_per_cta));
  }
  result.limit_shared_mem = shared_per_cta == 0
                                ? limits.max_ctas_per_sm
                                : static_cast<int>(result.carveout_bytes / shared_per_cta);
  if (result.limit_shared_mem == 0) {
    bad_launch(std::to_string(shared_per_cta) +
               " bytes of shared memory per CTA (with the driver's reservation, rounded up) do "
               "not fit in shared_memory_per_sm_bytes = " +
               std::to_string(limits.shared_memory_per_sm_bytes));
  }

  result.ctas_per_sm = std::min(others, result.limit_shared_mem);
  result.warps_per_sm = result.ctas_per_sm * result.warps_per_cta;
  result.theoretical_occupancy_pct = 100.0 * result.warps_per_sm / max_warps;
  if (result.ctas_per_sm == result.limit_warps) result.limiters |= kLimitWarps;
  if (result.ctas_per_sm == result.limit_registers) result.limiters |= kLimitRegisters;
  if (result.ctas_per_sm == result.limit_shared_mem) result.limiters |= kLimitSharedMemory;
  if (result.ctas_per_sm == result.limit_blocks) result.limiters |= kLimitBlocks;
  return result;
}

std::string limiter_names(std::uint32_t limiters) {
  static constexpr struct {
    std::uint32_t bit;
    const char* name;
  } kNames[] = {{kLimitWarps, "warps"},
                {kLimitRegisters, "registers"},
                {kLimitSharedMemory, "shared_mem"},
                {kLimitBlocks, "blocks"}};
  std::string names;
  for (const auto& entry : kNames) {
    if ((limiters & entry.bit) == 0) continue;
    if (!names.empty()) names += '+';
    names += entry.name;
  }
  return names;
}

}  // namespace warpsim::core
