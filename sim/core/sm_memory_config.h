// Configuration of an SM's memory pipeline: the LSU and MIO instruction queues, the shared-memory
// data path, the unified L1 / shared-memory array (capacity, sectoring, associativity, hit latency,
// tag-stage throughput), the MSHRs and the port to the memory system. Plain values with units in
// their names and H100/H200 (sm_90) defaults; the integration layer fills them from the
// architecture description. validate() names the first bad field.
//
// Per-kernel settings (the shared-memory carve-out and the generic-address window of shared memory)
// live in SmMemoryKernelLayout, given to the pipeline at each kernel start.
//
// Defaults marked "assumed" have no published measurement; they are fitting parameters.
#pragma once

#include <cstdint>
#include <string>

namespace warpsim::core {

/// Static configuration of one SM's memory pipeline (NVIDIA Hopper defaults).
struct SmMemoryConfig {
  /// The SM's index, carried in every memory request (the L2 uses it for near/far latency).
  std::uint32_t sm_id = 0;
  /// Sub-partitions (SMSPs) feeding the pipeline, 1..8.
  int sub_partitions = 4;
  /// Resident warp slots of the SM (the LSU counts each warp's unacknowledged writes), 1..1024.
  int warp_slots = 64;

  // ---- MIO: shared memory, shuffles, constant loads ----
  /// Instructions one SMSP may have waiting for the MIO data path. Measured on the H200
  /// (validate/reference/h200/lsu_queue.tsv): warps issuing 32-way conflicted LDS back to back are
  /// refused after about 16 per sub-partition (2 warps each: 8 apiece; 4 each: 4-5 apiece).
  int mio_queue_depth_per_smsp = 16;
  /// Instructions the whole SM may have waiting for the MIO data path (the same probe: 64-72 in
  /// all at 8 and 16 warps).
  int mio_queue_depth_per_sm = 64;
  /// Load-to-use latency of a conflict-free shared-memory access, cycles (HARDWARE.md: 29.0).
  int shared_latency_cycles = 29;
  /// Shared-memory banks (HARDWARE.md: 32).
  int shared_banks = 32;
  /// Bytes per bank word (HARDWARE.md: 4).
  int shared_bank_width_bytes = 4;
  /// Cycles a shared load with bank conflicts holds the data path beyond its wavefronts (0: none;
  /// the H200's 4- to 32-way conflicted loads take wavefronts + 1.8 cycles each at 16 warps,
  /// validate/reference/h200/lds_rate.tsv).
  int shared_conflict_extra_cycles = 0;
  /// Latency of a shuffle (SHFL, MATCH, REDUX), cycles (assumed).
  int shuffle_latency_cycles = 23;
  /// Latency of a constant-cache hit (LDC, ULDC), cycles; each extra distinct address among the
  /// lanes costs one more cycle (assumed).
  int constant_latency_cycles = 23;

  // ---- LSU: global, local and generic accesses ----
  /// Instructions one SMSP may have waiting for the L1 tag stage. Measured on the H200:
  /// L1-resident loads of 32 lines each, issued back to back, are refused after 16-17 per warp
  /// with one warp per sub-partition, 8-9 with two, 4-5 with four (lsu_queue.tsv), whatever a
  /// load's lines (lsu_slots.tsv: 8- to 32-line loads refused after the same 17-19). Left out: a
  /// lone sub-partition's larger share (one or two warps alone queue all 24 of lsu_queue.tsv's
  /// loads, one warp all 32 of lsu_slots.tsv's); taking it (32 or 64 here) moves the naive
  /// transpose's partial-line write-backs far from the H200's (validate/HISTORY.md, eighteenth
  /// round).
  int lsu_queue_depth_per_smsp = 16;
  /// Instructions the whole SM may have waiting for the L1 tag stage (the same probes: about 64).
  int lsu_queue_depth_per_sm = 64;

