// Tensor Cores: shapes from mnemonics, mma.sync at its fraction of peak, wgmma at the peak rate,
// MFMA per wavefront, tcgen05.
#include "sim/core/tensor_unit.h"

#include <gtest/gtest.h>

#include <string>

#include "arch/error.h"
#include "tests/sim/core/sm_test_bench.h"
#include "traces/isa/opcode_table.h"

namespace warpsim::core {
namespace {

using engine::Cycle;
using testing::make_kernel;
using testing::SmBench;
using traces::gpr;
using traces::WarpBuilder;

MatrixShape shape_of(traces::Isa isa, const std::string& mnemonic) {
  const traces::OpcodeInfo info = traces::classify_opcode(isa, mnemonic);
  const std::optional<MatrixShape> shape = parse_matrix_shape(info, TensorConfig{});
  EXPECT_TRUE(shape.has_value()) << mnemonic;
  return shape.value_or(MatrixShape{});
}

void expect_shape(const MatrixShape& s, MatrixOpKind kind, int m, int n, int k, TensorType type,
                  int acc_bytes) {
  EXPECT_EQ(s.kind, kind);
  EXPECT_EQ(s.m, m);
  EXPECT_EQ(s.n, n);
  EXPECT_EQ(s.k, k);
  EXPECT_EQ(s.type, type);
  EXPECT_EQ(s.accumulator_bytes, acc_bytes);
}

TEST(CoreTensorShape, ReadsSassMnemonics) {
  using traces::Isa;
  const auto W = MatrixOpKind::kWarp;
  expect_shape(shape_of(Isa::kSm90, "HMMA.16816.F32.BF16"), W, 16, 8, 16, TensorType::kBf16, 4);
  expect_shape(shape_of(Isa::kSm90, "HMMA.16816.F32"), W, 16, 8, 16, TensorType::kFp16, 4);
  expect_shape(shape_of(Isa::kSm90, "HMMA.1688.F16"), W, 16, 8, 8, TensorType::kFp16, 2);
  expect_shape(shape_of(Isa::kSm80, "HMMA.1684.F32.TF32"), W, 16, 8, 4, TensorType::kTf32, 4);
  expect_shape(shape_of(Isa::kSm90, "IMMA.16832.S8.S8"), W, 16, 8, 32, TensorType::kInt8, 4);
  expect_shape(shape_of(Isa::kSm90, "DMMA.884"), W, 8, 8, 4, TensorType::kFp64, 8);
  expect_shape(shape_of(Isa::kSm90, "HGMMA.64x128x16.F32.BF16"), MatrixOpKind::kWarpgroup, 64, 128,
               16, TensorType::kBf16, 4);
  expect_shape(shape_of(Isa::kSm90, "QGMMA.64x256x32.F32.E4M3.E4M3"), MatrixOpKind::kWarpgroup, 64,
               256, 32, TensorType::kFp8, 4);
  expect_shape(shape_of(Isa::kSm100, "UTCHMMA"), MatrixOpKind::kTcgen05, 128, 256, 16,
               TensorType::kFp16, 4);
  expect_shape(shape_of(Isa::kSm100, "UTCQMMA"), MatrixOpKind::kTcgen05, 128, 256, 32,
               TensorType::kFp8, 4);
}

TEST(CoreTensorShape, ReadsCdnaMnemonics) {
  using traces::Isa;
  const auto M = MatrixOpKind::kMfma;
  expect_shape(shape_of(Isa::kGfx942, "v_mfma_f32_32x32x8_f16"), M, 32, 32, 8, TensorType::kFp16,
               4);
  expect_shape(shape_of(Isa::kGfx942, "v_mfma_f32_32x32x8f16"), M, 32, 32, 8, TensorType::kFp16, 4);
  expect_shape(shape_of(Isa::kGfx942, "v_mfma_f32_16x16x16_bf16"), M, 16, 16, 16, TensorType::kBf16,
               4);
  expect_shape(shape_of(Isa::kGfx942, "v_mfma_i32_32x32x16_i8"), M, 32, 32, 16, TensorType::kInt8,
               4);
  expect_shape(shape_of(Isa::kGfx942, "v_mfma_f64_16x16x4_f64"), M, 16, 16, 4, TensorType::kFp64,
               8);
  const MatrixShape blocks = shape_of(Isa::kGfx942, "v_mfma_f32_32x32x4_2b_f16");
  EXPECT_EQ(blocks.blocks, 2);
  EXPECT_DOUBLE_EQ(blocks.flops(), 2.0 * 32 * 32 * 4 * 2);
}

TEST(CoreTensorShape, NonMatrixTensorOpsAndBadShapes) {
  const traces::OpcodeInfo shift = traces::classify_opcode(traces::Isa::kSm100, "UTCSHIFT");
  EXPECT_FALSE(parse_matrix_shape(shift, TensorConfig{}).has_value());
  const traces::OpcodeInfo bad = traces::classify_opcode(traces::Isa::kSm90, "HMMA.F32");
  try {
    parse_matrix_shape(bad, TensorConfig{});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'HMMA.F32': cannot read its shape"), std::string::npos);
  }
}

TEST(CoreTensorShape, MissingRateNamesTheConfigField) {
  const traces::OpcodeInfo info = traces::classify_opcode(traces::Isa::kSm90, "IMMA.16864.S4.S4");
  const MatrixShape shape = *parse_matrix_shape(info, TensorConfig{});
  try {
    matrix_timing(shape, SmConfig{}, info);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'sm.tensor.dense_flop_per_clk_per_sm[int4]' is 0"),
              std::string::npos);
  }
}

TEST(CoreTensorTiming, WgmmaTakesNOverTwoCycles) {
  const traces::OpcodeInfo info =
      traces::classify_opcode(traces::Isa::kSm90, "HGMMA.64x128x16.F32.F16");
  const MatrixTiming t = matrix_timing(*parse_matrix_shape(info, TensorConfig{}), SmConfig{}, info);
  EXPECT_EQ(t.occupancy, 64 * kFixedOne);
}

// One warp issuing `n` independent HMMA.16816 (distinct accumulators), or a dependent chain.
std::vector<Cycle> hmma_issues(int n, bool dependent) {
  auto kernel = make_kernel(1, 32, [&](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    for (int i = 0; i < n; ++i) {
      const auto acc = gpr(dependent ? 0 : static_cast<std::uint32_t>(4 * (i % 50)));
      w.add("HMMA.16816.F32", {acc}, {gpr(200), gpr(204), acc});
    }
    w.add("EXIT");
  });
  SmBench bench;
  bench.run(kernel);
  std::vector<Cycle> cycles = bench.observer().issue_cycles(0);
  cycles.pop_back();
  return cycles;
}

TEST(CoreTensorTiming, MmaSyncReachesItsFractionOfPeak) {
  const std::vector<Cycle> c = hmma_issues(101, false);
  // 100 intervals of 4096 FLOP at 1024 FLOP/clk/SMSP × 0.629 = 6.359 cycles each.
  const double achieved = 100.0 * 4.0 / static_cast<double>(c.back() - c.front());
  EXPECT_NEAR(achieved, 0.629, 0.629 * 0.01);
  EXPECT_EQ(c.back(), 636u);
}

TEST(CoreTensorTiming, DependentMmaSyncWaitsItsLatency) {
  EXPECT_EQ(hmma_issues(4, true), (std::vector<Cycle>{0, 24, 48, 72}));
}

// A warpgroup (4 warps) running `iterations` of ARRIVE; HGMMA m64n256k16 (commit); DEPBAR.LE 1.
// Both inputs come from shared memory ("HGMMA R24, gdesc[UR4], R24"), or A from R100.
traces::KernelTrace wgmma_loop(int iterations, bool a_in_registers = false) {
  return make_kernel(1, 128, [=](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    for (int i = 0; i < iterations; ++i) {
      w.add("WARPGROUP.ARRIVE");
      if (a_in_registers) {
        w.add("HGMMA.64x256x16.F32.F16", {gpr(24)}, {gpr(100), traces::ureg(4), gpr(24)});
      } else {
        w.add("HGMMA.64x256x16.F32.F16", {gpr(24)}, {traces::ureg(4), gpr(24)});
      }
      w.last().flags |= traces::kInstGmmaCommit;
      w.add("WARPGROUP.DEPBAR.LE", {}, {}).imm(1);
    }
    w.add("WARPGROUP.DEPBAR.LE", {}, {}).imm(0);
    w.add("EXIT");
  });
}

TEST(CoreTensorTiming, DenseWgmmaLoopSustainsThePeak) {
  const int iterations = 64;
  auto kernel = wgmma_loop(iterations);
  SmBench bench;
  const Cycle end = bench.run(kernel);
  const SmCounters& c = bench.sm().counters();
  EXPECT_EQ(c.mma_warpgroup_ops, 64u);
  const double flops = 2.0 * 64 * 256 * 16 * iterations;
  const double rate = flops / static_cast<double>(c.cycles_active) / 4096.0;
  EXPECT_GT(rate, 0.95);
  EXPECT_LE(rate, 1.0);
  EXPECT_GE(end, 64u * 128u);
  EXPECT_GT(c.stalls[StallReason::kGmma], 0u);
  EXPECT_DOUBLE_EQ(c.tensor_active_cycles, 64.0 * 128.0);
}

TEST(CoreTensorTiming, WgmmaWaitReleasesAtCompletion) {
  auto kernel = wgmma_loop(1);
  SmBench bench;
  bench.run(kernel);
  // ARRIVE at 0, HGMMA at 1 (all four warps, one per SMSP), completion at 1 + 128; the final
  // DEPBAR.LE 0 issues at 129.
  for (int s = 0; s < 4; ++s) {
    const std::vector<Cycle> c = bench.observer().issue_cycles(s);
    EXPECT_EQ(c, (std::vector<Cycle>{0, 1, 2, 129, 130})) << "warp " << s;
  }
}

TEST(CoreTensorTiming, WgmmaReadsItsSharedMemoryInputsOncePerWarpgroup) {
  auto two = wgmma_loop(2);
  SmBench from_shared;
  from_shared.run(two);
  // m64n256k16 fp16: A 64 x 16 x 2 = 2 KB, B 256 x 16 x 2 = 8 KB, once for the four warps.
  EXPECT_EQ(from_shared.pipeline().operand_reads, (std::vector<std::uint32_t>{10240, 10240}));
  auto one = wgmma_loop(1, true);
  SmBench a_in_registers;
  a_in_registers.run(one);
  EXPECT_EQ(a_in_registers.pipeline().operand_reads, (std::vector<std::uint32_t>{8192}));
}

TEST(CoreTensorTiming, WgmmaCompletesNoSoonerThanItsOperandReads) {
  SmBench bench;
  bench.pipeline().operand_cycles_per_wavefront = 2;  // 80 wavefronts: reads end at 1 + 160
  auto kernel = wgmma_loop(1);
  bench.run(kernel);
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(bench.observer().issue_cycles(s), (std::vector<Cycle>{0, 1, 2, 161, 162}))
        << "warp " << s;
  }
}

