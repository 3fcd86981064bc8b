// Cross-architecture answers respect physics: a DRAM-bound kernel gains at most the HBM bandwidth
// ratio from H200 to B200, a tensor-bound one at most the tensor-rate ratio. Both on the
// analytical bound and on the cycle model.
#include <gtest/gtest.h>

#include "arch/derived.h"
#include "arch/loader.h"
#include "sim/replay/replay.h"
#include "tests/sim/replay/replay_test_util.h"

namespace warpsim::replay {
namespace {

using testing::pc;
using traces::ncu::PcSpace;

// A grid-stride copy: 16 iterations of a coalesced 128-byte load and store per warp, 16 MiB each
// way, every byte from and to DRAM.
traces::ncu::KernelProfile copy_kernel() {
  traces::ncu::KernelProfile p;
  p.name = "copy";
  p.input = "hand-made";
  p.source_gpu = "NVIDIA H200";
  p.sm_version = 90;
  p.grid = {1056, 1, 1};
  p.block = {256, 1, 1};  // 8448 warps.
  const double warps = 8448, iters = 16;
  p.pcs = {
      pc(0x00, "S2R R0, SR_TID.X", warps),
      pc(0x10, "LDG.E R2, desc[UR4][R4.64]", warps * iters, PcSpace::kGlobal, warps * iters * 4),
      pc(0x20, "IADD3 R4, R4, 0x80, RZ", warps * iters),
      pc(0x30, "STG.E desc[UR4][R6.64], R2", warps * iters, PcSpace::kGlobal, warps * iters * 4),
      pc(0x40, "ISETP.GE.AND P0, PT, R4, R8, PT", warps * iters),
      pc(0x50, "EXIT", warps)};
  p.dram_read_bytes = warps * iters * 128;
  p.dram_write_bytes = warps * iters * 128;
  p.registers_per_thread = 16;
  return p;
}

// Independent bf16 mma.sync chains: 4 accumulators per warp, 256 rounds, 4 warps per CTA,
// 4 CTAs per SM of the H200.
traces::ncu::KernelProfile mma_kernel() {
  traces::ncu::KernelProfile p;
  p.name = "mma";
  p.input = "hand-made";
  p.source_gpu = "NVIDIA H200";
  p.sm_version = 90;
  p.grid = {528, 1, 1};
  p.block = {128, 1, 1};
  const double warps = 528 * 4, rounds = 256;
  p.pcs = {pc(0x00, "S2R R0, SR_TID.X", warps)};
  for (int k = 0; k < 4; ++k) {
    p.pcs.push_back(pc(0x10 + 0x10 * k,
                       "HMMA.16816.F32.BF16 R" + std::to_string(8 + 4 * k) + ", R40, R44, R" +
                           std::to_string(8 + 4 * k),
                       warps * rounds));
  }
  p.pcs.push_back(pc(0x50, "EXIT", warps));
  p.registers_per_thread = 64;
  return p;
}

double hbm_ratio() {
  return arch::hbm_bandwidth_tb_per_s(arch::load_spec("b200").spec) /
         arch::hbm_bandwidth_tb_per_s(arch::load_spec("h200").spec);
}

double tensor_ratio() {
  const auto b = arch::peak_dense_tensor_tflops(arch::load_spec("b200").spec, arch::Tensor::BF16);
  const auto h = arch::peak_dense_tensor_tflops(arch::load_spec("h200").spec, arch::Tensor::BF16);
  return b.value_or(0) / h.value_or(1);
}

// Source (h200) time over target (b200) time, simulated; and the same for the bound.
std::pair<double, double> speedups(const traces::ncu::KernelProfile& p, std::string* bottleneck) {
  ReplayOptions options;
  options.target = "b200";
  const auto r = replay_profiles({p}, options);
  EXPECT_EQ(r.size(), 1u);
  *bottleneck = r[0].target_bound.bottleneck;
  EXPECT_EQ(r[0].source_bound.bottleneck, *bottleneck);
  const double src = *simulated(*r[0].source, "gpc__cycles_elapsed.max") / r[0].source_sm_mhz;
  const double dst = *simulated(r[0].target, "gpc__cycles_elapsed.max") / r[0].target_sm_mhz;
  return {src / dst, r[0].source_bound.ns / r[0].target_bound.ns};
}

TEST(ReplayPhysics, DramBoundKernelGainsAtMostTheHbmRatio) {
  std::string bottleneck;
  const auto [simulated_speedup, bound_speedup] = speedups(copy_kernel(), &bottleneck);
  EXPECT_EQ(bottleneck, "dram");
  EXPECT_NEAR(bound_speedup, hbm_ratio(), 1e-9);
  EXPECT_GT(simulated_speedup, 0.5);
  EXPECT_LE(simulated_speedup, hbm_ratio() * 1.02);
}

TEST(ReplayPhysics, TensorBoundKernelGainsAtMostTheTensorRateRatio) {
  std::string bottleneck;
  const auto [simulated_speedup, bound_speedup] = speedups(mma_kernel(), &bottleneck);
  EXPECT_EQ(bottleneck, "tensor bf16");
  EXPECT_LE(bound_speedup, tensor_ratio() * (1 + 1e-9));
  EXPECT_GT(simulated_speedup, 0.5);
  EXPECT_LE(simulated_speedup, tensor_ratio() * 1.02);
}

}  // namespace
}  // namespace warpsim::replay