  // ---- L1 (unified with shared memory) ----
  /// Bytes of the unified L1 / shared-memory array (HARDWARE.md: 256 KB on H100/H200). The L1
  /// gets what the kernel's shared-memory carve-out leaves.
  std::uint64_t unified_l1_shared_bytes = 256 * 1024;
  /// Line size in bytes; the memory system's messages fix it at 128.
  int l1_line_bytes = 128;
  /// Sector size in bytes; the memory system's messages fix it at 32.
  int l1_sector_bytes = 32;
  /// Associativity (assumed). The capacity is rounded down to whole sets.
  int l1_ways = 4;
  /// When nonzero: a fixed number of sets (a power of two) with an XOR-folded index, the ways
  /// being what the carve-out leaves (l1_ways is then unused).
  int l1_sets = 0;
  /// Replacement policy, by its registered name ("lru", "random", "random_lru", "srrip",
  /// "tree_plru").
  std::string l1_replacement = "lru";
  /// "random_lru": ways a victim is drawn from (0: half the set; more than the ways the
  /// carve-out leaves: all of them).
  std::uint32_t l1_replacement_candidates = 0;
  /// Load-to-use latency of an L1 hit, cycles (HARDWARE.md: 40.7 on Hopper).
  int l1_hit_latency_cycles = 40;
  /// Cycles from a fill's arrival to the completion of the loads waiting for it. 0 because the
  /// memory system's latencies (HARDWARE.md: L2 hit ~263) are load-to-use figures that already
  /// include the L1 miss path.
  int l1_fill_latency_cycles = 0;
  /// Sectors the tag stage looks up per cycle (128 B/clk → 4 sectors on Hopper).
  int l1_tag_sectors_per_cycle = 4;
  /// Lines the tag stage looks up per cycle; 0: as many as the sector budget allows.
  int l1_tag_lines_per_cycle = 0;
  /// Whether a load's data takes the shared-memory data path (one wavefront per line, in line
  /// with its sub-partition's MIO accesses) before the load completes.
  bool l1_load_data_uses_shared_path = false;
  /// Whether a store's or reduction's data takes the shared-memory data path (one wavefront per
  /// line, in line with its sub-partition's MIO accesses) before the store has left the SM.
  bool l1_store_data_uses_shared_path = false;
  /// Cycles from a store's last request leaving the tag stage until the store has left the SM
  /// (what a finished warp waits for before it retires); at least 1.
  int l1_store_complete_cycles = 1;
  /// Miss status holding registers: lines (or atomic requests) in flight at once (assumed).
  int l1_mshr_entries = 256;
  /// Instructions that may wait on one MSHR entry (its first included); 0: no cap per entry
  /// (assumed for presets that do not measure it).
  int l1_mshr_merge_slots = 8;
  /// Waiter records all MSHR entries share; 0: l1_mshr_merge_slots per entry, or 8 per entry
  /// without a cap (L1MshrTable::waiter_pool).
  int l1_mshr_waiters = 0;
  /// Sectors the L1 may await from memory at once over all MSHR entries; 0: no limit.
  int l1_max_sectors_in_flight = 0;

  // ---- Port to the memory system ----
  /// Latency of the SM → memory-system request port, SM cycles.
  int memory_request_latency_cycles = 1;
  /// Latency of the memory-system → SM response port, cycles of the memory side's domain.
  int memory_response_latency_cycles = 1;
  /// Requests in flight plus unconsumed on the request port; 0 means unbounded.
  int memory_request_port_capacity = 0;

  /// Throws warpsim::InputError naming the first field (as "sm_memory.<field>") that is out of
  /// range.
  void validate() const;
};

/// Per-kernel layout of the unified array and the generic address space.
struct SmMemoryKernelLayout {
  /// Bytes of the unified array the driver configured as shared memory for this kernel.
  std::uint64_t shared_carveout_bytes = 0;
  /// First generic address of the CTA's shared-memory window; generic accesses whose first active
  /// lane falls in [base, base + bytes) go to shared memory.
  std::uint64_t shared_window_base = 0;
  /// Size of the shared-memory window; 0 means generic accesses always go to global memory.
  std::uint64_t shared_window_bytes = 0;
};

}  // namespace warpsim::core
