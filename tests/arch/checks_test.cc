#include "arch/checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "arch/error.h"
#include "arch/loader.h"
#include "arch/overrides.h"
#include "arch/presets.h"
#include "tests/arch/arch_test_util.h"

namespace warpsim::arch {
namespace {

using testing::at;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Violations of `arch` after `overrides`.
std::vector<std::string> violations(const std::string& arch,
                                    const std::vector<std::string>& overrides) {
  LoadedSpec loaded = resolve_spec(arch);
  apply_overrides(loaded.spec, overrides, &loaded.provenance);
  return find_violations(loaded.spec, loaded.provenance);
}

std::vector<std::string> h200_violations(const std::vector<std::string>& overrides) {
  return violations("h200", overrides);
}

std::string set(const std::string& path, const std::string& expression) {
  return path + " set at --set '" + expression + "'";
}

TEST(ArchChecks, EveryPresetIsConsistent) {
  for (const auto& name : preset_names()) {
    EXPECT_THAT(violations(name, {}), ElementsAre()) << name;
  }
}

TEST(ArchChecks, CheckSpecThrowsWithEveryViolation) {
  LoadedSpec loaded = resolve_spec("h200");
  apply_overrides(loaded.spec, {"l1.line_bytes=96", "sm.count=0"}, &loaded.provenance);
  try {
    check_spec(loaded.spec, loaded.provenance, "nvidia/h200");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "architecture 'nvidia/h200' is inconsistent:\n"
              "  sm.count = 0 must be positive (" +
                  set("sm.count", "sm.count=0") +
                  ")\n"
                  "  l1.line_bytes = 96 must be a power of two (" +
                  set("l1.line_bytes", "l1.line_bytes=96") + ")");
  }
  EXPECT_NO_THROW(check_spec(resolve_spec("h200").spec, {}, "h200"));
}

TEST(ArchChecks, RequiredFields) {
  LoadedSpec loaded = resolve_spec("h200");
  loaded.spec.mutable_sm()->clear_count();
  loaded.spec.mutable_functional_units()->clear_fp64();
  loaded.spec.clear_hbm();
  const auto found = find_violations(loaded.spec, loaded.provenance);
  EXPECT_THAT(found, Contains("sm.count is missing (required)"));
  EXPECT_THAT(found, Contains("hbm.channels is missing (required)"));
  EXPECT_THAT(found, Contains("functional_units.fp64.latency_cycles is missing (required)"));
  EXPECT_THAT(found, Contains("functional_units.fp64.lanes is missing (required)"));
  EXPECT_THAT(find_violations(Spec(), {}), Contains("name is missing (required)"));
}

TEST(ArchChecks, NumbersPositiveAndFinite) {
  EXPECT_THAT(h200_violations({"l2.ways=0"}),
              ElementsAre("l2.ways = 0 must be positive (" + set("l2.ways", "l2.ways=0") + ")"));
  EXPECT_THAT(h200_violations({"tensor.dense_flops_per_clk_per_sm[fp8]=0"}),
              ElementsAre("tensor.dense_flops_per_clk_per_sm[fp8] = 0 must be positive (" +
                          set("tensor.dense_flops_per_clk_per_sm[fp8]",
                              "tensor.dense_flops_per_clk_per_sm[fp8]=0") +
                          ")"));
  EXPECT_THAT(h200_violations({"shared_memory.reserved_per_cta_bytes=0"}), ElementsAre());
  EXPECT_THAT(h200_violations({"l1.shared_carveout_kb[0]=0"}), ElementsAre());
  LoadedSpec loaded = resolve_spec("h200");
  loaded.spec.mutable_clocks()->set_l2_mhz(std::numeric_limits<double>::infinity());
  EXPECT_THAT(find_violations(loaded.spec, loaded.provenance),
              ElementsAre("clocks.l2_mhz = inf must be a finite number (clocks.l2_mhz set at " +
                          at("nvidia/h200.textproto", "l2_mhz") + ")"));
  loaded.spec.mutable_clocks()->set_l2_mhz(-1);
  EXPECT_THAT(find_violations(loaded.spec, loaded.provenance),
              ElementsAre(HasSubstr("clocks.l2_mhz = -1 must be positive")));
}

TEST(ArchChecks, PowersOfTwo) {
  for (const char* path :
       {"l1.sector_bytes", "l2.line_bytes", "shared_memory.banks", "shared_memory.bank_width_bytes",
        "hbm.row_bytes", "hbm.banks_per_bank_group", "hbm.timings.burst_length", "sm.warp_size",
        "register_file.allocation_unit_registers"}) {
    const std::string expression = std::string(path) + "=3";
    EXPECT_THAT(
        h200_violations({expression}),
        Contains(std::string(path) + " = 3 must be a power of two (" + set(path, expression) + ")"))
        << path;
  }
}

TEST(ArchChecks, SectorNotLargerThanLine) {
  EXPECT_THAT(
      h200_violations({"l1.sector_bytes=256"}),
      ElementsAre("l1.sector_bytes = 256 exceeds l1.line_bytes = 128 (" +
                  set("l1.sector_bytes", "l1.sector_bytes=256") + "; l1.line_bytes set at " +
                  at("nvidia/base.textproto", "line_bytes:") + ")"));
  EXPECT_THAT(h200_violations({"l2.sector_bytes=256"}),
              Contains(HasSubstr("l2.sector_bytes = 256 exceeds l2.line_bytes = 128")));
}

TEST(ArchChecks, SharedMemoryWithinL1AndCarveOut) {
  EXPECT_THAT(h200_violations({"shared_memory.per_cta_max_bytes=233472"}),
              ElementsAre(HasSubstr("shared_memory.per_cta_max_bytes = 233472 exceeds "
                                    "shared_memory.per_sm_max_bytes = 233472 (with "
                                    "shared_memory.reserved_per_cta_bytes = 1024 added per CTA)")));
  const auto small_l1 = h200_violations({"l1.capacity_bytes=131072"});
  EXPECT_THAT(small_l1, Contains(HasSubstr("shared_memory.per_sm_max_bytes = 233472 exceeds "
                                           "l1.capacity_bytes = 131072")));
  EXPECT_THAT(small_l1, Contains(HasSubstr("l1.shared_carveout_kb has 228 KiB, more than "
                                           "l1.capacity_bytes = 131072")));
  EXPECT_THAT(h200_violations({"l1.shared_carveout_kb=[0,100]"}),
              ElementsAre(HasSubstr("shared_memory.per_sm_max_bytes = 233472 differs from the "
                                    "largest carve-out, 100 KiB in l1.shared_carveout_kb")));
  EXPECT_THAT(h200_violations({"l1.unified_with_shared=false"}),
              ElementsAre(HasSubstr("l1.shared_carveout_kb is set but l1.unified_with_shared is "
                                    "false")));
  EXPECT_THAT(violations("mi300x", {"l1.shared_carveout_kb=[64]"}),
              ElementsAre(HasSubstr("l1.unified_with_shared is false")));
}

TEST(ArchChecks, L2AndMemoryGeometry) {
  EXPECT_THAT(h200_violations({"l2.slices=100"}),
              ElementsAre(HasSubstr("l2.size_bytes = 62914560 is not a whole number of sets of "
                                    "l2.slices = 100 x l2.ways = 32 x l2.line_bytes = 128")));
  EXPECT_THAT(h200_violations({"l2.near_hit_latency_cycles=600"}),
              ElementsAre(HasSubstr("l2.near_hit_latency_cycles = 600 exceeds "
                                    "l2.far_hit_latency_cycles = 427")));
  EXPECT_THAT(h200_violations({"l2.request_coalescer_entries=1000000"}),
              ElementsAre(HasSubstr("l2.request_coalescer_entries = 1000000 exceeds 65536")));
  EXPECT_THAT(h200_violations({"l2.request_coalescer_followers=100"}),
              ElementsAre(HasSubstr("l2.request_coalescer_followers = 100 exceeds 64")));
  EXPECT_THAT(h200_violations({"l1.ways=16"}),
              ElementsAre(HasSubstr("give l1.ways (a modulo set index) or l1.sets (an "
                                    "XOR-folded one), not both")));
  EXPECT_THAT(h200_violations({"l1.sets=24"}),
              ElementsAre(HasSubstr("l1.sets = 24 must be a power of two")));
  EXPECT_TRUE(h200_violations({"l1.sets=0", "l1.ways=16"}).empty());
  EXPECT_THAT(h200_violations({"l2.replacement_candidates=33"}),
              ElementsAre(HasSubstr("l2.replacement_candidates = 33 exceeds the 32 ways")));
  EXPECT_THAT(violations("b200", {"l2.partial_lines=100000"}),
              ElementsAre(HasSubstr("l2.partial_line_ways (unset) must be at least 1 with "
                                    "l2.partial_lines = 100000")));
  EXPECT_THAT(h200_violations({"l2.partial_lines=150"}),
              ElementsAre(HasSubstr("l2.partial_lines = 150 leaves a slice less than one set of "
                                    "l2.partial_line_ways = 2 over l2.slices = 96")));
  EXPECT_THAT(h200_violations({"l2.dirty_victim_skip=1"}),
              ElementsAre(HasSubstr("l2.dirty_victim_skip = 1 must be below 1")));
  EXPECT_THAT(h200_violations({"l2.dirty_victim_skip=-0.5"}),
              ElementsAre(HasSubstr("l2.dirty_victim_skip = -0.5 must not be negative")));
  EXPECT_TRUE(h200_violations({"l2.dirty_victim_skip=0"}).empty());
  EXPECT_THAT(h200_violations({"l2.far_read_copies=false"}),
              ElementsAre(HasSubstr("l2.far_write_copies = true needs l2.far_read_copies")));
  EXPECT_TRUE(h200_violations({"l2.far_read_copies=false", "l2.far_write_copies=false"}).empty());
  EXPECT_THAT(h200_violations({"l2.set_index=xor"}),
              ElementsAre(HasSubstr("l2.set_index = \"xor\" must be \"modulo\" or \"rotated\"")));
  EXPECT_THAT(h200_violations({"l2.partial_line_index=xor"}),
              ElementsAre(HasSubstr(
                  "l2.partial_line_index = \"xor\" must be \"hashed\", \"line\" or \"slice\"")));
  EXPECT_THAT(h200_violations({"l2.partial_line_victim=oldest"}),
              ElementsAre(HasSubstr(
                  "l2.partial_line_victim = \"oldest\" must be \"lru\" or \"random\"")));
  EXPECT_THAT(h200_violations({"l2.die_scope=everywhere"}),
              ElementsAre(HasSubstr("l2.die_scope = \"everywhere\" must be \"shared\" or "
                                    "\"per_die\"")));
  EXPECT_THAT(violations("mi300x", {"l2.slices=100", "l2.size_bytes=26214400"}),
              ElementsAre(HasSubstr("l2.slices = 100 must divide evenly among dies.count = 8 "
                                    "when l2.die_scope is \"per_die\"")));
  EXPECT_THAT(h200_violations({"hbm.channels=97"}),
              ElementsAre(HasSubstr("hbm.channels = 97 must divide evenly among hbm.stacks = 6")));
  EXPECT_THAT(h200_violations({"hbm.background_seconds=0.01,0.05", "hbm.background_read_bytes=1",
                               "hbm.background_write_bytes=0,0"}),
              ElementsAre(HasSubstr("must have one length (2, 1, 2 values)")));
  EXPECT_THAT(h200_violations({"hbm.background_seconds=0.05,0.01", "hbm.background_read_bytes=1,2",
                               "hbm.background_write_bytes=0,0"}),
              ElementsAre(HasSubstr("hbm.background_seconds must increase: value 2")));
  EXPECT_THAT(h200_violations({"hbm.background_seconds=0,0.01", "hbm.background_read_bytes=1,2",
                               "hbm.background_write_bytes=0,0"}),
              ElementsAre(HasSubstr("hbm.background_seconds = 0 must be positive")));
  EXPECT_TRUE(h200_violations({"hbm.background_seconds=0.01,0.05", "hbm.background_read_bytes=0,2",
                               "hbm.background_write_bytes=0,0"})
                  .empty());
  EXPECT_THAT(violations("mi300x", {"memory_side_cache.size_bytes=1000"}),
              ElementsAre(HasSubstr("memory_side_cache.size_bytes = 1000 is not a whole number "
                                    "of sets")));
  const auto partial = h200_violations({"memory_side_cache.ways=4"});
  EXPECT_THAT(partial, Contains("memory_side_cache.size_bytes is missing (required with a "
                                "memory-side cache)"));
  EXPECT_THAT(partial, Contains("memory_side_cache.line_bytes is missing (required with a "
                                "memory-side cache)"));
}

TEST(ArchChecks, DiesDivideSms) {
  EXPECT_THAT(h200_violations({"dies.count=5"}),
              Contains(HasSubstr("dies.count = 5 does not divide sm.count = 132")));
  EXPECT_THAT(h200_violations({"dies.count=4"}),
              ElementsAre(HasSubstr("dies.count = 4 must be 2 when l2.die_scope is \"shared\"")));
  EXPECT_THAT(violations("b200", {"sm.count=150"}),
              ElementsAre("dies.sms_per_die = 74 x dies.count = 2 differs from sm.count = 150 "
                          "(dies.sms_per_die set at " +
                          at("nvidia/b200.textproto", "sms_per_die") + "; dies.count set at " +
                          at("nvidia/b200.textproto", "count: 2") + "; " +
                          set("sm.count", "sm.count=150") + ")"));
  EXPECT_THAT(h200_violations({"sm.count=144"}), ElementsAre());
}

TEST(ArchChecks, SmTablesNameEachSmOnceAndRealPartitions) {
  LoadedSpec loaded = resolve_spec("h200");
  EXPECT_EQ(loaded.spec.launch().cta_sm_order_size(), 132);
  EXPECT_EQ(loaded.spec.l2().sm_partitions_size(), 132);
  loaded.spec.mutable_launch()->set_cta_sm_order(3, 124);  // 124 twice
  loaded.spec.mutable_l2()->set_sm_partitions(5, 2);       // of two partitions
  EXPECT_THAT(find_violations(loaded.spec, loaded.provenance),
              ElementsAre(HasSubstr("launch.cta_sm_order must name each of its 132 SMs (0 to "
                                    "131) once; 124 is out of range or repeated"),
                          HasSubstr("l2.sm_partitions names partition 2, not below "
                                    "l2.partitions = 2")));
}

TEST(ArchChecks, CoalescerSourcesStayWithinOnePartition) {
  LoadedSpec loaded = resolve_spec("h200");
  EXPECT_EQ(loaded.spec.l2().request_coalescer_sm_sources_size(), 132);
  EXPECT_THAT(find_violations(loaded.spec, loaded.provenance), ElementsAre());
  // SM 2 sits next to the second partition; source 0 holds SMs of the first.
  loaded.spec.mutable_l2()->set_request_coalescer_sm_sources(2, 0);
  EXPECT_THAT(find_violations(loaded.spec, loaded.provenance),
              ElementsAre(HasSubstr("l2.request_coalescer_sm_sources puts SM 2 (partition 1 in "
                                    "l2.sm_partitions) in source 0 with SMs of partition 0")));
  loaded.spec.mutable_l2()->set_request_coalescer_sm_sources(2, 300);
  EXPECT_THAT(find_violations(loaded.spec, loaded.provenance),
              ElementsAre(HasSubstr("l2.request_coalescer_sm_sources names source 300, not "
                                    "below 256")));
}

TEST(ArchChecks, OccupancyAndRegisters) {
  EXPECT_THAT(h200_violations({"occupancy.max_threads_per_sm=4096"}),
              ElementsAre(HasSubstr("occupancy.max_threads_per_sm = 4096 exceeds "
                                    "occupancy.max_warps_per_sm = 64 x sm.warp_size")));
  EXPECT_THAT(h200_violations({"occupancy.max_threads_per_cta=1000"}),
              ElementsAre(HasSubstr("occupancy.max_threads_per_cta = 1000 is not a multiple of "
                                    "sm.warp_size = 32")));
  EXPECT_THAT(h200_violations({"occupancy.max_threads_per_cta=4096"}),
              ElementsAre(HasSubstr("occupancy.max_threads_per_cta = 4096 exceeds "
                                    "occupancy.max_threads_per_sm = 2048")));
  EXPECT_THAT(
      h200_violations({"occupancy.max_warps_per_sm=66", "occupancy.max_threads_per_sm=2048"}),
      ElementsAre(HasSubstr("occupancy.max_warps_per_sm = 66 does not divide among "
                            "sm.sub_partitions = 4")));
  EXPECT_THAT(
      h200_violations({"register_file.max_registers_per_thread=4096"}),
      ElementsAre(HasSubstr("register_file.max_registers_per_thread = 4096 exceeds "
                            "register_file.registers_per_sm = 65536 (times sm.warp_size)")));
  EXPECT_THAT(h200_violations({"register_file.max_registers_per_cta=100000"}),
              ElementsAre(HasSubstr("register_file.max_registers_per_cta = 100000 exceeds")));
  EXPECT_THAT(h200_violations({"register_file.allocation_unit_registers=131072"}),
              ElementsAre(HasSubstr("register_file.allocation_unit_registers = 131072 exceeds")));
  EXPECT_THAT(h200_violations({"register_file.allocation_granularity=thread"}),
              ElementsAre(HasSubstr("register_file.allocation_granularity = \"thread\" must be "
                                    "\"warp\" or \"cta\"")));
}

TEST(ArchChecks, FunctionalUnits) {
  EXPECT_THAT(h200_violations({"functional_units.fp32.lanes=64"}),
              ElementsAre(HasSubstr("functional_units.fp32.lanes = 64 exceeds sm.warp_size = 32")));
  EXPECT_THAT(h200_violations({"functional_units.fp32.lanes=8"}),
              ElementsAre(HasSubstr("functional_units.fp32.initiation_interval_cycles = 1 x "
                                    "functional_units.fp32.lanes = 8 is less than sm.warp_size = "
                                    "32")));
}

TEST(ArchChecks, TensorRatesAndShapes) {
  EXPECT_THAT(h200_violations({"tensor.dense_flops_per_clk_per_sm[fp12]=1"}),
              ElementsAre("tensor.dense_flops_per_clk_per_sm[fp12]: unknown data type 'fp12'; "
                          "expected one of fp16, bf16, tf32, fp8, int8, fp4, fp64 (" +
                          set("tensor.dense_flops_per_clk_per_sm[fp12]",
                              "tensor.dense_flops_per_clk_per_sm[fp12]=1") +
                          ")"));
  EXPECT_THAT(h200_violations({"tensor.shapes[mma.m16n8k16.f16].data_type=FP4"}),
              ElementsAre(HasSubstr("tensor.shapes[mma.m16n8k16.f16] is FP4 but "
                                    "tensor.dense_flops_per_clk_per_sm has no \"fp4\" rate")));
  EXPECT_THAT(h200_violations({"tensor.shapes[mma.m16n8k16.f16].fraction_of_peak=1.5"}),
              ElementsAre(HasSubstr("tensor.shapes[mma.m16n8k16.f16].fraction_of_peak = 1.500000 "
                                    "must be at most 1")));
  const auto partial = h200_violations({"tensor.shapes[new].m=8"});
  EXPECT_THAT(partial, Contains("tensor.shapes[new].n is missing (required) (tensor.shapes[new] "
                                "set at --set 'tensor.shapes[new].m=8')"));
  EXPECT_THAT(partial, Contains(HasSubstr("tensor.shapes[new].data_type is missing (required)")));
  EXPECT_THAT(partial, Contains(HasSubstr("tensor.shapes[new].issue_scope is missing (required)")));
  EXPECT_EQ(partial.size(), 5u);
}

}  // namespace
}  // namespace warpsim::arch
