#include "sim/core/sm_memory_config.h"

#include <bit>
#include <string>

#include "arch/error.h"
#include "sim/mem/mem_request.h"

namespace warpsim::core {
namespace {

void require(bool ok, const char* field, const std::string& expected, long long got) {
  if (!ok) {
    throw InputError(std::string("sm_memory.") + field + ": expected " + expected + " (got " +
                     std::to_string(got) + ")");
  }
}

void require_range(int value, const char* field, int low, int high) {
  require(value >= low && value <= high, field, std::to_string(low) + ".." + std::to_string(high),
          value);
}

}  // namespace

void SmMemoryConfig::validate() const {
  constexpr int kBig = 1 << 20;
  require_range(sub_partitions, "sub_partitions", 1, 8);
  require_range(warp_slots, "warp_slots", 1, 1024);
  require_range(mio_queue_depth_per_smsp, "mio_queue_depth_per_smsp", 1, 4096);
  require_range(mio_queue_depth_per_sm, "mio_queue_depth_per_sm", 1, 4096);
  require_range(shared_latency_cycles, "shared_latency_cycles", 1, kBig);
  require_range(shared_banks, "shared_banks", 1, 64);
  require(
      shared_bank_width_bytes == 4 || shared_bank_width_bytes == 8 || shared_bank_width_bytes == 16,
      "shared_bank_width_bytes", "4, 8 or 16", shared_bank_width_bytes);
  require_range(shared_conflict_extra_cycles, "shared_conflict_extra_cycles", 0, 1024);
  require_range(shuffle_latency_cycles, "shuffle_latency_cycles", 1, kBig);
  require_range(constant_latency_cycles, "constant_latency_cycles", 1, kBig);
  require_range(lsu_queue_depth_per_smsp, "lsu_queue_depth_per_smsp", 1, 4096);
  require_range(lsu_queue_depth_per_sm, "lsu_queue_depth_per_sm", 1, 4096);
  require(unified_l1_shared_bytes <= (std::uint64_t{1} << 32), "unified_l1_shared_bytes",
          "at most 4 GiB", static_cast<long long>(unified_l1_shared_bytes));
  require(l1_line_bytes == static_cast<int>(mem::kLineBytes), "l1_line_bytes",
          std::to_string(mem::kLineBytes) + " (the memory system's line)", l1_line_bytes);
  require(l1_sector_bytes == static_cast<int>(mem::kSectorBytes), "l1_sector_bytes",
          std::to_string(mem::kSectorBytes) + " (the memory system's sector)", l1_sector_bytes);
  require_range(l1_ways, "l1_ways", 1, 1024);
  require_range(l1_sets, "l1_sets", 0, 4096);
  require(l1_sets == 0 || std::has_single_bit(static_cast<unsigned>(l1_sets)), "l1_sets",
          "0 or a power of two", l1_sets);
  require(!l1_replacement.empty(), "l1_replacement", "a replacement policy name", 0);
  require_range(l1_hit_latency_cycles, "l1_hit_latency_cycles", 1, kBig);
  require_range(l1_fill_latency_cycles, "l1_fill_latency_cycles", 0, kBig);
  require_range(l1_store_complete_cycles, "l1_store_complete_cycles", 1, kBig);
  require_range(l1_tag_sectors_per_cycle, "l1_tag_sectors_per_cycle", 1, 64);
  require_range(l1_tag_lines_per_cycle, "l1_tag_lines_per_cycle", 0, 64);
  require_range(l1_mshr_entries, "l1_mshr_entries", 1, 65536);
  require_range(l1_mshr_merge_slots, "l1_mshr_merge_slots", 0, 65536);
  require_range(l1_mshr_waiters, "l1_mshr_waiters", 0, 1 << 20);
  require(l1_max_sectors_in_flight == 0 || l1_max_sectors_in_flight >= 4,
          "l1_max_sectors_in_flight", "0 (no limit) or at least 4 (one line)",
          l1_max_sectors_in_flight);
  require_range(memory_request_latency_cycles, "memory_request_latency_cycles", 1, kBig);
  require_range(memory_response_latency_cycles, "memory_response_latency_cycles", 1, kBig);
  require_range(memory_request_port_capacity, "memory_request_port_capacity", 0, kBig);
}

}  // namespace warpsim::core
