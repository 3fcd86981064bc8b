#include "sim/stats/ncu_catalogue.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

namespace warpsim::stats {
namespace {

struct Row {
  const char* name;
  const char* unit;
  const char* label;
  Section section;
  const char* meaning;
};

using S = Section;

// Units are those of `ncu --csv --page raw --print-units base` (ncu 2025.3, H200). The HMMA and
// GMMA instruction counts and the stall latencies were not in that export; their units follow ncu's
// naming (instruction counts in "inst", latencies in "cycle").
constexpr Row kRows[] = {
    // GPU Speed Of Light Throughput
    {"dram__cycles_elapsed.avg.per_second", "hz", "DRAM Frequency", S::kSpeedOfLight,
     "DRAM clock frequency"},
    {"gpc__cycles_elapsed.avg.per_second", "hz", "SM Frequency", S::kSpeedOfLight,
     "GPC (SM) clock frequency"},
    {"gpc__cycles_elapsed.max", "cycle", "Elapsed Cycles", S::kSpeedOfLight,
     "kernel duration in SM clock cycles (the slowest GPC)"},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "%", "Memory Throughput",
     S::kSpeedOfLight, "busiest memory unit's throughput relative to its peak"},
    {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "%", "DRAM Throughput",
     S::kSpeedOfLight, "DRAM throughput relative to peak over the elapsed time"},
    {"gpu__time_duration.sum", "ns", "Duration", S::kSpeedOfLight, "kernel duration in time"},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active", "%", "L1/TEX Cache Throughput",
     S::kSpeedOfLight, "L1/TEX throughput relative to peak over its active cycles"},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed", "%", "L2 Cache Throughput",
     S::kSpeedOfLight, "L2 throughput relative to peak over the elapsed time"},
    {"sm__cycles_active.avg", "cycle", "SM Active Cycles", S::kSpeedOfLight,
     "cycles with at least one warp resident, averaged over SMs"},
    {"sm__cycles_active.max", "cycle", "SM Active Cycles Max", S::kSpeedOfLight,
     "cycles with at least one warp resident, on the busiest SM (the tail's length)"},
    {"sm__cycles_active.min", "cycle", "SM Active Cycles Min", S::kSpeedOfLight,
     "cycles with at least one warp resident, on the least busy SM"},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", "Compute (SM) Throughput",
     S::kSpeedOfLight, "busiest SM unit's throughput relative to its peak"},
    {"sm__cycles_elapsed.avg", "cycle", "SM Elapsed Cycles", S::kSpeedOfLight,
     "elapsed SM clock cycles, averaged over SMs"},
    // Compute Workload Analysis
    {"sm__inst_executed.avg.per_cycle_active", "inst/cycle", "Executed Ipc Active",
     S::kComputeWorkload, "warp instructions executed per active cycle, per SM (max 4)"},
    {"sm__inst_executed.avg.per_cycle_elapsed", "inst/cycle", "Executed Ipc Elapsed",
     S::kComputeWorkload, "warp instructions executed per elapsed cycle, per SM"},
    {"sm__inst_issued.avg.per_cycle_active", "inst/cycle", "Issued Ipc Active", S::kComputeWorkload,
     "warp instructions issued per active cycle, per SM"},
    {"smsp__issue_active.avg.pct_of_peak_sustained_active", "%", "Issue Slots Busy",
     S::kComputeWorkload, "share of active cycles in which a scheduler issued"},
    {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "%",
     "Tensor Pipe Active", S::kComputeWorkload,
     "cycles the tensor pipe was busy with HMMA or HGMMA, relative to active cycles"},
    {"sm__inst_executed_pipe_tensor_op_hmma.sum", "inst", "Tensor HMMA Instructions",
     S::kComputeWorkload, "warp-level mma.sync (HMMA) instructions executed"},
    {"sm__inst_executed_pipe_tensor_op_gmma.sum", "inst", "Tensor GMMA Instructions",
     S::kComputeWorkload, "warpgroup wgmma (HGMMA) instructions executed"},
    // Memory Workload Analysis
    {"dram__bytes.sum.per_second", "byte/s", "Memory Throughput", S::kMemoryWorkload,
     "DRAM bytes transferred per second"},
    {"dram__bytes_read.sum", "byte", "DRAM Bytes Read", S::kMemoryWorkload, "bytes read from DRAM"},
    {"dram__bytes_write.sum", "byte", "DRAM Bytes Written", S::kMemoryWorkload,
     "bytes written to DRAM"},
    {"dram__sectors_read.sum", "sector", "DRAM Sectors Read", S::kMemoryWorkload,
     "32-byte sectors read from DRAM"},
    {"dram__sectors_write.sum", "sector", "DRAM Sectors Written", S::kMemoryWorkload,
     "32-byte sectors written to DRAM"},
    {"l1tex__t_sector_hit_rate.pct", "%", "L1/TEX Hit Rate", S::kMemoryWorkload,
     "L1/TEX sector lookups that hit"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "", "L1 Global Load Requests",
     S::kMemoryWorkload, "global load requests (one per warp instruction) to L1/TEX"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.max", "", "L1 Global Load Requests Max",
     S::kMemoryWorkload, "global load requests of the SM with the most (how evenly CTAs spread)"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.min", "", "L1 Global Load Requests Min",
     S::kMemoryWorkload, "global load requests of the SM with the fewest"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "", "L1 Global Store Requests",
     S::kMemoryWorkload, "global store requests (one per warp instruction) to L1/TEX"},
    {"l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "byte", "TMA Load Bytes",
     S::kMemoryWorkload, "bytes TMA copies (UTMALDG, UBLKCP) read from global memory"},
    {"l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", "byte", "TMA Store Bytes",
     S::kMemoryWorkload, "bytes TMA copies (UTMASTG) write to global memory"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector", "L1 Global Load Sectors",
     S::kMemoryWorkload, "sectors requested by global loads at L1/TEX"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "sector",
     "L1 Global Load Sector Hits", S::kMemoryWorkload, "global load sectors that hit in L1/TEX"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "sector",
     "L1 Global Load Sector Misses", S::kMemoryWorkload,
     "global load sectors that missed in L1/TEX"},
    {"lts__t_sector_hit_rate.pct", "%", "L2 Hit Rate", S::kMemoryWorkload,
     "L2 sector lookups that hit"},
    {"lts__t_sector_op_read_hit_rate.pct", "%", "L2 Read Hit Rate", S::kMemoryWorkload,
     "L2 read sector lookups that hit"},
    {"lts__t_sector_op_write_hit_rate.pct", "%", "L2 Write Hit Rate", S::kMemoryWorkload,
     "L2 write sector lookups that hit (ncu can report over 100)"},
    {"lrc__request_sectors_op_read_coalescable.sum", "sector", "L2 Coalescable Read Sectors",
     S::kMemoryWorkload, "read sectors arriving at the L2 request coalescers"},
    {"lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", "sector",
     "L2 Coalesced Read Sectors", S::kMemoryWorkload,
     "read sectors that joined a read in flight instead of an L2 lookup"},
    {"lts__t_sectors_srcunit_tex_op_read.sum", "sector", "L2 Read Sectors From SMs",
     S::kMemoryWorkload, "read sectors from the SMs looked up in L2 (after the coalescer)"},
    {"lts__t_sectors.sum", "sector", "L2 Sectors", S::kMemoryWorkload,
     "sectors accessed in L2 (all sources and operations)"},
    {"lts__t_sectors_lookup_hit.sum", "sector", "L2 Sector Hits", S::kMemoryWorkload,
     "L2 sector lookups that hit"},
    {"lts__t_sectors_lookup_miss.sum", "sector", "L2 Sector Misses", S::kMemoryWorkload,
     "L2 sector lookups that missed"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "", "Shared Wavefronts", S::kMemoryWorkload,
     "shared-memory data wavefronts (all operations)"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "", "Shared Load Wavefronts",
     S::kMemoryWorkload, "shared-memory load wavefronts"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "", "Shared Store Wavefronts",
     S::kMemoryWorkload, "shared-memory store wavefronts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "", "Shared Bank Conflicts",
     S::kMemoryWorkload, "shared-memory bank conflicts (all operations)"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "", "Shared Load Bank Conflicts",
     S::kMemoryWorkload, "extra wavefronts of shared loads caused by bank conflicts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "", "Shared Store Bank Conflicts",
     S::kMemoryWorkload, "extra wavefronts of shared stores caused by bank conflicts"},
    {"derived__memory_l1_wavefronts_shared_excessive", "", "Shared Excessive Wavefronts",
     S::kMemoryWorkload, "shared wavefronts beyond the ideal of each access (bank conflicts)"},
    // Scheduler Statistics
    {"smsp__maximum_warps_avg_per_active_cycle", "warp", "Theoretical Warps Per Scheduler",
     S::kScheduler, "warps a scheduler could hold under the occupancy limits"},
    {"smsp__warps_active.avg.per_cycle_active", "warp", "Active Warps Per Scheduler", S::kScheduler,
     "resident warps per scheduler per active cycle"},
    {"smsp__warps_eligible.avg.per_cycle_active", "warp", "Eligible Warps Per Scheduler",
     S::kScheduler, "warps ready to issue per scheduler per active cycle"},
    {"smsp__issue_active.avg.per_cycle_active", "", "Issued Warp Per Scheduler", S::kScheduler,
     "instructions issued per scheduler per active cycle"},
    // Warp State Statistics
    {"smsp__average_warp_latency_per_inst_issued.ratio", "cycle",
     "Warp Cycles Per Issued Instruction", S::kWarpState,
     "average cycles between two issued instructions of a warp"},
    {"smsp__average_warps_active_per_inst_executed.ratio", "cycle",
     "Warp Cycles Per Executed Instruction", S::kWarpState,
     "average cycles between two executed instructions of a warp"},
    {"smsp__thread_inst_executed_per_inst_executed.ratio", "", "Avg. Active Threads Per Warp",
     S::kWarpState, "SIMT efficiency: active threads per executed warp instruction (32 = none)"},
    {"smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", "",
     "Avg. Not Predicated Off Threads Per Warp", S::kWarpState,
     "threads with a true predicate per executed warp instruction"},
    // Instruction Statistics
    {"smsp__inst_executed.sum", "inst", "Executed Instructions", S::kInstruction,
     "warp instructions executed"},
    {"smsp__inst_executed.avg", "inst", "Avg. Executed Instructions Per Scheduler", S::kInstruction,
     "warp instructions executed, averaged over schedulers"},
    {"smsp__inst_executed.max", "inst", "Max Executed Instructions Per Scheduler", S::kInstruction,
     "warp instructions executed by the busiest scheduler"},
    {"smsp__inst_issued.sum", "inst", "Issued Instructions", S::kInstruction,
     "warp instructions issued (executed plus replays)"},
    {"smsp__inst_issued.avg", "inst", "Avg. Issued Instructions Per Scheduler", S::kInstruction,
     "warp instructions issued, averaged over schedulers"},
    {"smsp__sass_inst_executed_op_global_ld.sum", "inst", "Global Load Instructions",
     S::kInstruction, "global load warp instructions executed"},
    {"smsp__sass_inst_executed_op_global_st.sum", "inst", "Global Store Instructions",
     S::kInstruction, "global store warp instructions executed"},
    {"smsp__sass_inst_executed_op_shared_ld.sum", "inst", "Shared Load Instructions",
     S::kInstruction, "shared load warp instructions executed"},
    {"smsp__sass_inst_executed_op_shared_st.sum", "inst", "Shared Store Instructions",
     S::kInstruction, "shared store warp instructions executed"},
    // Launch Statistics
    {"launch__block_size", "", "Block Size", S::kLaunch, "threads per block"},
    {"launch__grid_size", "", "Grid Size", S::kLaunch, "blocks in the grid"},
    {"launch__registers_per_thread", "register/thread", "Registers Per Thread", S::kLaunch,
     "registers per thread as compiled"},
    {"launch__shared_mem_config_size", "byte", "Shared Memory Configuration Size", S::kLaunch,
     "shared-memory carve-out of each SM"},
    {"launch__shared_mem_per_block_driver", "byte/block", "Driver Shared Memory Per Block",
     S::kLaunch, "shared memory the driver reserves per block"},
    {"launch__shared_mem_per_block_dynamic", "byte/block", "Dynamic Shared Memory Per Block",
     S::kLaunch, "dynamic shared memory per block"},
    {"launch__shared_mem_per_block_static", "byte/block", "Static Shared Memory Per Block",
     S::kLaunch, "static shared memory per block"},
    {"launch__shared_mem_per_block", "byte/block", "Shared Memory Per Block", S::kLaunch,
     "shared memory per block, driver reservation included"},
    {"launch__sm_count", "SM", "# SMs", S::kLaunch, "SMs on the device"},
    {"launch__thread_count", "thread", "Threads", S::kLaunch, "threads in the grid"},
    {"launch__waves_per_multiprocessor", "", "Waves Per SM", S::kLaunch,
     "grid blocks divided by the blocks all SMs hold at once"},
    {"launch__cluster_dim_x", "", "Cluster Dimension X", S::kLaunch, "cluster size in x"},
    {"launch__cluster_dim_y", "", "Cluster Dimension Y", S::kLaunch, "cluster size in y"},
    {"launch__cluster_dim_z", "", "Cluster Dimension Z", S::kLaunch, "cluster size in z"},
    {"launch__cluster_size", "", "Cluster Size", S::kLaunch, "blocks per cluster (0: none)"},
    // Occupancy
    {"launch__occupancy_limit_barriers", "block", "Block Limit Barriers", S::kOccupancy,
     "blocks per SM allowed by barriers"},
    {"launch__occupancy_limit_blocks", "block", "Block Limit SM", S::kOccupancy,
     "blocks per SM allowed by the block-slot limit"},
    {"launch__occupancy_limit_registers", "block", "Block Limit Registers", S::kOccupancy,
     "blocks per SM allowed by the register file"},
    {"launch__occupancy_limit_shared_mem", "block", "Block Limit Shared Mem", S::kOccupancy,
     "blocks per SM allowed by shared memory"},
    {"launch__occupancy_limit_warps", "block", "Block Limit Warps", S::kOccupancy,
     "blocks per SM allowed by the warp-slot limit"},
    {"sm__maximum_warps_avg_per_active_cycle", "warp", "Theoretical Active Warps per SM",
     S::kOccupancy, "warps per SM allowed by the occupancy limits"},
    {"sm__maximum_warps_per_active_cycle_pct", "%", "Theoretical Occupancy", S::kOccupancy,
     "theoretical active warps relative to the SM's warp slots"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "%", "Achieved Occupancy", S::kOccupancy,
     "resident warps per active cycle relative to the SM's warp slots"},
    {"sm__warps_active.avg.per_cycle_active", "warp", "Achieved Active Warps Per SM", S::kOccupancy,
     "resident warps per SM per active cycle"},
    // GPU and Memory Workload Distribution
    {"dram__cycles_active.avg", "cycle", "Average DRAM Active Cycles", S::kWorkloadDistribution,
     "DRAM cycles with activity, averaged over DRAM units"},
    {"dram__cycles_elapsed.sum", "cycle", "Total DRAM Elapsed Cycles", S::kWorkloadDistribution,
     "DRAM clock cycles elapsed, summed over DRAM units"},
    {"l1tex__cycles_active.avg", "cycle", "Average L1 Active Cycles", S::kWorkloadDistribution,
     "L1/TEX cycles with activity, averaged over SMs"},
    {"l1tex__cycles_elapsed.sum", "cycle", "Total L1 Elapsed Cycles", S::kWorkloadDistribution,
     "L1/TEX cycles elapsed, summed over SMs"},
    {"lts__cycles_active.avg", "cycle", "Average L2 Active Cycles", S::kWorkloadDistribution,
     "L2 cycles with activity, averaged over slices"},
    {"lts__cycles_elapsed.sum", "cycle", "Total L2 Elapsed Cycles", S::kWorkloadDistribution,
     "L2 cycles elapsed, summed over slices"},
    {"sm__cycles_elapsed.sum", "cycle", "Total SM Elapsed Cycles", S::kWorkloadDistribution,
     "SM cycles elapsed, summed over SMs"},
    {"smsp__cycles_active.avg", "cycle", "Average SMSP Active Cycles", S::kWorkloadDistribution,
     "sub-partition cycles with a resident warp, averaged over SMSPs"},
    {"smsp__cycles_elapsed.sum", "cycle", "Total SMSP Elapsed Cycles", S::kWorkloadDistribution,
     "sub-partition cycles elapsed, summed over SMSPs"},
    // Source Counters
    {"smsp__inst_executed_op_branch.sum", "inst", "Branch Instructions", S::kSourceCounters,
     "branch warp instructions executed"},
    {"smsp__sass_average_branch_targets_threads_uniform.pct", "%", "Branch Efficiency",
     S::kSourceCounters, "branch targets taken uniformly by all active threads"},
    {"smsp__branch_targets_threads_divergent", "branches", "Divergent Branches", S::kSourceCounters,
     "branch targets on which the active threads diverged"},
};