TEST(CoreTensorShape, InputBytesFollowTheType) {
  MatrixShape s;
  s.m = 64;
  s.n = 128;
  s.k = 16;
  s.type = TensorType::kBf16;
  EXPECT_EQ(s.a_bytes(), 2048u);
  EXPECT_EQ(s.b_bytes(), 4096u);
  s.k = 32;
  s.type = TensorType::kFp8;
  EXPECT_EQ(s.a_bytes(), 2048u);
  EXPECT_EQ(s.b_bytes(), 4096u);
  s.type = TensorType::kFp4;
  EXPECT_EQ(s.b_bytes(), 2048u);
}

TEST(CoreTensorTiming, MfmaOccupiesItsSimd) {
  SmConfig config;
  config.limits.warp_size = 64;
  config.limits.max_warps_per_sm = 32;
  auto kernel = make_kernel(
      1, 64,
      [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
        for (std::uint32_t i = 0; i < 3; ++i) {
          w.add("v_mfma_f32_32x32x8_f16", {traces::agpr(16 * i)},
                {traces::vgpr(0), traces::vgpr(2), traces::agpr(16 * i)});
        }
        w.add("v_mfma_f32_32x32x8_f16", {traces::agpr(0)},
              {traces::vgpr(0), traces::vgpr(2), traces::agpr(0)});
        w.add("v_add_f32", {traces::vgpr(9)}, {traces::vgpr(7), traces::vgpr(8)});
        w.add("v_add_f32", {traces::vgpr(10)}, {traces::vgpr(7), traces::vgpr(8)});
        w.add("s_endpgm");
      },
      traces::Isa::kGfx942);
  SmBench bench(config);
  bench.run(kernel);
  // 16384 FLOP at 1024 FLOP/clk per SIMD: 16 cycles each; the 4th waits for a0 (16 + 4 after
  // the first) and the unit (48); a wave64 VALU op holds its SIMD 4 cycles.
  EXPECT_EQ(bench.observer().issue_cycles(0), (std::vector<Cycle>{0, 16, 32, 48, 49, 53, 54}));
}

TEST(CoreTensorTiming, Tcgen05OccupiesTheSmTensorUnits) {
  auto kernel = make_kernel(
      1, 32,
      [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
        w.add("UTCHMMA.128x256x16", {}, {traces::ureg(4), traces::ureg(6)});
        w.add("UTCHMMA.128x256x16", {}, {traces::ureg(4), traces::ureg(6)});
        w.add("LDTM.x16", {gpr(4)}, {traces::ureg(8)});
        w.add("EXIT");
      },
      traces::Isa::kSm100);
  SmBench bench({}, 100, 30);
  bench.run(kernel);
  // 2·128·256·16 / 4096 = 256 cycles each; the tensor-memory load waits for both (512).
  EXPECT_EQ(bench.observer().issue_cycles(0), (std::vector<Cycle>{0, 1, 512, 513}));
  EXPECT_EQ(bench.sm().counters().mma_tcgen05_ops, 2u);
}

}  // namespace
}  // namespace warpsim::core
