#include "sim/core/sm_memory_config.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "arch/error.h"

namespace warpsim::core {
namespace {

TEST(CoreLsuConfig, DefaultsAreValidHopperValues) {
  const SmMemoryConfig config;
  EXPECT_NO_THROW(config.validate());
  EXPECT_EQ(config.shared_latency_cycles, 29);
  EXPECT_EQ(config.l1_hit_latency_cycles, 40);
  EXPECT_EQ(config.l1_tag_sectors_per_cycle, 4);
  EXPECT_EQ(config.unified_l1_shared_bytes, 256u * 1024u);
}

TEST(CoreLsuConfig, EveryBadFieldIsNamed) {
  const std::vector<std::pair<std::string, std::function<void(SmMemoryConfig&)>>> cases = {
      {"sub_partitions", [](SmMemoryConfig& c) { c.sub_partitions = 0; }},
      {"mio_queue_depth_per_smsp", [](SmMemoryConfig& c) { c.mio_queue_depth_per_smsp = 0; }},
      {"mio_queue_depth_per_sm", [](SmMemoryConfig& c) { c.mio_queue_depth_per_sm = -1; }},
      {"shared_latency_cycles", [](SmMemoryConfig& c) { c.shared_latency_cycles = 0; }},
      {"shared_banks", [](SmMemoryConfig& c) { c.shared_banks = 65; }},
      {"shared_bank_width_bytes", [](SmMemoryConfig& c) { c.shared_bank_width_bytes = 2; }},
      {"shuffle_latency_cycles", [](SmMemoryConfig& c) { c.shuffle_latency_cycles = 0; }},
      {"constant_latency_cycles", [](SmMemoryConfig& c) { c.constant_latency_cycles = 0; }},
      {"lsu_queue_depth_per_smsp", [](SmMemoryConfig& c) { c.lsu_queue_depth_per_smsp = 0; }},
      {"lsu_queue_depth_per_sm", [](SmMemoryConfig& c) { c.lsu_queue_depth_per_sm = 0; }},
      {"unified_l1_shared_bytes",
       [](SmMemoryConfig& c) { c.unified_l1_shared_bytes = std::uint64_t{1} << 40; }},
      {"l1_line_bytes", [](SmMemoryConfig& c) { c.l1_line_bytes = 64; }},
      {"l1_sector_bytes", [](SmMemoryConfig& c) { c.l1_sector_bytes = 16; }},
      {"l1_ways", [](SmMemoryConfig& c) { c.l1_ways = 0; }},
      {"l1_replacement", [](SmMemoryConfig& c) { c.l1_replacement.clear(); }},
      {"l1_hit_latency_cycles", [](SmMemoryConfig& c) { c.l1_hit_latency_cycles = 0; }},
      {"l1_fill_latency_cycles", [](SmMemoryConfig& c) { c.l1_fill_latency_cycles = -1; }},
      {"l1_tag_sectors_per_cycle", [](SmMemoryConfig& c) { c.l1_tag_sectors_per_cycle = 0; }},
      {"l1_mshr_entries", [](SmMemoryConfig& c) { c.l1_mshr_entries = 0; }},
      {"l1_max_sectors_in_flight", [](SmMemoryConfig& c) { c.l1_max_sectors_in_flight = 3; }},
      {"l1_mshr_merge_slots", [](SmMemoryConfig& c) { c.l1_mshr_merge_slots = -1; }},
      {"l1_mshr_waiters", [](SmMemoryConfig& c) { c.l1_mshr_waiters = -1; }},
      {"memory_request_latency_cycles",
       [](SmMemoryConfig& c) { c.memory_request_latency_cycles = 0; }},
      {"memory_response_latency_cycles",
       [](SmMemoryConfig& c) { c.memory_response_latency_cycles = 0; }},
      {"memory_request_port_capacity",
       [](SmMemoryConfig& c) { c.memory_request_port_capacity = -2; }},
  };
  for (const auto& [field, breaks] : cases) {
    SmMemoryConfig config;
    breaks(config);
    try {
      config.validate();
      ADD_FAILURE() << field << " was accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("sm_memory." + field + ":"), std::string::npos)
          << error.what();
    }
  }
}

}  // namespace
}  // namespace warpsim::core