struct Stall {
  std::string_view reason;
  const char* label;
  const char* meaning;
};

constexpr Stall kStalls[] = {
    {"barrier", "Barrier", "waiting for sibling warps at a block barrier"},
    {"branch_resolving", "Branch Resolving", "waiting for a branch target to be computed"},
    {"dispatch_stall", "Dispatch Stall", "the dispatcher could not issue the chosen instruction"},
    {"drain", "Drain", "waiting after EXIT for outstanding memory writes to drain"},
    {"gmma", "GMMA", "waiting for warpgroup MMA (wgmma) resources"},
    {"imc_miss", "IMC Miss", "waiting for an immediate-constant cache miss"},
    {"lg_throttle", "LG Throttle", "the local/global memory instruction queue was full"},
    {"long_scoreboard", "Long Scoreboard",
     "waiting for an L1TEX result (global, local, surface, texture)"},
    {"math_pipe_throttle", "Math Pipe Throttle", "the instruction's math pipe was busy"},
    {"membar", "Membar", "waiting at a memory barrier"},
    {"mio_throttle", "MIO Throttle",
     "the MIO queue (shared memory, special math, dynamic branches) was full"},
    {"misc", "Misc", "a reason not listed separately"},
    {"no_instruction", "No Instruction", "no fetched instruction was available"},
    {"not_selected", "Not Selected", "eligible, but another warp was selected"},
    {"selected", "Selected", "selected: the cycle of the issue itself"},
    {"short_scoreboard", "Short Scoreboard",
     "waiting for an MIO result (shared memory, special math)"},
    {"sleeping", "Sleeping", "all threads of the warp were sleeping or blocked"},
    {"tex_throttle", "Tex Throttle", "the texture unit's queue was full"},
    {"wait", "Wait", "waiting out a fixed-latency dependency"},
};

