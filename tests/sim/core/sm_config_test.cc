#include "sim/core/sm_config.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "arch/error.h"
#include "sim/core/opcode_decode.h"

namespace warpsim::core {
namespace {

TEST(CoreSmConfig, DefaultsDescribeAnH100Sm) {
  const SmConfig c;
  EXPECT_NO_THROW(validate_sm_config(c));
  EXPECT_EQ(c.limits.sub_partitions, 4);
  EXPECT_EQ(c.scheduler, "gto");
  EXPECT_EQ(c.units[arch::FP32].initiation_interval_cycles, 1);
  EXPECT_EQ(c.units[arch::INT].initiation_interval_cycles, 2);
  EXPECT_EQ(c.units[arch::SFU].initiation_interval_cycles, 8);
  EXPECT_EQ(c.units[arch::FP32].latency_cycles, 4);
  EXPECT_DOUBLE_EQ(c.tensor.dense_flop_per_clk_per_sm[0], 4096.0);
  EXPECT_EQ(c.amd.valu_simd_cycles, 4);
  EXPECT_EQ(c.limits.shared_memory_per_sm_bytes, 228 * 1024);
}

void expect_error(const std::function<void(SmConfig&)>& edit, const std::string& message) {
  SmConfig c;
  edit(c);
  try {
    validate_sm_config(c);
    FAIL() << "expected InputError: " << message;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(CoreSmConfig, BadFieldsAreNamed) {
  expect_error([](SmConfig& c) { c.issue_width = 0; },
               "SM config: field 'sm.issue_width' must be in [1, 8] (got 0)");
  expect_error([](SmConfig& c) { c.units[arch::FP32].initiation_interval_cycles = 0; },
               "SM config: field 'sm.units[FP32].initiation_interval_cycles' must be in [1, "
               "100000] (got 0)");
  expect_error([](SmConfig& c) { c.units[arch::SFU].units_per_smsp = 9; },
               "SM config: field 'sm.units[SFU].units_per_smsp' must be in [1, 4] (got 9)");
  expect_error([](SmConfig& c) { c.tensor.mma_sync_fraction_of_peak = 1.5; },
               "SM config: field 'sm.tensor.mma_sync_fraction_of_peak' must be in (0, 1] (got "
               "1.500000)");
  expect_error([](SmConfig& c) { c.tensor.dense_flop_per_clk_per_sm[2] = -1; },
               "SM config: field 'sm.tensor.dense_flop_per_clk_per_sm[tf32]' must be in [0, "
               "1000000000] (got -1)");
  expect_error([](SmConfig& c) { c.limits.max_warps_per_sm = 128; },
               "SM config: field 'sm.limits.max_warps_per_sm' must be in [1, 64] (got 128)");
  expect_error([](SmConfig& c) { c.amd.valu_simd_cycles = 0; },
               "SM config: field 'sm.amd.valu_simd_cycles' must be in [1, 64] (got 0)");
  expect_error([](SmConfig& c) { c.branch_resolve_cycles = -2; },
               "SM config: field 'sm.branch_resolve_cycles' must be in [0, 100000] (got -2)");
}

TEST(CoreSmConfig, DecoderClassifiesOpcodes) {
  SmConfig config;
  traces::OpcodeTable table(traces::Isa::kSm90);
  const auto ffma = table.intern("FFMA");
  const auto ldg = table.intern("LDG.E.128");
  const auto bar = table.intern("BAR.SYNC.DEFER_BLOCKING");
  const auto arv = table.intern("BAR.ARV");
  const auto bssy = table.intern("BSSY");
  const auto bra = table.intern("BRA");
  const auto wait = table.intern("WARPGROUP.DEPBAR.LE");
  const auto dfma = table.intern("DFMA");
  OpcodeDecoder decoder(config);
  decoder.sync(table, 32);
  EXPECT_EQ(decoder[ffma].kind, ExecKind::kAlu);
  EXPECT_EQ(decoder[ffma].latency_cycles, 4);
  EXPECT_EQ(decoder[ldg].kind, ExecKind::kMemory);
  EXPECT_EQ(decoder[ldg].dst_regs, 4);
  EXPECT_EQ(decoder[ldg].dependency, DependencyKind::kLong);
  EXPECT_EQ(decoder[bar].kind, ExecKind::kBarrierSync);
  EXPECT_EQ(decoder[arv].kind, ExecKind::kBarrierArrive);
  EXPECT_EQ(decoder[bssy].kind, ExecKind::kReconverge);
  EXPECT_EQ(decoder[bra].kind, ExecKind::kBranch);
  EXPECT_EQ(decoder[wait].kind, ExecKind::kWarpgroupWait);
  EXPECT_EQ(decoder[dfma].dst_regs, 2);
  // A special register arrives at the shuffle latency, its readers charged short_scoreboard; a
  // clock read is fixed-latency.
  const auto s2r = table.intern("S2R");
  const auto cs2r = table.intern("CS2R");
  decoder.sync(table, 32);
  EXPECT_EQ(decoder[s2r].kind, ExecKind::kAlu);
  EXPECT_EQ(decoder[s2r].dependency, DependencyKind::kShort);
  EXPECT_EQ(decoder[s2r].latency_cycles,
            config.units[static_cast<std::size_t>(arch::SHUFFLE)].latency_cycles);
  EXPECT_EQ(decoder[cs2r].dependency, DependencyKind::kFixed);
  // Opcodes interned later are decoded on the next sync.
  const auto hmma = table.intern("HMMA.16816.F32.BF16");
  decoder.sync(table, 32);
  EXPECT_EQ(decoder.size(), table.size());
  EXPECT_EQ(decoder[hmma].kind, ExecKind::kMmaWarp);
  EXPECT_EQ(decoder[hmma].dst_regs, 4);
}

}  // namespace
}  // namespace warpsim::core
