#include "sim/gpu/gpu_config.h"

#include <algorithm>
#include <cmath>

#include "arch/derived.h"
#include "arch/error.h"

namespace warpsim::gpu {
namespace {

// SM cycles an L1 miss spends outside the memory system: the request port into the NoC and the
// response port back (one cycle each). The L1 lookup itself is not on the miss path: a missing
// sector is requested in the cycle of its tag lookup and its fill is delivered when it arrives
// (core::SmMemoryConfig::l1_fill_latency_cycles, 0).
constexpr double kMissPortCycles = 2.0;

template <class T>
T need(bool present, T value, const char* field) {
  if (!present) throw InputError(std::string("architecture description: ") + field +
                                 " is required to simulate");
  return value;
}

void fill_limits(const arch::Spec& s, core::SmLimits& l) {
  const auto& occ = s.occupancy();
  const auto& rf = s.register_file();
  const auto& sh = s.shared_memory();
  l.warp_size = static_cast<int>(need(s.sm().has_warp_size(), s.sm().warp_size(), "sm.warp_size"));
  l.sub_partitions = static_cast<int>(
      need(s.sm().has_sub_partitions(), s.sm().sub_partitions(), "sm.sub_partitions"));
  if (occ.has_max_warps_per_sm()) l.max_warps_per_sm = static_cast<int>(occ.max_warps_per_sm());
  if (occ.has_max_threads_per_sm()) l.max_threads_per_sm = static_cast<int>(occ.max_threads_per_sm());
  if (occ.has_max_ctas_per_sm()) l.max_ctas_per_sm = static_cast<int>(occ.max_ctas_per_sm());
  if (occ.has_max_threads_per_cta()) {
    l.max_threads_per_cta = static_cast<int>(occ.max_threads_per_cta());
  }
  if (occ.has_max_cluster_size_ctas()) {
    l.max_cluster_size = static_cast<int>(occ.max_cluster_size_ctas());
  }
  if (rf.has_registers_per_sm()) l.registers_per_sm = static_cast<int>(rf.registers_per_sm());
  if (rf.has_max_registers_per_cta()) {
    l.max_registers_per_cta = static_cast<int>(rf.max_registers_per_cta());
  }
  if (rf.has_max_registers_per_thread()) {
    l.max_registers_per_thread = static_cast<int>(rf.max_registers_per_thread());
  }
  if (rf.has_allocation_unit_registers()) {
    l.register_allocation_unit = static_cast<int>(rf.allocation_unit_registers());
  }
  if (sh.has_per_sm_max_bytes()) l.shared_memory_per_sm_bytes = static_cast<int64_t>(sh.per_sm_max_bytes());
  if (sh.has_per_cta_max_bytes()) {
    l.max_shared_memory_per_cta_bytes = static_cast<int64_t>(sh.per_cta_max_bytes());
  }
  if (sh.has_allocation_unit_bytes()) {
    l.shared_memory_allocation_unit_bytes = sh.allocation_unit_bytes();
  }
  if (sh.has_reserved_per_cta_bytes()) {
    l.reserved_shared_memory_per_cta_bytes = sh.reserved_per_cta_bytes();
  }
  if (s.l1().has_unified_with_shared() && !s.l1().unified_with_shared() &&
      sh.has_per_sm_max_bytes()) {
    // A separate L1 (AMD): the shared memory (LDS) is always its whole size.
    l.carveout_choices_bytes = {static_cast<int64_t>(sh.per_sm_max_bytes())};
  } else if (s.l1().shared_carveout_kb_size() > 0) {
    l.carveout_choices_bytes.clear();
    for (uint32_t kb : s.l1().shared_carveout_kb()) {
      l.carveout_choices_bytes.push_back(int64_t{kb} * 1024);
    }
    std::sort(l.carveout_choices_bytes.begin(), l.carveout_choices_bytes.end());
  }
  l.default_min_carveout_bytes = int64_t{s.l1().default_min_carveout_kb()} * 1024;
}

void fill_units(const arch::Spec& s, core::SmConfig& c) {
  for (int k = 0; k < core::kOpClassCount; ++k) {
    const auto op = static_cast<arch::OpClass>(k);
    if (op == arch::OP_CLASS_UNKNOWN) continue;
    const arch::FunctionalUnit& u = arch::functional_unit(s, op);
    if (u.has_latency_cycles()) c.units[k].latency_cycles = static_cast<int>(u.latency_cycles());
    if (u.has_initiation_interval_cycles()) {
      c.units[k].initiation_interval_cycles = static_cast<int>(u.initiation_interval_cycles());
    }
  }
}

void fill_tensor(const arch::Spec& s, core::TensorConfig& t) {
  if (s.tensor().dense_flops_per_clk_per_sm_size() > 0) t.dense_flop_per_clk_per_sm.fill(0);
  for (const auto& [key, rate] : s.tensor().dense_flops_per_clk_per_sm()) {
    for (int k = 0; k < core::kTensorTypeCount; ++k) {
      if (core::tensor_type_name(static_cast<core::TensorType>(k)) == key) {
        t.dense_flop_per_clk_per_sm[k] = rate;
      }
    }
  }
  for (const auto& [key, shape] : s.tensor().shapes()) {
    if (shape.issue_scope() == arch::Tensor::WARP) {
      if (shape.has_latency_cycles()) t.mma_sync_latency_cycles = static_cast<int>(shape.latency_cycles());
      t.mma_sync_fraction_of_peak = shape.fraction_of_peak();
    }
  }
}

// Dies, their links and the memory-side cache (memory_system.h). Runs after the L2 and HBM
// fields are filled: it rescales what depends on them.
void fill_chiplets(const arch::Spec& s, GpuConfig& g) {
  mem::MemorySystemConfig& ms = g.memory;
  const auto& dies = s.dies();
  const double l2_per_sm_cycle = g.l2_mhz / g.sm_mhz;
  if (dies.count() > 1) {
    ms.dies = dies.count();
    ms.l2_per_die = s.l2().die_scope() == "per_die";
    if (!ms.l2_per_die) {
      // The dies are the partitions: the link carries the far die's distance, so every slice
      // answers at the near latency and the dies do not copy each other's lines.
      ms.l2_partitions = 1;
      ms.l2.hit_latency_far_cycles = ms.l2.hit_latency_near_cycles;
      ms.l2.far_read_copies = false;
      ms.l2.far_write_copies = false;
    }
    if (dies.has_link_latency_cycles()) ms.die_link.latency_cycles = dies.link_latency_cycles();
    if (dies.has_link_bandwidth_gb_per_s()) {
      // Both directions together: half each way, in bytes per L2 cycle.
      ms.die_link.bytes_per_cycle = static_cast<uint32_t>(std::max(
          1.0, std::floor(dies.link_bandwidth_gb_per_s() * 1e3 / 2.0 / g.l2_mhz)));
    }
  }
  if (!s.has_memory_side_cache()) return;
  const auto& m = s.memory_side_cache();
  const uint32_t slices = ms.dram_geometry.channels;  // one slice per (pseudo) channel
  if (m.has_slices() && m.slices() != slices) {
    throw InputError("architecture description: memory_side_cache.slices: expected one slice per "
                     "HBM pseudo channel (" + std::to_string(slices) + "), got " +
                     std::to_string(m.slices()));
  }
  ms.memory_side_cache = true;
  ms.msc.tags.size_bytes = need(m.has_size_bytes(), m.size_bytes(), "memory_side_cache.size_bytes") / slices;
  if (m.has_ways()) ms.msc.tags.ways = m.ways();
  ms.msc.partial_writes_fetch = false;
  ms.msc.mshr = ms.l2.mshr;
  if (m.has_bandwidth_gb_per_s()) {
    ms.msc.sectors_per_cycle = static_cast<uint32_t>(
        std::max(1.0, std::floor(m.bandwidth_gb_per_s() * 1e3 / slices / g.l2_mhz / 32.0)));
  }
  // Load-to-use of a hit, less the L2 hit it extends (SM to slice and back) and the path from the
  // slice to the memory-side slice and back (link both ways, crossbar ports and latency).
  if (m.has_hit_latency_cycles() && s.l2().has_near_hit_latency_cycles()) {
    const double path = 2.0 * (ms.die_link.latency_cycles + 2.0 + ms.memory_crossbar.latency_cycles);
    const double hit = (m.hit_latency_cycles() - s.l2().near_hit_latency_cycles()) * l2_per_sm_cycle - path;
    ms.msc.hit_latency_near_cycles = static_cast<uint32_t>(
        std::max<double>(ms.memory_crossbar.latency_cycles + 1, std::round(hit)));
    ms.msc.hit_latency_far_cycles = ms.msc.hit_latency_near_cycles;
    ms.msc.fill_latency_cycles = ms.msc.hit_latency_near_cycles;
  }
}

}  // namespace

GpuConfig gpu_config_from_spec(const arch::Spec& s) {
  GpuConfig g;
  g.name = s.name();
  g.sms = static_cast<int>(need(s.sm().has_count(), s.sm().count(), "sm.count"));
  g.sm_mhz = need(s.clocks().has_sm_mhz(), s.clocks().sm_mhz(), "clocks.sm_mhz");
  g.l2_mhz = s.clocks().has_l2_mhz() ? s.clocks().l2_mhz() : g.sm_mhz;

  // The SM issue core.
  fill_limits(s, g.sm.limits);
  fill_units(s, g.sm);
  fill_tensor(s, g.sm.tensor);
  g.sm.scheduler = s.sm().scheduler_policy();
  g.sm.shared_warps = static_cast<int>(s.sm().scheduler_shared_warps());
  if (s.sm().has_issue_width_per_scheduler()) {
    g.sm.issue_width = static_cast<int>(s.sm().issue_width_per_scheduler());
  }
  g.sm.register_reads_per_cycle = static_cast<int>(s.sm().register_reads_per_cycle());
  if (s.sm().has_branch_resolve_cycles()) {
    g.sm.branch_resolve_cycles = static_cast<int>(s.sm().branch_resolve_cycles());
  }
  g.sm.barrier_arrival_cycles = static_cast<int>(s.sm().barrier_arrival_cycles());
  if (s.sm().has_gpu_fence_cycles()) {
    g.sm.gpu_fence_cycles = static_cast<int>(s.sm().gpu_fence_cycles());
  }
  if (s.sm().has_instruction_fetch()) {
    const arch::InstructionFetch& f = s.sm().instruction_fetch();
    core::InstructionFetchConfig& c = g.sm.instruction_fetch;
    c.l0_bytes = f.l0_bytes();
    c.l1_bytes = f.l1_bytes();
    if (f.has_ways()) c.ways = f.ways();
    if (f.has_l1_cycles()) c.l1_cycles = f.l1_cycles();
    if (f.has_miss_cycles()) c.miss_cycles = f.miss_cycles();
    if (f.has_line_cycles()) c.line_cycles = f.line_cycles();
    if (f.has_prefetch_lines()) c.prefetch_lines = f.prefetch_lines();
    if (f.has_cold_line_cycles()) c.cold_line_cycles = f.cold_line_cycles();
    if (f.has_launch_bytes()) c.launch_bytes = f.launch_bytes();
  }
  if (s.sm().has_barrier_release_cycles()) {
    g.sm.barrier_latency_cycles = static_cast<int>(s.sm().barrier_release_cycles());
  }
  if (s.sm().has_valu_cycles_per_instruction()) {
    g.sm.amd.valu_simd_cycles = static_cast<int>(s.sm().valu_cycles_per_instruction());
  }

  // The SM memory pipeline.
  core::SmMemoryConfig& m = g.sm_memory;
  m.sub_partitions = g.sm.limits.sub_partitions;
  m.warp_slots = g.sm.limits.max_warps_per_sm;
  const auto& l1 = s.l1();
  const auto& sh = s.shared_memory();
  if (sh.has_latency_cycles()) m.shared_latency_cycles = static_cast<int>(sh.latency_cycles());
  // Shuffles run on the MIO path: their functional unit's latency is the MIO's shuffle latency.
  if (s.functional_units().shuffle().has_latency_cycles()) {
    m.shuffle_latency_cycles = static_cast<int>(s.functional_units().shuffle().latency_cycles());
  }
  if (sh.has_banks()) m.shared_banks = static_cast<int>(sh.banks());
  if (sh.has_bank_width_bytes()) m.shared_bank_width_bytes = static_cast<int>(sh.bank_width_bytes());
  if (sh.has_conflict_extra_cycles()) {
    m.shared_conflict_extra_cycles = static_cast<int>(sh.conflict_extra_cycles());
  }
  if (l1.has_capacity_bytes()) m.unified_l1_shared_bytes = l1.capacity_bytes();
  if (l1.has_unified_with_shared() && !l1.unified_with_shared() && sh.has_per_sm_max_bytes()) {
    // A separate L1 (AMD): the SM model carves shared memory out of one pool, so the pool holds
    // both and the fixed carve-out (fill_limits) leaves the L1 its own capacity.
    m.unified_l1_shared_bytes += sh.per_sm_max_bytes();
  }
  if (l1.has_line_bytes()) m.l1_line_bytes = static_cast<int>(l1.line_bytes());
  if (l1.has_sector_bytes() && l1.sector_bytes() != 32) {
    // The L1 and memory models move 32-byte sectors; a wider fill granularity is not modelled.
    g.warnings.push_back(s.name() + "'s l1.sector_bytes " + std::to_string(l1.sector_bytes()) +
                         ": the L1 is simulated with 32-byte sectors");
  }
  if (l1.has_ways()) m.l1_ways = static_cast<int>(l1.ways());
  if (l1.has_sets()) m.l1_sets = static_cast<int>(l1.sets());
  if (l1.has_replacement_policy()) m.l1_replacement = l1.replacement_policy();
  m.l1_replacement_candidates = l1.replacement_candidates();
  if (l1.has_hit_latency_cycles()) m.l1_hit_latency_cycles = static_cast<int>(l1.hit_latency_cycles());
  if (l1.has_mshrs()) m.l1_mshr_entries = static_cast<int>(l1.mshrs());
  if (l1.has_mshr_merge_slots()) m.l1_mshr_merge_slots = static_cast<int>(l1.mshr_merge_slots());
  if (l1.has_mshr_waiters()) m.l1_mshr_waiters = static_cast<int>(l1.mshr_waiters());
  if (l1.has_max_sectors_in_flight()) {
    m.l1_max_sectors_in_flight = static_cast<int>(l1.max_sectors_in_flight());
  }
  if (l1.has_tag_lines_per_cycle()) {
    m.l1_tag_lines_per_cycle = static_cast<int>(l1.tag_lines_per_cycle());
  }
  m.l1_load_data_uses_shared_path = l1.load_data_uses_shared_path();
  m.l1_store_data_uses_shared_path = l1.store_data_uses_shared_path();
  if (l1.has_store_complete_cycles()) {
    m.l1_store_complete_cycles = static_cast<int>(l1.store_complete_cycles());
  }
  if (l1.has_bandwidth_bytes_per_clk() && m.l1_sector_bytes > 0) {
    m.l1_tag_sectors_per_cycle =
        std::max(1, static_cast<int>(l1.bandwidth_bytes_per_clk()) / m.l1_sector_bytes);
  }

  // The memory system. The description's L2 latencies are load-to-use from an SM (pointer chase,
  // SM cycles); the slice's own hit latency is what remains after the two NoC traversals and the
  // miss's port cycles, so that a simulated chase reproduces them.
  mem::MemorySystemConfig& ms = g.memory;
  const auto& l2 = s.l2();
  ms.sms = static_cast<uint32_t>(g.sms);
  ms.l2_slices = need(l2.has_slices(), l2.slices(), "l2.slices");
  ms.l2_partitions = l2.has_partitions() ? l2.partitions() : 1;
  // The SM tables describe one chip: a description with another SM count (a what-if sweep)
  // splits its SMs by index and places CTAs in index order.
  if (static_cast<int>(l2.sm_partitions().size()) == g.sms) {
    ms.sm_partitions.assign(l2.sm_partitions().begin(), l2.sm_partitions().end());
  }
  ms.l2_address_hash = l2.address_hash();
  if (l2.has_slice_chunk_bytes()) ms.l2_slice_chunk_lines = l2.slice_chunk_bytes() / 128;
  ms.noc.latency_cycles = s.noc().has_latency_cycles() ? s.noc().latency_cycles() : 1;
  if (s.noc().has_bandwidth_bytes_per_clk_per_port()) {
    ms.noc.port_bytes_per_cycle = s.noc().bandwidth_bytes_per_clk_per_port();
  }
  if (s.noc().has_bandwidth_bytes_per_clk()) {
    ms.noc.total_bytes_per_cycle = s.noc().bandwidth_bytes_per_clk();
  }
  ms.l2.tags.size_bytes = arch::l2_size_bytes(s) / ms.l2_slices;
  if (l2.has_ways()) ms.l2.tags.ways = l2.ways();
  ms.l2.tags.replacement = l2.replacement_policy();
  ms.l2.tags.replacement_candidates = l2.replacement_candidates();
  ms.l2.tags.rotated_index = l2.set_index() == "rotated";
  ms.l2.tags.dirty_victim_skip = l2.dirty_victim_skip();
  if (l2.has_max_dirty_fraction()) {
    const auto ways = static_cast<double>(ms.l2.tags.ways);
    ms.l2.tags.max_dirty_ways = std::max(1u, static_cast<std::uint32_t>(
                                                 std::floor(ways * l2.max_dirty_fraction())));
  }
  const double l2_per_sm_cycle = g.l2_mhz / g.sm_mhz;
  const auto slice_latency = [&](uint32_t load_to_use) {
    const double overhead = kMissPortCycles + 2.0 * ms.noc.latency_cycles / l2_per_sm_cycle;
    return static_cast<uint32_t>(std::max(1.0, std::round((load_to_use - overhead) * l2_per_sm_cycle)));
  };
  if (l2.has_near_hit_latency_cycles()) ms.l2.hit_latency_near_cycles = slice_latency(l2.near_hit_latency_cycles());
  if (l2.has_far_hit_latency_cycles()) ms.l2.hit_latency_far_cycles = slice_latency(l2.far_hit_latency_cycles());
  if (l2.has_bandwidth_bytes_per_clk_per_slice() && m.l1_sector_bytes > 0) {
    ms.l2.sectors_per_cycle = std::max<uint32_t>(1, l2.bandwidth_bytes_per_clk_per_slice() / 32);
  }
  if (l2.has_mshrs_per_slice()) ms.l2.mshr.entries = l2.mshrs_per_slice();
  ms.l2.partial_writes_fetch = l2.partial_writes_fetch();
  ms.l2.far_read_copies = l2.far_read_copies();
  ms.l2.far_write_copies = l2.far_read_copies() && l2.far_write_copies();
  ms.l2.coalescer.entries = l2.request_coalescer_entries();
  if (static_cast<int>(l2.request_coalescer_sm_sources().size()) == g.sms) {
    ms.l2.sm_coalescer_sources.assign(l2.request_coalescer_sm_sources().begin(),
                                      l2.request_coalescer_sm_sources().end());
  }
  if (l2.has_request_coalescer_joins_hits()) {
    ms.l2.coalescer.joins_hits = l2.request_coalescer_joins_hits();
  }
  if (l2.has_request_coalescer_followers()) {
    ms.l2.coalescer.followers = l2.request_coalescer_followers();
  }
  if (!l2.has_fetch_granularity_bytes() && l2.has_sector_bytes() && l2.sector_bytes() > 32 &&
      l2.sector_bytes() <= 128 && l2.sector_bytes() % 32 == 0) {
    // Wider sectors (AMD: 64 B) fill as aligned groups of 32-byte sectors.
    ms.l2.fetch_sectors = l2.sector_bytes() / 32;
  }
  ms.l2.partial_write_cycles = l2.partial_write_cycles();
  ms.l2.partial_write_request_cycles = l2.partial_write_request_cycles();
  ms.l2.atomic_sector_cycles = l2.atomic_sector_cycles();
  ms.l2.write_sector_cycles = l2.write_sector_cycles();
  ms.l2.partition_link_bytes_per_cycle = l2.partition_link_bytes_per_clk();
  ms.l2.partition_link_burst_cycles = std::max(1u, l2.partition_link_burst_cycles());
  ms.l2.slices = ms.l2_slices;
  if (l2.partial_lines() != 0) {
    const std::uint32_t ways = l2.partial_line_ways();
    // Each slice's share, whole sets of `ways` (arch checks: ways > 0, at least a set a slice).
    ms.l2.partial_lines.ways = ways;
    ms.l2.partial_lines.entries = l2.partial_lines() / ms.l2_slices / ways * ways;
    ms.l2.partial_lines.line_index = l2.partial_line_index() != "hashed";
    ms.l2.partial_lines.keeps_complete = l2.partial_keeps_complete();
    ms.l2.partial_lines.random_victim = l2.partial_line_victim() == "random";
    if (l2.partial_line_index() == "slice") {
      ms.l2.partial_lines.chunk_lines = std::max<std::uint32_t>(1, ms.l2_slice_chunk_lines);
      ms.l2.partial_lines.run_lines = ms.l2_slices * ms.l2.partial_lines.chunk_lines;
    }
    ms.l2.merge_keeps_unit = l2.partial_merge_keeps_unit();
  }
  // Sectors in a unit of `bytes` (32, 64 or 128) that the field `name` gives.
  const auto unit_sectors = [](uint32_t bytes, const char* name) {
    if (bytes == 0 || bytes % 32 != 0 || 128 % bytes != 0) {
      throw InputError(std::string("architecture description: l2.") + name +
                       ": expected 32, 64 or 128, got " + std::to_string(bytes));
    }
    return bytes / 32;
  };
  if (l2.has_partial_merge_bytes()) {
    ms.l2.merge_sectors = unit_sectors(l2.partial_merge_bytes(), "partial_merge_bytes");
  }
  if (l2.has_fetch_granularity_bytes()) {
    ms.l2.fetch_sectors = unit_sectors(l2.fetch_granularity_bytes(), "fetch_granularity_bytes");
  }

  const auto& hbm = s.hbm();
  const uint32_t pseudo = hbm.has_pseudo_channels_per_channel() ? hbm.pseudo_channels_per_channel() : 1;
  ms.dram_geometry.channels = need(hbm.has_channels(), hbm.channels(), "hbm.channels") * pseudo;
  if (hbm.has_bank_groups_per_pseudo_channel()) {
    ms.dram_geometry.bank_groups = hbm.bank_groups_per_pseudo_channel();
  }
  if (hbm.has_banks_per_bank_group()) ms.dram_geometry.banks_per_group = hbm.banks_per_bank_group();
  if (hbm.has_row_bytes()) ms.dram_geometry.row_bytes = hbm.row_bytes();
  if (hbm.has_address_mapping()) ms.dram_mapping = hbm.address_mapping();
  ms.dram.scheduler = hbm.scheduler();
  if (hbm.has_queue_depth_per_channel()) {
    ms.dram.read_queue_entries = hbm.queue_depth_per_channel();
    ms.dram.write_queue_entries = hbm.queue_depth_per_channel();
    ms.dram.write_drain_high = hbm.queue_depth_per_channel() * 3 / 4;
    ms.dram.write_drain_low = hbm.queue_depth_per_channel() / 4;
  }
  if (hbm.has_deferred_write_share()) ms.dram.deferred_write_share = hbm.deferred_write_share();
  // Double data rate: the command clock is half the pin rate; each pseudo-channel moves its
  // width twice per clock, and a burst carries one 32-byte sector.
  const double rate = need(hbm.has_data_rate_gbps_per_pin(), hbm.data_rate_gbps_per_pin(),
                           "hbm.data_rate_gbps_per_pin");
  g.memory_mhz = rate * 1000.0 / 2.0;
  const uint32_t width_bits = need(hbm.has_channel_width_bits(), hbm.channel_width_bits(),
                                   "hbm.channel_width_bits") / pseudo;
  ms.dram.bytes_per_cycle = width_bits / 8 * 2;
  if (ms.dram.bytes_per_cycle == 0 || 64 % ms.dram.bytes_per_cycle != 0) {
    throw InputError("architecture description: hbm.channel_width_bits / pseudo_channels_per_channel = " +
                     std::to_string(width_bits) + " bits cannot carry 32-byte bursts");
  }
  ms.dram.burst_length = 64 / ms.dram.bytes_per_cycle;
  const auto& t = hbm.timings();
  mem::DramTiming& d = ms.dram.timing;
  if (t.has_rcd_cycles()) d.rcd_cycles = t.rcd_cycles();
  if (t.has_rp_cycles()) d.rp_cycles = t.rp_cycles();
  if (t.has_ras_cycles()) d.ras_cycles = t.ras_cycles();
  if (t.has_cl_cycles()) d.cl_cycles = t.cl_cycles();
  if (t.has_cwl_cycles()) d.cwl_cycles = t.cwl_cycles();
  if (t.has_ccd_s_cycles()) d.ccd_s_cycles = t.ccd_s_cycles();
  if (t.has_ccd_l_cycles()) d.ccd_l_cycles = t.ccd_l_cycles();
  if (t.has_rrd_s_cycles()) d.rrd_s_cycles = t.rrd_s_cycles();
  if (t.has_rrd_l_cycles()) d.rrd_l_cycles = t.rrd_l_cycles();
  if (t.has_faw_cycles()) d.faw_cycles = t.faw_cycles();
  if (t.has_wr_cycles()) d.wr_cycles = t.wr_cycles();
  if (t.has_wtr_cycles()) d.wtr_cycles = t.wtr_cycles();
  if (t.has_rtp_cycles()) d.rtp_cycles = t.rtp_cycles();
  if (t.has_refi_cycles()) d.refi_cycles = t.refi_cycles();
  if (t.has_rfc_cycles()) d.rfc_cycles = t.rfc_cycles();
  if (t.has_rfcpb_cycles()) d.rfcpb_cycles = t.rfcpb_cycles();
  if (t.has_request_gap_cycles()) d.request_gap_cycles = t.request_gap_cycles();

  // The description's HBM latency is load-to-use from an SM for an unloaded L2 miss (pointer
  // chase over a footprint far beyond the L2, so its lines' homes are spread over the partitions:
  // the average of near and far requesters). What remains after the hit path's fixed parts (port
  // cycles, two NoC traversals), the far requesters' share of the far - near difference, the
  // memory crossbar both ways and a read on an idle channel (tRCD + CL + burst, in L2 cycles: the
  // chase returns to a bank long after a refresh closed its row) is split between the slice and
  // the path to the memory: a fill is answered like a hit (the slice's near hit latency), and the
  // rest is the memory controller's and PHY's share, added to the memory crossbar's latency, half
  // each way (nothing measured tells the directions apart). So the line stays in flight at the
  // slice, where later reads of it merge and join, for most of the miss: on the H200 a read from
  // another SM arriving 288 ns (564 cycles) after the first still joins it at the L2's request
  // coalescer (validate/reference/h200/lrc_pair.tsv). With a memory-side cache, whose hits cross
  // the memory crossbar too, the slice's fill latency takes all of it.
  if (hbm.has_miss_latency_cycles()) {
    const double l2_per_memory_cycle = g.l2_mhz / g.memory_mhz;
    const double dram_read = (d.rcd_cycles + d.cl_cycles + ms.dram.burst_length) * l2_per_memory_cycle;
    const double far_share = ms.l2_partitions > 1 ? 1.0 - 1.0 / ms.l2_partitions : 0.0;
    const double far_extra =
        far_share * (double(ms.l2.hit_latency_far_cycles) - double(ms.l2.hit_latency_near_cycles));
    const double fixed = kMissPortCycles * l2_per_sm_cycle + far_extra +
                         2.0 * ms.noc.latency_cycles + 2.0 * ms.memory_crossbar.latency_cycles +
                         dram_read;
    const auto rest = static_cast<uint32_t>(
        std::max(1.0, std::round(hbm.miss_latency_cycles() * l2_per_sm_cycle - fixed)));
    const uint32_t each_way = s.has_memory_side_cache() || rest <= ms.l2.hit_latency_near_cycles
                                  ? 0
                                  : (rest - ms.l2.hit_latency_near_cycles) / 2;
    ms.memory_crossbar.latency_cycles += each_way;
    ms.l2.fill_latency_cycles = rest - 2 * each_way;
  }

  // The GPU's own DRAM traffic during a kernel (counted, not timed; sim/mem/dram_background.h).
  // arch/checks.cc has checked the three lists' lengths and order.
  std::vector<mem::DramBackground::Point> background;
  for (int i = 0; i < hbm.background_seconds_size() && i < hbm.background_read_bytes_size() &&
                  i < hbm.background_write_bytes_size();
       ++i) {
    background.push_back({hbm.background_seconds(i), hbm.background_read_bytes(i),
                          hbm.background_write_bytes(i)});
  }
  g.dram_background = mem::DramBackground(std::move(background));

  // Kernel boundaries.
  if (s.launch().has_overhead_ns()) {
    g.dispatch.kernel_launch_overhead_cycles =
        static_cast<uint64_t>(std::llround(s.launch().overhead_ns() * g.sm_mhz / 1000.0));
  }
  g.warm_caches = s.launch().cache_start() == arch::Launch::WARM;
  g.dispatch.elapsed_overhead_cycles = s.launch().elapsed_overhead_cycles();
  g.dispatch.cta_launch_cycles = s.launch().cta_launch_cycles();
  g.sm.cta_launch_interval_cycles = static_cast<int>(s.launch().cta_launch_interval_cycles());
  if (static_cast<int>(s.launch().cta_sm_order().size()) == g.sms) {
    g.dispatch.sm_order.assign(s.launch().cta_sm_order().begin(), s.launch().cta_sm_order().end());
    if (static_cast<int>(s.launch().cta_sm_priority().size()) == g.sms) {
      g.dispatch.sm_priority.assign(s.launch().cta_sm_priority().begin(),
                                    s.launch().cta_sm_priority().end());
    }
  }
  fill_chiplets(s, g);
  return g;
}

}  // namespace warpsim::gpu