constexpr std::array<std::string_view, std::size(kStalls)> stall_reason_names() {
  std::array<std::string_view, std::size(kStalls)> names{};
  for (std::size_t i = 0; i < std::size(kStalls); ++i) names[i] = kStalls[i].reason;
  return names;
}

constexpr auto kStallReasons = stall_reason_names();

constexpr Section kSections[] = {
    S::kSpeedOfLight,   S::kComputeWorkload, S::kMemoryWorkload,
    S::kScheduler,      S::kWarpState,       S::kInstruction,
    S::kLaunch,         S::kOccupancy,       S::kWorkloadDistribution,
    S::kSourceCounters,
};

std::vector<NcuMetric> build_catalogue() {
  std::vector<NcuMetric> out;
  for (const Row& row : kRows) {
    out.push_back({row.name, row.unit, row.label, row.section, row.meaning});
  }
  for (const Stall& stall : kStalls) {
    const std::string reason(stall.reason);
    out.push_back({"smsp__average_warp_latency_issue_stalled_" + reason, "cycle",
                   std::string("Stall ") + stall.label, S::kWarpState,
                   std::string("warp cycles per issued instruction stalled: ") + stall.meaning});
    out.push_back({"smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio",
                   "inst", std::string("Stall ") + stall.label + " Per Issue", S::kWarpState,
                   std::string("warps stalled per issue-active cycle: ") + stall.meaning});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const NcuMetric& a, const NcuMetric& b) { return a.section < b.section; });
  return out;
}

}  // namespace

