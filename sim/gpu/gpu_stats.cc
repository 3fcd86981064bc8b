#include "sim/gpu/gpu_stats.h"

#include <cmath>
#include <string>

#include "sim/core/stall_reason.h"
#include "sim/stats/ncu_catalogue.h"
#include "sim/stats/registry.h"

namespace warpsim::gpu {
namespace {

using stats::Aggregate;
using stats::FormulaContext;

// Plain copies of every counter, alive while the registry reads them.
struct Counters {
  std::vector<core::SmCounters> sm;
  std::vector<core::SmMemoryCounters> sm_memory;
  std::vector<std::uint64_t> sm_inst;  // per SM: warp instructions over its SMSPs
  std::vector<std::uint64_t> sm_issue_active;
  std::vector<std::uint64_t> sm_stalls;  // [sm * kStallReasonCount + reason]
  mem::MemorySystemCounters memory;
  std::uint64_t elapsed = 0, ctas = 0, warps_active_sum = 0, cycles_active_sum = 0;
  std::uint64_t background_read = 0, background_written = 0;  // the GPU's own DRAM bytes
  std::uint64_t read_after_end = 0, written_after_end = 0;    // DRAM bytes after the kernel
  double duration_ns = 0, occupancy_pct = 0;
  double launch[12] = {};
};

void add_sm_counters(stats::Registry& r, Counters& c, int i) {
  const std::string p = "gpu.sm[" + std::to_string(i) + "].";
  core::SmCounters& s = c.sm[i];
  core::SmMemoryCounters& m = c.sm_memory[i];
  r.add_counter(p + "inst_executed", &c.sm_inst[i], "inst", "warp instructions issued");
  r.add_counter(p + "issue_active", &c.sm_issue_active[i], "cycle", "SMSP cycles with an issue");
  r.add_counter(p + "thread_inst_executed", &s.thread_inst_executed, "inst",
                "active threads summed over issued instructions");
  r.add_counter(p + "cycles_active", &s.cycles_active, "cycle", "cycles with a resident warp");
  r.add_counter(p + "warps_active", &s.warps_active_sum, "warp", "resident warps summed over cycles");
  r.add_counter(p + "ctas_retired", &s.ctas_retired, "block", "CTAs retired");
  for (int k = 0; k < core::kStallReasonCount; ++k) {
    r.add_counter(p + "stall." + std::string(core::stall_reason_name(static_cast<core::StallReason>(k))),
                  &c.sm_stalls[static_cast<size_t>(i) * core::kStallReasonCount + k], "cycle",
                  "warp-cycles charged to this stall reason");
  }
  r.add_counter(p + "l1.global_ld.requests", &m.global_ld.requests, "", "global load instructions");
  r.add_counter(p + "l1.global_ld.sectors", &m.global_ld.sectors, "sector", "global load sectors");
  r.add_counter(p + "l1.global_ld.hits", &m.global_ld.sector_hits, "sector", "sectors hit in L1");
  r.add_counter(p + "l1.global_st.requests", &m.global_st.requests, "", "global store instructions");
  r.add_counter(p + "l1.global_st.sectors", &m.global_st.sectors, "sector", "global store sectors");
  r.add_counter(p + "l1.global_st.hits", &m.global_st.sector_hits, "sector",
                "global store sectors hit in L1");
  r.add_counter(p + "l1.local_ld.sectors", &m.local_ld.sectors, "sector", "local load sectors");
  r.add_counter(p + "l1.local_ld.hits", &m.local_ld.sector_hits, "sector",
                "local load sectors hit in L1");
  r.add_counter(p + "l1.local_st.sectors", &m.local_st.sectors, "sector", "local store sectors");
  r.add_counter(p + "l1.local_st.hits", &m.local_st.sector_hits, "sector",
                "local store sectors hit in L1");
  r.add_counter(p + "tma.ld_bytes", &m.tma_ld_bytes, "byte", "TMA copy bytes, global to shared");
  r.add_counter(p + "tma.st_bytes", &m.tma_st_bytes, "byte", "TMA copy bytes, shared to global");
  r.add_counter(p + "shared.ld_wavefronts", &m.shared_ld_wavefronts, "", "shared load wavefronts");
  r.add_counter(p + "shared.st_wavefronts", &m.shared_st_wavefronts, "", "shared store wavefronts");
  r.add_counter(p + "shared.atom_wavefronts", &m.shared_atom_wavefronts, "",
                "shared atomic wavefronts");
  r.add_counter(p + "shared.tensor_wavefronts", &m.shared_tensor_wavefronts, "",
                "wgmma operand wavefronts read from shared memory");
  r.add_counter(p + "shared.ld_bank_conflicts", &m.shared_ld_bank_conflicts, "",
                "shared load bank conflicts (excess wavefronts)");
  r.add_counter(p + "shared.st_bank_conflicts", &m.shared_st_bank_conflicts, "",
                "shared store bank conflicts (excess wavefronts)");
}

}  // namespace

stats::KernelReport kernel_report(const GpuConfig& config, const traces::KernelInfo& info,
                                  const core::KernelRecord& record,
                                  const std::vector<core::Sm*>& sms,
                                  const std::vector<std::unique_ptr<core::SmMemoryPipeline>>& pipelines,
                                  const mem::MemorySystem& memory,
                                  const mem::MemorySystemCounters& at_end) {
  Counters c;
  const int n = static_cast<int>(sms.size());
  for (int i = 0; i < n; ++i) {
    c.sm.push_back(sms[i]->counters());
    c.sm_memory.push_back(pipelines[i]->counters());
    std::uint64_t issue_active = 0;
    for (auto v : c.sm.back().issue_active_cycles) issue_active += v;
    c.sm_inst.push_back(c.sm.back().total_issued());
    c.sm_issue_active.push_back(issue_active);
    for (int k = 0; k < core::kStallReasonCount; ++k) {
      c.sm_stalls.push_back(c.sm.back().stalls.warp_cycles[static_cast<size_t>(k)]);
    }
  }
  c.memory = at_end;
  const mem::DramCounters drained = memory.counters().dram;
  c.read_after_end = drained.bytes_read - at_end.dram.bytes_read;
  c.written_after_end = drained.bytes_written - at_end.dram.bytes_written;
  c.elapsed = record.elapsed();
  c.ctas = record.ctas;
  c.occupancy_pct = record.achieved_occupancy_pct();
  c.duration_ns = static_cast<double>(record.elapsed()) * 1000.0 / config.sm_mhz;
  c.background_read = static_cast<std::uint64_t>(
      std::llround(config.dram_background.read_bytes(c.duration_ns * 1e-9)));
  c.background_written = static_cast<std::uint64_t>(
      std::llround(config.dram_background.write_bytes(c.duration_ns * 1e-9)));

  stats::Registry r;
  for (int i = 0; i < n; ++i) add_sm_counters(r, c, i);
  r.add_counter("gpu.l2.sectors", &c.memory.l2.sectors, "sector", "L2 sectors looked up");
  r.add_counter("gpu.l2.sectors_hit", &c.memory.l2.sectors_hit, "sector", "L2 sectors hit");
  r.add_counter("gpu.l2.sectors_miss", &c.memory.l2.sectors_miss, "sector", "L2 sectors missed");
  r.add_counter("gpu.l2.requests", &c.memory.l2.requests, "", "L2 requests");
  r.add_counter("gpu.l2.coalescable_sectors", &c.memory.l2.coalescable_sectors, "sector",
                "read sectors arriving at the L2's request coalescers");
  r.add_counter("gpu.l2.coalesced_sectors", &c.memory.l2.coalesced_sectors, "sector",
                "read sectors that joined a read in flight instead of an L2 lookup");
  r.add_counter("gpu.l2.writeback_sectors", &c.memory.l2.writeback_sectors, "sector",
                "dirty sectors written back to DRAM");
  r.add_counter("gpu.l2.partial_read_sectors", &c.memory.l2.partial_reads, "sector",
                "sectors written in part, read from DRAM before their write-back");
  r.add_counter("gpu.l2.partial_lines_given_up", &c.memory.l2.partial_writebacks, "",
                "lines the partial-line record gave up (their partial sectors read and written back)");
  r.add_counter("gpu.dram.bytes_read", &c.memory.dram.bytes_read, "byte", "DRAM bytes read");
  r.add_counter("gpu.dram.bytes_written", &c.memory.dram.bytes_written, "byte", "DRAM bytes written");
  r.add_counter("gpu.dram.bytes_read_after_end", &c.read_after_end, "byte",
                "DRAM bytes read after the kernel's end (not counted: the L2's own fills)");
  r.add_counter("gpu.dram.bytes_written_after_end", &c.written_after_end, "byte",
                "DRAM bytes written after the kernel's end (not counted: write-backs queued)");
  r.add_counter("gpu.dram.background_bytes_read", &c.background_read, "byte",
                "DRAM bytes the GPU reads of its own accord during the kernel (hbm.background_*)");
  r.add_counter("gpu.dram.background_bytes_written", &c.background_written, "byte",
                "DRAM bytes the GPU writes of its own accord during the kernel (hbm.background_*)");
  r.add_counter("gpu.dram.activates", &c.memory.dram.activates, "", "row activations");
  r.add_counter("gpu.dram.row_hits", &c.memory.dram.row_hits, "", "requests that hit an open row");
  r.add_counter("gpu.dram.row_conflicts", &c.memory.dram.row_conflicts, "",
                "requests that found another row open");
  r.add_counter("gpu.dram.bus_busy_cycles", &c.memory.dram.bus_busy_cycles, "cycle",
                "data-bus cycles, summed over channels (DRAM clock)");
  r.add_counter("gpu.l2.stall_cycles", &c.memory.l2.stall_cycles, "cycle",
                "slice cycles with a request that could not be looked up, summed over slices");
  r.add_counter("gpu.l2.mshr_merges", &c.memory.l2.mshr_merges, "", "misses merged into an MSHR");
  r.add_counter("gpu.noc.request_credit_stalls", &c.memory.noc_requests.credit_stalls, "",
                "SM-to-L2 crossbar: (input, cycle) pairs blocked by a full output");
  r.add_counter("gpu.noc.response_credit_stalls", &c.memory.noc_responses.credit_stalls, "",
                "L2-to-SM crossbar: (input, cycle) pairs blocked by a full output");
  r.add_counter("gpu.mc.request_credit_stalls", &c.memory.mc_requests.credit_stalls, "",
                "L2-to-DRAM crossbar: (input, cycle) pairs blocked by a full output");
  r.add_counter("gpu.mc.response_credit_stalls", &c.memory.mc_responses.credit_stalls, "",
                "DRAM-to-L2 crossbar: (input, cycle) pairs blocked by a full output");
  r.add_counter("gpu.l2.evictions", &c.memory.l2.evictions, "",
                "valid lines evicted to make room, copies included");
  r.add_counter("gpu.l2.dirty_evictions", &c.memory.l2.dirty_evictions, "",
                "evicted lines that had dirty sectors (written back)");
  r.add_counter("gpu.l2.dirty_cleanings", &c.memory.l2.dirty_cleanings, "",
                "dirty lines written back and kept clean to respect l2.max_dirty_fraction");
  r.add_counter("gpu.l2.copy_hits", &c.memory.l2.copy_hits, "",
                "far-partition reads answered by a copy in the near partition");
  r.add_counter("gpu.l2.copy_fills", &c.memory.l2.copy_fills, "",
                "copies of far-partition lines installed in a near partition (reads, and writes with l2.far_write_copies)");
  if (!memory.links().empty()) {
    r.add_counter("gpu.d2d.requests", &c.memory.d2d.requests, "",
                  "requests carried by the die links, both directions");
    r.add_counter("gpu.d2d.responses", &c.memory.d2d.responses, "",
                  "responses carried by the die links, both directions");
    r.add_counter("gpu.d2d.bytes", &c.memory.d2d.bytes, "byte",
                  "bytes carried by the die links (32-byte flits), both directions");
    r.add_counter("gpu.d2d.width_stalls", &c.memory.d2d.width_stalls, "cycle",
                  "link-direction cycles with a message waiting for the link's width");
  }
  if (!memory.memory_side_slices().empty()) {
    r.add_counter("gpu.mall.requests", &c.memory.mall.requests, "",
                  "memory-side cache (Infinity Cache) requests");
    r.add_counter("gpu.mall.sectors", &c.memory.mall.sectors, "sector",
                  "memory-side cache sectors looked up");
    r.add_counter("gpu.mall.sectors_hit", &c.memory.mall.sectors_hit, "sector",
                  "memory-side cache sectors hit");
    r.add_counter("gpu.mall.sectors_miss", &c.memory.mall.sectors_miss, "sector",
                  "memory-side cache sectors missed");
    r.add_counter("gpu.mall.writeback_sectors", &c.memory.mall.writeback_sectors, "sector",
                  "dirty memory-side cache sectors written back to DRAM");
    r.add_formula("gpu.mall.sector_hit_rate.pct", "%", "memory-side cache sector hit rate",
                  [](const FormulaContext& f) {
                    return 100.0 * f.ratio(f.value("gpu.mall.sectors_hit"),
                                           f.value("gpu.mall.sectors_hit") +
                                               f.value("gpu.mall.sectors_miss"));
                  });
  }
  r.add_counter("gpu.elapsed_cycles", &c.elapsed, "cycle", "first CTA launch to last retirement");
  r.add_counter("gpu.ctas", &c.ctas, "block", "CTAs run");
  r.disable("gpu.sm[*].**");

  // Nsight Compute metrics.
  const double sms_d = n;
  const double max_warps = config.sm.limits.max_warps_per_sm;
  r.add_formula("gpc__cycles_elapsed.max", "cycle", "elapsed cycles",
                [](const FormulaContext& f) { return f.value("gpu.elapsed_cycles"); });
  r.add_formula("sm__cycles_elapsed.avg", "cycle", "elapsed cycles per SM",
                [](const FormulaContext& f) { return f.value("gpu.elapsed_cycles"); });
  r.add_formula("gpu__time_duration.sum", "ns", "kernel duration",
                [&c](const FormulaContext&) { return c.duration_ns; });
  r.add_formula("sm__cycles_active.avg", "cycle", "cycles with a resident warp, per SM",
                [](const FormulaContext& f) { return f.avg("gpu.sm[*].cycles_active"); });
  r.add_aggregate("sm__cycles_active.max", "cycle", "cycles with a resident warp, busiest SM",
                  Aggregate::kMax, "gpu.sm[*].cycles_active");
  r.add_aggregate("sm__cycles_active.min", "cycle", "cycles with a resident warp, least busy SM",
                  Aggregate::kMin, "gpu.sm[*].cycles_active");
  r.add_aggregate("smsp__inst_executed.sum", "inst", "warp instructions", Aggregate::kSum,
                  "gpu.sm[*].inst_executed");
  r.add_formula("sm__inst_executed.avg.per_cycle_active", "inst/cycle", "IPC per SM",
                [](const FormulaContext& f) {
                  return f.ratio(f.sum("gpu.sm[*].inst_executed"), f.sum("gpu.sm[*].cycles_active"));
                });
  r.add_formula("smsp__thread_inst_executed_per_inst_executed.ratio", "", "SIMT efficiency",
                [](const FormulaContext& f) {
                  return f.ratio(f.sum("gpu.sm[*].thread_inst_executed"),
                                 f.sum("gpu.sm[*].inst_executed"));
                });
  r.add_formula("sm__warps_active.avg.pct_of_peak_sustained_active", "%", "achieved occupancy",
                [sms_d, max_warps](const FormulaContext& f) {
                  return 100.0 * f.ratio(f.sum("gpu.sm[*].warps_active"),
                                         f.sum("gpu.sm[*].cycles_active") * max_warps) +
                         0 * sms_d;
                });
  r.add_aggregate("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "", "global load requests",
                  Aggregate::kSum, "gpu.sm[*].l1.global_ld.requests");
  r.add_aggregate("l1tex__t_requests_pipe_lsu_mem_global_op_ld.max", "",
                  "global load requests of the SM with the most", Aggregate::kMax,
                  "gpu.sm[*].l1.global_ld.requests");
  r.add_aggregate("l1tex__t_requests_pipe_lsu_mem_global_op_ld.min", "",
                  "global load requests of the SM with the fewest", Aggregate::kMin,
                  "gpu.sm[*].l1.global_ld.requests");
  r.add_aggregate("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector", "global load sectors",
                  Aggregate::kSum, "gpu.sm[*].l1.global_ld.sectors");
  r.add_aggregate("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "sector",
                  "global load sectors hit", Aggregate::kSum, "gpu.sm[*].l1.global_ld.hits");
  r.add_aggregate("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "", "global store requests",
                  Aggregate::kSum, "gpu.sm[*].l1.global_st.requests");
  r.add_aggregate("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", "byte",
                  "TMA copy bytes read from global memory", Aggregate::kSum,
                  "gpu.sm[*].tma.ld_bytes");
  r.add_aggregate("l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", "byte",
                  "TMA copy bytes written to global memory", Aggregate::kSum,
                  "gpu.sm[*].tma.st_bytes");
  // Over every sector the tag stage looked up, loads and stores, global and local, as ncu counts
  // it (validate/reference/h200: saxpy's 33 % are its stores hitting the lines of y it loaded).
  r.add_formula("l1tex__t_sector_hit_rate.pct", "%", "L1 sector hit rate (loads and stores)",
                [](const FormulaContext& f) {
                  double hits = 0;
                  double sectors = 0;
                  for (const char* kind : {"global_ld", "global_st", "local_ld", "local_st"}) {
                    hits += f.sum(std::string("gpu.sm[*].l1.") + kind + ".hits");
                    sectors += f.sum(std::string("gpu.sm[*].l1.") + kind + ".sectors");
                  }
                  return 100.0 * f.ratio(hits, sectors);
                });
  r.add_formula("lts__t_sectors.sum", "sector", "L2 sectors",
                [](const FormulaContext& f) { return f.value("gpu.l2.sectors"); });
  r.add_formula("lrc__request_sectors_op_read_coalescable.sum", "sector",
                "read sectors arriving at the L2 request coalescers",
                [](const FormulaContext& f) { return f.value("gpu.l2.coalescable_sectors"); });
  r.add_formula("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", "sector",
                "read sectors coalesced before the L2",
                [](const FormulaContext& f) { return f.value("gpu.l2.coalesced_sectors"); });
  // The read sectors the slices look up: those arriving less those the coalescer joined (a far
  // read counted once, at its home or its near copy).
  r.add_formula("lts__t_sectors_srcunit_tex_op_read.sum", "sector",
                "read sectors from the SMs looked up in the L2",
                [](const FormulaContext& f) {
                  return f.value("gpu.l2.coalescable_sectors") - f.value("gpu.l2.coalesced_sectors");
                });
  r.add_formula("lts__t_sectors_lookup_hit.sum", "sector", "L2 sectors hit",
                [](const FormulaContext& f) { return f.value("gpu.l2.sectors_hit"); });
  r.add_formula("lts__t_sector_hit_rate.pct", "%", "L2 sector hit rate",
                [](const FormulaContext& f) {
                  return 100.0 * f.ratio(f.value("gpu.l2.sectors_hit"),
                                         f.value("gpu.l2.sectors_hit") + f.value("gpu.l2.sectors_miss"));
                });
  // As ncu counts them: the kernel's traffic and the GPU's own over the kernel's time.
  r.add_formula("dram__bytes_read.sum", "byte", "DRAM bytes read", [](const FormulaContext& f) {
    return f.value("gpu.dram.bytes_read") + f.value("gpu.dram.background_bytes_read");
  });
  r.add_formula("dram__bytes_write.sum", "byte", "DRAM bytes written",
                [](const FormulaContext& f) {
                  return f.value("gpu.dram.bytes_written") + f.value("gpu.dram.background_bytes_written");
                });
  r.add_aggregate("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "", "shared load wavefronts",
                  Aggregate::kSum, "gpu.sm[*].shared.ld_wavefronts");
  r.add_aggregate("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "",
                  "shared store wavefronts", Aggregate::kSum, "gpu.sm[*].shared.st_wavefronts");
  r.add_aggregate("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "",
                  "shared load bank conflicts", Aggregate::kSum, "gpu.sm[*].shared.ld_bank_conflicts");
  r.add_aggregate("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "",
                  "shared store bank conflicts", Aggregate::kSum, "gpu.sm[*].shared.st_bank_conflicts");
  // The source page's exact figure: wavefronts beyond the ideal of each shared load and store
  // (the hardware bank-conflict counters above also count arbitration with other L1 traffic).
  r.add_formula("derived__memory_l1_wavefronts_shared_excessive", "",
                "shared wavefronts beyond the ideal", [](const FormulaContext& f) {
                  return f.sum("gpu.sm[*].shared.ld_bank_conflicts") +
                         f.sum("gpu.sm[*].shared.st_bank_conflicts");
                });
  for (int k = 0; k < core::kStallReasonCount; ++k) {
    const std::string reason(core::stall_reason_name(static_cast<core::StallReason>(k)));
    const std::string pattern = "gpu.sm[*].stall." + reason;
    r.add_formula("smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio", "inst",
                  "warps stalled per issue-active cycle", [pattern](const FormulaContext& f) {
                    return f.ratio(f.sum(pattern), f.sum("gpu.sm[*].issue_active"));
                  });
    r.add_formula("smsp__average_warp_latency_issue_stalled_" + reason, "cycle",
                  "warp cycles stalled per issued instruction", [pattern](const FormulaContext& f) {
                    return f.ratio(f.sum(pattern), f.sum("gpu.sm[*].inst_executed"));
                  });
  }
  const core::Occupancy& o = record.occupancy;
  const std::pair<const char*, double> launch[] = {
      {"launch__grid_size", static_cast<double>(info.cta_count())},
      {"launch__block_size", static_cast<double>(info.block.volume())},
      {"launch__registers_per_thread", static_cast<double>(info.registers_per_thread)},
      {"launch__shared_mem_per_block_static", static_cast<double>(info.static_shared_bytes)},
      {"launch__shared_mem_per_block_dynamic", static_cast<double>(info.dynamic_shared_bytes)},
      {"launch__shared_mem_config_size", static_cast<double>(o.carveout_bytes)},
      {"launch__occupancy_limit_registers", static_cast<double>(o.limit_registers)},
      {"launch__occupancy_limit_shared_mem", static_cast<double>(o.limit_shared_mem)},
      {"launch__occupancy_limit_warps", static_cast<double>(o.limit_warps)},
      {"launch__occupancy_limit_blocks", static_cast<double>(o.limit_blocks)},
      {"sm__maximum_warps_per_active_cycle_pct", o.theoretical_occupancy_pct},
      {"launch__sm_count", sms_d},
  };
  for (size_t k = 0; k < std::size(launch); ++k) {
    c.launch[k] = launch[k].second;
    const double* value = &c.launch[k];
    const auto* meta = stats::find_ncu_metric(launch[k].first);
    r.add_formula(launch[k].first, meta ? meta->unit : "", meta ? meta->meaning : "launch",
                  [value](const FormulaContext&) { return *value; });
  }

  stats::KernelReport report;
  report.name = info.name;
  report.grid = {info.grid.x, info.grid.y, info.grid.z};
  report.block = {info.block.x, info.block.y, info.block.z};
  report.snapshot = r.snapshot();
  return report;
}

}  // namespace warpsim::gpu
