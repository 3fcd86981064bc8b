#include "sim/core/occupancy.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "arch/error.h"

namespace warpsim::core {
namespace {

constexpr std::int64_t kKiB = 1024;

// H100 / H200 (sm_90): 64 warps, 2048 threads, 32 CTAs, 65536 registers (16384 per SMSP),
// 255 registers per thread, 228 KiB shared per SM, 227 KiB per CTA, 1 KiB reserved per CTA.
// Carve-out configurations: CUDA lists 0, 8, 16, 32, 64, 100, 132, 164, 196 and 228 KB for
// sm_90, but the H200 driver (580.159) was measured configuring 32 KB for kernels that needed
// only 8 KB and 16 KB (shared/fixtures/ncu h200-saxpy-diverge and h200-shared-stride,
// launch__shared_mem_config_size = 32768), so the configurations it chooses start at 32 KB.
SmLimits hopper_limits() {
  SmLimits limits;
  limits.shared_memory_per_sm_bytes = 228 * kKiB;
  limits.reserved_shared_memory_per_cta_bytes = 1 * kKiB;
  limits.max_shared_memory_per_cta_bytes = 227 * kKiB;
  limits.carveout_choices_bytes = {32 * kKiB,  64 * kKiB,  100 * kKiB, 132 * kKiB,
                                   164 * kKiB, 196 * kKiB, 228 * kKiB};
  return limits;
}

// A100 (sm_80): as sm_90 but 164 KiB shared per SM and 163 KiB per CTA; the configurations CUDA
// documents for sm_80.
SmLimits ampere_limits() {
  SmLimits limits = hopper_limits();
  limits.shared_memory_per_sm_bytes = 164 * kKiB;
  limits.max_shared_memory_per_cta_bytes = 163 * kKiB;
  limits.carveout_choices_bytes = {0,         8 * kKiB,   16 * kKiB,  32 * kKiB,
                                   64 * kKiB, 100 * kKiB, 132 * kKiB, 164 * kKiB};
  return limits;
}

KernelLaunch launch(int threads, int registers, std::int64_t static_shared = 0,
                    std::int64_t dynamic_shared = 0) {
  KernelLaunch kernel;
  kernel.threads_per_cta = threads;
  kernel.registers_per_thread = registers;
  kernel.static_shared_bytes = static_shared;
  kernel.dynamic_shared_bytes = dynamic_shared;
  return kernel;
}

struct Expected {
  int limit_registers;
  int limit_shared_mem;
  int limit_warps;
  int limit_blocks;
  int ctas_per_sm;
  double occupancy_pct;
  std::int64_t carveout_bytes;
  std::uint32_t limiters;
};

void expect_occupancy(const SmLimits& limits, const KernelLaunch& kernel, const Expected& e) {
  const Occupancy occupancy = compute_occupancy(limits, kernel);
  EXPECT_EQ(occupancy.limit_registers, e.limit_registers);
  EXPECT_EQ(occupancy.limit_shared_mem, e.limit_shared_mem);
  EXPECT_EQ(occupancy.limit_warps, e.limit_warps);
  EXPECT_EQ(occupancy.limit_blocks, e.limit_blocks);
  EXPECT_EQ(occupancy.ctas_per_sm, e.ctas_per_sm);
  EXPECT_EQ(occupancy.warps_per_sm, e.ctas_per_sm * occupancy.warps_per_cta);
  EXPECT_DOUBLE_EQ(occupancy.theoretical_occupancy_pct, e.occupancy_pct);
  EXPECT_EQ(occupancy.carveout_bytes, e.carveout_bytes);
  EXPECT_EQ(occupancy.limiters, e.limiters) << limiter_names(occupancy.limiters);
}

// Notation: W = warps per CTA; R = registers per warp = regs x 32 rounded up to 256;
// registers limit = floor(4 x floor(16384 / R) / W); warps limit = floor(64 / W);
// S = shared per CTA = static + dynamic + 1024 rounded up to 128; the driver configures the
// smallest carve-out >= min(other limits) x S; shared limit = floor(carve-out / S).

TEST(CoreOccupancy, H200SaxpyFixtureMatchesNcu) {
  // ncu on H200: 256 threads, 16 registers, no shared memory.
  // W = 8; R = 512; 16384 / 512 = 32 warps per SMSP -> 128 warps -> 128 / 8 = 16 CTAs.
  // warps 64 / 8 = 8; S = 1024; need 8 x 1024 = 8 KiB -> 32 KiB carve-out -> 32768 / 1024 = 32.
  // CTAs = min(16, 32, 8, 32) = 8 -> 64 warps = 100 %.
  expect_occupancy(hopper_limits(), launch(256, 16),
                   {16, 32, 8, 32, 8, 100.0, 32 * kKiB, kLimitWarps});
  const Occupancy occupancy = compute_occupancy(hopper_limits(), launch(256, 16));
  EXPECT_EQ(occupancy.shared_bytes_per_cta, 1024);  // launch__shared_mem_per_block_allocated
  EXPECT_EQ(occupancy.warps_per_cta, 8);
  EXPECT_EQ(occupancy.registers_per_warp, 512);
}

TEST(CoreOccupancy, H200SharedStrideFixtureMatchesNcu) {
  // ncu on H200: 256 threads, 16 registers, 1 KiB static shared.
  // S = 1024 + 1024 = 2048; need 8 x 2048 = 16 KiB -> 32 KiB -> 32768 / 2048 = 16.
  expect_occupancy(hopper_limits(), launch(256, 16, 1024),
                   {16, 16, 8, 32, 8, 100.0, 32 * kKiB, kLimitWarps});
}

TEST(CoreOccupancy, H200RegisterLimited) {
  // 256 threads, 128 regs: W = 8; R = 4096; 16384 / 4096 = 4 -> 16 warps -> 16 / 8 = 2.
  // warps 8; S = 1024, need 2 x 1024 -> 32 KiB -> 32. CTAs 2 -> 16 warps = 25 %.
  expect_occupancy(hopper_limits(), launch(256, 128),
                   {2, 32, 8, 32, 2, 25.0, 32 * kKiB, kLimitRegisters});
}

TEST(CoreOccupancy, H200RegisterLimitedExactUnits) {
  // 128 threads, 40 regs: W = 4; R = 1280 (5 units); 16384 / 1280 = 12 -> 48 warps -> 12.
  // warps 64 / 4 = 16; need 12 x 1024 = 12 KiB -> 32 KiB -> 32. CTAs 12 -> 48 warps = 75 %.
  expect_occupancy(hopper_limits(), launch(128, 40),
                   {12, 32, 16, 32, 12, 75.0, 32 * kKiB, kLimitRegisters});
}

TEST(CoreOccupancy, H200RegisterRoundingPerWarp) {
  // 256 threads, 33 regs: 33 x 32 = 1056 -> rounded up to R = 1280; 16384 / 1280 = 12
  // -> 48 warps -> 48 / 8 = 6. warps 8. CTAs 6 -> 48 warps = 75 %.
  // (Without the rounding: 16384 / 1056 = 15 -> 60 warps -> 7 CTAs.)
  expect_occupancy(hopper_limits(), launch(256, 33),
                   {6, 32, 8, 32, 6, 75.0, 32 * kKiB, kLimitRegisters});
}

TEST(CoreOccupancy, H200RegisterFileSplitPerSubPartition) {
  // 64 threads, 192 regs: W = 2; R = 6144; 16384 / 6144 = 2 per SMSP -> 8 warps -> 4 CTAs.
  // (The whole file would give 65536 / 6144 = 10 warps -> 5 CTAs.) CTAs 4 -> 8 warps = 12.5 %.
  expect_occupancy(hopper_limits(), launch(64, 192),
                   {4, 32, 32, 32, 4, 12.5, 32 * kKiB, kLimitRegisters});
}

TEST(CoreOccupancy, H200MaxRegistersPerThread) {
  // 64 threads, 255 regs: 255 x 32 = 8160 -> R = 8192; 16384 / 8192 = 2 -> 8 warps -> 4.
  expect_occupancy(hopper_limits(), launch(64, 255),
                   {4, 32, 32, 32, 4, 12.5, 32 * kKiB, kLimitRegisters});
}

TEST(CoreOccupancy, H200SharedLimited) {
  // 128 threads, 32 regs, 48 KiB dynamic: S = 49152 + 1024 = 50176 (392 x 128).
  // R = 1024 -> 16 per SMSP -> 64 warps -> 64 / 4 = 16; warps 16; need 16 x 50176 > 228 KiB
  // -> 228 KiB = 233472 -> 233472 / 50176 = 4. CTAs 4 -> 16 warps = 25 %.
  expect_occupancy(hopper_limits(), launch(128, 32, 0, 48 * kKiB),
                   {16, 4, 16, 32, 4, 25.0, 228 * kKiB, kLimitSharedMemory});
}

TEST(CoreOccupancy, H200SharedLimitedWithRounding) {
  // 256 threads, 32 regs, 30000 B static: 31024 -> S = 243 x 128 = 31104. R = 1024 ->
  // 64 warps -> 8; warps 8; need 8 x 31104 = 248832 > 233472 -> 228 KiB -> 233472 / 31104 = 7.
  // CTAs 7 -> 56 warps = 87.5 %.
  expect_occupancy(hopper_limits(), launch(256, 32, 30000),
                   {8, 7, 8, 32, 7, 87.5, 228 * kKiB, kLimitSharedMemory});
}

TEST(CoreOccupancy, H200CarveoutChosenToFitOtherLimits) {
  // 256 threads, 32 regs, 10000 B static: 11024 -> S = 87 x 128 = 11136. registers 8, warps 8;
  // need 8 x 11136 = 89088 -> 100 KiB = 102400 -> 102400 / 11136 = 9. CTAs 8 = 100 %.
  expect_occupancy(hopper_limits(), launch(256, 32, 10000),
                   {8, 9, 8, 32, 8, 100.0, 100 * kKiB, kLimitWarps | kLimitRegisters});
}

TEST(CoreOccupancy, H200MaxSharedPerCta) {
  // 128 threads, 32 regs, 227 KiB dynamic: S = 232448 + 1024 = 233472 = 228 KiB -> 1 CTA.
  // CTAs 1 -> 4 warps = 6.25 %.
  expect_occupancy(hopper_limits(), launch(128, 32, 0, 227 * kKiB),
                   {16, 1, 16, 32, 1, 6.25, 228 * kKiB, kLimitSharedMemory});
}

TEST(CoreOccupancy, H200WarpLimited) {
  // 1024 threads, 16 regs: W = 32; R = 512 -> 32 per SMSP -> 128 warps -> 4; warps 64 / 32 = 2.
  // need 2 x 1024 -> 32 KiB -> 32. CTAs 2 -> 64 warps = 100 %.
  expect_occupancy(hopper_limits(), launch(1024, 16),
                   {4, 32, 2, 32, 2, 100.0, 32 * kKiB, kLimitWarps});
}

TEST(CoreOccupancy, H200WarpLimitedPartialWarp) {
  // 100 threads, 24 regs: W = ceil(100 / 32) = 4; R = 768 -> 16384 / 768 = 21 -> 84 warps
  // -> 21; warps 64 / 4 = 16; need 16 KiB -> 32 KiB -> 32. CTAs 16 -> 64 warps = 100 %.
  expect_occupancy(hopper_limits(), launch(100, 24),
                   {21, 32, 16, 32, 16, 100.0, 32 * kKiB, kLimitWarps});
}

TEST(CoreOccupancy, H200CtaSlotLimited) {
  // 32 threads, 32 regs: W = 1; R = 1024 -> 64 warps -> 64; warps 64; blocks 32.
  // need 32 x 1024 = 32 KiB -> 32 KiB -> 32 (ties with the CTA slots). CTAs 32 -> 50 %.
  expect_occupancy(hopper_limits(), launch(32, 32),
                   {64, 32, 64, 32, 32, 50.0, 32 * kKiB, kLimitBlocks | kLimitSharedMemory});
}

TEST(CoreOccupancy, H200CtaSlotLimitedWithSharedMemory) {
  // 64 threads, 16 regs, 1 KiB dynamic: W = 2; R = 512 -> 128 warps -> 64; warps 32; blocks 32.
  // S = 2048; need 32 x 2048 = 64 KiB -> 64 KiB -> 32. CTAs 32 -> 64 warps = 100 %.
  expect_occupancy(
      hopper_limits(), launch(64, 16, 0, 1024),
      {64, 32, 32, 32, 32, 100.0, 64 * kKiB, kLimitWarps | kLimitBlocks | kLimitSharedMemory});
}

TEST(CoreOccupancy, H200DriverCarveoutFloor) {
  // Every size CUDA accepts listed, with the driver's 32 KiB floor (l1.default_min_carveout_kb):
  // softmax's 256 threads, 32 registers, 32 B static shared: S = 32 + 1024 -> 1152; need
  // 8 x 1152 = 9 KiB -> 16 KiB without the floor (limit 14), 32 KiB with it (limit 28, as ncu).
  SmLimits limits = hopper_limits();
  limits.carveout_choices_bytes = {0,         8 * kKiB,   16 * kKiB,  32 * kKiB,  64 * kKiB,
                                   100 * kKiB, 132 * kKiB, 164 * kKiB, 196 * kKiB, 228 * kKiB};
  expect_occupancy(limits, launch(256, 32, 32),
                   {8, 14, 8, 32, 8, 100.0, 16 * kKiB, kLimitWarps | kLimitRegisters});
  limits.default_min_carveout_bytes = 32 * kKiB;
  expect_occupancy(limits, launch(256, 32, 32),
                   {8, 28, 8, 32, 8, 100.0, 32 * kKiB, kLimitWarps | kLimitRegisters});
  // A preference below the floor still wins: the floor is the driver's own choice only.
  KernelLaunch kernel = launch(256, 32, 32);
  kernel.preferred_carveout_pct = 0;
  expect_occupancy(limits, kernel,
                   {8, 7, 8, 32, 7, 87.5, 8 * kKiB, kLimitSharedMemory});
}

TEST(CoreOccupancy, H200NoRegistersIsUnlimited) {
  // 0 regs: no register limit (reported as the CTA slots); 128 threads -> warps 16.
  expect_occupancy(hopper_limits(), launch(128, 0),
                   {32, 32, 16, 32, 16, 100.0, 32 * kKiB, kLimitWarps});
}

TEST(CoreOccupancy, H200PreferredCarveoutRoundsUpToConfiguration) {
  // As H200CarveoutChosenToFitOtherLimits (S = 11136) with a 50 % preference:
  // 50 x 233472 / 100 = 116736 -> 132 KiB = 135168 -> 135168 / 11136 = 12; CTAs 8.
  KernelLaunch kernel = launch(256, 32, 10000);
  kernel.preferred_carveout_pct = 50;
  expect_occupancy(hopper_limits(), kernel,
                   {8, 12, 8, 32, 8, 100.0, 132 * kKiB, kLimitWarps | kLimitRegisters});
}

TEST(CoreOccupancy, H200PreferredCarveoutCanLimitOccupancy) {
  // 0 % preference: max(0, 11136) -> 32 KiB -> 32768 / 11136 = 2 CTAs -> 16 warps = 25 %.
  KernelLaunch kernel = launch(256, 32, 10000);
  kernel.preferred_carveout_pct = 0;
  expect_occupancy(hopper_limits(), kernel, {8, 2, 8, 32, 2, 25.0, 32 * kKiB, kLimitSharedMemory});
}

TEST(CoreOccupancy, A100SharedLimited) {
  // 256 threads, 32 regs, 48 KiB dynamic: S = 50176; registers 8, warps 8; need 8 x 50176
  // > 164 KiB -> 167936 / 50176 = 3. CTAs 3 -> 24 warps = 37.5 %.
  expect_occupancy(ampere_limits(), launch(256, 32, 0, 48 * kKiB),
                   {8, 3, 8, 32, 3, 37.5, 164 * kKiB, kLimitSharedMemory});
}

TEST(CoreOccupancy, A100RegisterLimitedSmallCarveout) {
  // 128 threads, 64 regs: W = 4; R = 2048 -> 8 per SMSP -> 32 warps -> 8; warps 16.
  // need 8 x 1024 = 8 KiB -> 8 KiB configuration -> 8. CTAs 8 -> 32 warps = 50 %.
  expect_occupancy(ampere_limits(), launch(128, 64),
                   {8, 8, 16, 32, 8, 50.0, 8 * kKiB, kLimitRegisters | kLimitSharedMemory});
}

TEST(CoreOccupancy, A100WarpLimitedLargeCtas) {
  // 1024 threads, 32 regs, 16 KiB static: W = 32; R = 1024 -> 64 warps -> 2; warps 2.
  // S = 17408; need 2 x 17408 = 34816 -> 64 KiB -> 65536 / 17408 = 3. CTAs 2 = 100 %.
  expect_occupancy(ampere_limits(), launch(1024, 32, 16 * kKiB),
                   {2, 3, 2, 32, 2, 100.0, 64 * kKiB, kLimitWarps | kLimitRegisters});
}

TEST(CoreOccupancy, A100MaxSharedPerCta) {
  // 256 threads, 32 regs, 163 KiB dynamic: S = 164 KiB -> 1 CTA -> 8 warps = 12.5 %.
  expect_occupancy(ampere_limits(), launch(256, 32, 0, 163 * kKiB),
                   {8, 1, 8, 32, 1, 12.5, 164 * kKiB, kLimitSharedMemory});
}

TEST(CoreOccupancy, LimiterNames) {
  EXPECT_EQ(limiter_names(0), "");
  EXPECT_EQ(limiter_names(kLimitRegisters), "registers");
  EXPECT_EQ(limiter_names(kLimitWarps | kLimitSharedMemory | kLimitBlocks),
            "warps+shared_mem+blocks");
}

void expect_input_error(const std::function<void()>& body, const std::string& fragment) {
  try {
    body();
    FAIL() << "expected InputError mentioning '" << fragment << "'";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
  }
}

TEST(CoreOccupancy, RejectsInvalidLaunches) {
  const SmLimits limits = hopper_limits();
  auto check = [&](const KernelLaunch& kernel, const std::string& fragment) {
    expect_input_error([&] { compute_occupancy(limits, kernel); }, fragment);
  };
  check(launch(0, 32), "threads_per_cta = 0");
  check(launch(1025, 32), "threads_per_cta = 1025");
  check(launch(128, 256), "registers_per_thread = 256");
  check(launch(128, -1), "registers_per_thread = -1");
  check(launch(128, 32, -4), "must not be negative");
  check(launch(128, 32, 0, -4), "must not be negative");
  check(launch(128, 32, 200 * kKiB, 27 * kKiB + 1), "max_shared_memory_per_cta_bytes");
  KernelLaunch cluster = launch(128, 32);
  cluster.cluster_size = 9;
  check(cluster, "cluster_size = 9");
  cluster.cluster_size = -1;
  check(cluster, "cluster_size = -1");
  KernelLaunch carveout = launch(128, 32);
  carveout.preferred_carveout_pct = 101;
  check(carveout, "preferred_carveout_pct = 101");
  carveout.preferred_carveout_pct = -2;
  check(carveout, "preferred_carveout_pct = -2");
}

TEST(CoreOccupancy, AcceptsLegalClusterSizes) {
  KernelLaunch kernel = launch(128, 32);
  for (int size : {0, 1, 2, 8}) {
    kernel.cluster_size = size;
    EXPECT_EQ(compute_occupancy(hopper_limits(), kernel).ctas_per_sm, 16);
  }
}

TEST(CoreOccupancy, RejectsCtaThatExceedsTheRegisterFile) {
  // 1024 threads, 65 regs: 2080 -> R = 2304; 2304 x 32 = 73728 > 65536.
  expect_input_error([] { compute_occupancy(hopper_limits(), launch(1024, 65)); },
                     "more than max_registers_per_cta = 65536");
  // 800 threads (W = 25), 80 regs: R = 2560; 25 x 2560 = 64000 fits, but the check rounds W up
  // to 28 sub-partition slots: 28 x 2560 = 71680 > 65536.
  expect_input_error([] { compute_occupancy(hopper_limits(), launch(800, 80)); }, "71680");
}

TEST(CoreOccupancy, RejectsCtaThatExceedsWarpSlotsOrSharedMemory) {
  SmLimits limits = hopper_limits();
  limits.max_warps_per_sm = 16;
  expect_input_error([&] { compute_occupancy(limits, launch(1024, 16)); },
                     "32 warps per CTA exceed the 16 warp slots");
  limits = hopper_limits();
  limits.max_shared_memory_per_cta_bytes = 228 * kKiB;
  expect_input_error([&] { compute_occupancy(limits, launch(128, 16, 228 * kKiB)); },
                     "do not fit in shared_memory_per_sm_bytes");
}

TEST(CoreOccupancy, RejectsInvalidLimits) {
  const std::vector<std::pair<std::function<void(SmLimits&)>, std::string>> cases = {
      {[](SmLimits& l) { l.warp_size = 0; }, "'warp_size'"},
      {[](SmLimits& l) { l.max_warps_per_sm = 0; }, "'max_warps_per_sm'"},
      {[](SmLimits& l) { l.max_threads_per_sm = -1; }, "'max_threads_per_sm'"},
      {[](SmLimits& l) { l.max_ctas_per_sm = 0; }, "'max_ctas_per_sm'"},
      {[](SmLimits& l) { l.max_threads_per_cta = 0; }, "'max_threads_per_cta'"},
      {[](SmLimits& l) { l.registers_per_sm = 0; }, "'registers_per_sm'"},
      {[](SmLimits& l) { l.max_registers_per_cta = 0; }, "'max_registers_per_cta'"},
      {[](SmLimits& l) { l.max_registers_per_thread = 0; }, "'max_registers_per_thread'"},
      {[](SmLimits& l) { l.register_allocation_unit = 0; }, "'register_allocation_unit'"},
      {[](SmLimits& l) { l.sub_partitions = 0; }, "'sub_partitions'"},
      {[](SmLimits& l) { l.shared_memory_allocation_unit_bytes = 0; },
       "'shared_memory_allocation_unit_bytes'"},
      {[](SmLimits& l) { l.max_cluster_size = 0; }, "'max_cluster_size'"},
      {[](SmLimits& l) { l.shared_memory_per_sm_bytes = -1; }, "'shared_memory_per_sm_bytes'"},
      {[](SmLimits& l) { l.reserved_shared_memory_per_cta_bytes = -1; },
       "'reserved_shared_memory_per_cta_bytes'"},
      {[](SmLimits& l) { l.max_shared_memory_per_cta_bytes = 229 * kKiB; },
       "'max_shared_memory_per_cta_bytes'"},
      {[](SmLimits& l) {
         l.carveout_choices_bytes = {64 * kKiB, 32 * kKiB};
       },
       "'carveout_choices_bytes'"},
      {[](SmLimits& l) { l.carveout_choices_bytes = {256 * kKiB}; }, "'carveout_choices_bytes'"},
  };
  for (const auto& [mutate, fragment] : cases) {
    SmLimits limits = hopper_limits();
    mutate(limits);
    expect_input_error([&] { validate_sm_limits(limits); }, fragment);
    expect_input_error([&] { compute_occupancy(limits, launch(128, 32)); }, fragment);
  }
  EXPECT_NO_THROW(validate_sm_limits(hopper_limits()));
  EXPECT_NO_THROW(validate_sm_limits(ampere_limits()));
}

TEST(CoreOccupancy, FixedSharedMemoryWithoutCarveoutChoices) {
  // No configurations: the whole 228 KiB is shared memory; 256 threads, 16 regs -> S = 1024
  // -> 233472 / 1024 = 228 (the calculator's blockLimitSharedMem with the default carve-out).
  SmLimits limits = hopper_limits();
  limits.carveout_choices_bytes.clear();
  expect_occupancy(limits, launch(256, 16), {16, 228, 8, 32, 8, 100.0, 228 * kKiB, kLimitWarps});
}

TEST(CoreOccupancy, NoSharedMemoryAtAllIsUnlimited) {
  // Without the driver reservation and shared memory, S = 0: the shared limit reports the CTA
  // slots and the smallest configuration (0 bytes) is chosen.
  SmLimits limits = ampere_limits();
  limits.reserved_shared_memory_per_cta_bytes = 0;
  expect_occupancy(limits, launch(256, 16), {16, 32, 8, 32, 8, 100.0, 0, kLimitWarps});
}

}  // namespace
}  // namespace warpsim::core