std::span<const Section> all_sections() { return kSections; }

std::string_view section_title(Section section) {
  switch (section) {
    case S::kSpeedOfLight:
      return "GPU Speed Of Light Throughput";
    case S::kComputeWorkload:
      return "Compute Workload Analysis";
    case S::kMemoryWorkload:
      return "Memory Workload Analysis";
    case S::kScheduler:
      return "Scheduler Statistics";
    case S::kWarpState:
      return "Warp State Statistics";
    case S::kInstruction:
      return "Instruction Statistics";
    case S::kLaunch:
      return "Launch Statistics";
    case S::kOccupancy:
      return "Occupancy";
    case S::kWorkloadDistribution:
      return "GPU and Memory Workload Distribution";
    case S::kSourceCounters:
      return "Source Counters";
  }
  return "Other";
}

const std::vector<NcuMetric>& ncu_catalogue() {
  static const std::vector<NcuMetric> catalogue = build_catalogue();
  return catalogue;
}

const NcuMetric* find_ncu_metric(std::string_view name) {
  static const std::unordered_map<std::string_view, const NcuMetric*> index = [] {
    std::unordered_map<std::string_view, const NcuMetric*> map;
    for (const NcuMetric& metric : ncu_catalogue()) map.emplace(metric.name, &metric);
    return map;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

std::span<const std::string_view> stall_reasons() { return kStallReasons; }

std::string_view canonical_unit(std::string_view unit) {
  if (unit == "nsecond") return "ns";
  if (unit == "usecond") return "us";
  if (unit == "msecond") return "ms";
  if (unit == "second") return "s";
  return unit;
}

}  // namespace warpsim::stats
