#include "sim/replay/replay_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "arch/error.h"
#include "tests/sim/replay/replay_test_util.h"
#include "traces/ncu/inputs.h"

namespace warpsim::replay {
namespace {

using testing::shared_stride_dir;

const PlanEntry* find(const ReplayPlan& plan, std::string_view mnemonic) {
  for (const PlanEntry& e : plan.entries) {
    if (plan.info.opcodes->info(e.opcode).mnemonic == mnemonic) return &e;
  }
  return nullptr;
}

TEST(ReplayPlan, FromReportPerPcCounts) {
  const auto profiles = traces::ncu::load_profiles({shared_stride_dir() + "report.ncu-rep"});
  ASSERT_EQ(profiles.size(), 1u);
  const auto& p = profiles[0];
  EXPECT_EQ(p.source_gpu, "NVIDIA H200");
  EXPECT_EQ(p.registers_per_thread, 16u);
  EXPECT_EQ(p.pcs.size(), 26u);
  EXPECT_EQ(p.global_load_sectors_per_request, 4.0);
  EXPECT_DOUBLE_EQ(p.shared_wavefronts_per_request, 1.5);
  const ReplayPlan plan = plan_from_profile(p);
  EXPECT_EQ(plan.fidelity, PlanFidelity::kPerPc);
  EXPECT_EQ(plan.info.grid, (traces::Dim3{4096, 1, 1}));
  EXPECT_EQ(plan.entries.size(), 24u);  // Both EXITs left out: each warp ends with one.
  size_t global = 0, shared = 0;
  for (const PlanEntry& e : plan.entries) {
    const auto& info = plan.info.opcodes->info(e.opcode);
    EXPECT_DOUBLE_EQ(e.per_warp, 1.0) << info.mnemonic;
    if (info.space == traces::MemSpace::kGlobal) {
      ++global;
      EXPECT_EQ(e.sectors_per_request, 4u);
      EXPECT_EQ(e.lines_per_request, 1u);
      EXPECT_FALSE(e.sparse);
    }
    if (info.space == traces::MemSpace::kShared) ++shared;
  }
  EXPECT_EQ(global, 2u);
  EXPECT_EQ(shared, 2u);
}

TEST(ReplayPlan, FromSourcePageListing) {
  const auto profiles = traces::ncu::load_profiles(
      {shared_stride_dir() + "report.ncu-rep", shared_stride_dir() + "src_sass.csv"});
  ASSERT_EQ(profiles.size(), 1u);
  EXPECT_TRUE(profiles[0].has_listing());
  // The page's warp-state samples: the ISETP waited in 2 samples, the LDC.64 issued in 1.
  double wait = 0, selected = 0;
  for (const auto& pc : profiles[0].pcs) {
    if (pc.sass.starts_with("ISETP.GE.AND")) wait = pc.samples_of("wait");
    if (pc.sass.starts_with("LDC.64")) selected = pc.samples_of("selected");
  }
  EXPECT_EQ(wait, 2.0);
  EXPECT_EQ(selected, 1.0);
  const ReplayPlan plan = plan_from_profile(profiles[0]);
  EXPECT_EQ(plan.fidelity, PlanFidelity::kListing);
  const PlanEntry* lds = find(plan, "LDS");
  ASSERT_NE(lds, nullptr);
  EXPECT_EQ(lds->conflict_ways, 2u);  // 65,536 wavefronts for 32,768 ideal.
  ASSERT_EQ(lds->dsts.size(), 1u);
  EXPECT_EQ(lds->dsts[0], traces::gpr(6));
  const PlanEntry* fadd = find(plan, "FADD");
  ASSERT_NE(fadd, nullptr);
  ASSERT_EQ(fadd->srcs.size(), 2u);
  EXPECT_EQ(fadd->srcs[0], traces::gpr(6));  // Reads the LDS result: a true dependence.
}

TEST(ReplayPlan, FromRawPageKernelTotals) {
  const auto profiles = traces::ncu::load_profiles({shared_stride_dir() + "raw_base.csv"});
  ASSERT_EQ(profiles.size(), 1u);
  EXPECT_TRUE(profiles[0].pcs.empty());
  EXPECT_EQ(profiles[0].cycles, 9864.0);
  const ReplayPlan plan = plan_from_profile(profiles[0]);
  EXPECT_EQ(plan.fidelity, PlanFidelity::kKernelTotals);
  const PlanEntry* ldg = find(plan, "LDG.E");
  ASSERT_NE(ldg, nullptr);
  EXPECT_DOUBLE_EQ(ldg->per_warp, 1.0);  // 32,768 requests over 32,768 warps.
  EXPECT_EQ(ldg->sectors_per_request, 4u);
  const PlanEntry* lds = find(plan, "LDS");
  ASSERT_NE(lds, nullptr);
  EXPECT_EQ(lds->conflict_ways, 2u);
  double total = 0;
  for (const PlanEntry& e : plan.entries) total += e.per_warp * 32768;
  EXPECT_NEAR(total, *profiles[0].metric("smsp__inst_executed.sum"), 1.0);
}

TEST(ReplayPlan, RejectsProfilesWithoutCounts) {
  traces::ncu::KernelProfile p;
  p.name = "k";
  p.input = "x.csv";
  try {
    plan_from_profile(p);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("x.csv: kernel k"), std::string::npos) << e.what();
  }
  EXPECT_THROW(traces::ncu::load_profiles({"/nonexistent.ncu-rep"}), InputError);
  EXPECT_THROW(traces::ncu::load_profiles({shared_stride_dir() + "session.txt"}), InputError);
}

}  // namespace
}  // namespace warpsim::replay

namespace warpsim::replay {
namespace {

using testing::pc;
using traces::ncu::PcSpace;

// A cp.async GEMM's shape: LDGSTS global reads, 128-bit shared loads, a TMA copy.
traces::ncu::KernelProfile async_copy_kernel() {
  traces::ncu::KernelProfile p;
  p.name = "async";
  p.sm_version = 90;
  p.grid = {8, 1, 1};
  p.block = {128, 1, 1};  // 32 warps.
  p.pcs = {pc(0x00, "LDGSTS.E.BYPASS.LTC128B.128 desc[UR4][R2.64], P0, [R5]", 64, PcSpace::kOther,
              64 * 16),
           pc(0x10, "LDGDEPBAR", 64),
           pc(0x20, "DEPBAR.LE SB0, 0x1", 64),
           pc(0x30, "LDS.128 R8, [R5]", 64, PcSpace::kShared),
           pc(0x40, "LDS R12, [R6]", 64, PcSpace::kShared),
           pc(0x50, "UTMALDG.2D [UR8], [UR4]", 8, PcSpace::kOther),
           pc(0x60, "EXIT", 32)};
  p.pcs[0].l1_tag_requests = 64 * 4;
  p.dram_read_bytes = 64 * 16 * 32;
  // ncu's N-way column counts a request's wavefronts: 4 for a conflict-free 128-bit load.
  p.pcs[3].shared_conflict_ways = 4;
  p.pcs[4].shared_conflict_ways = 2;  // A 2-way conflicted 32-bit load.
  p.metrics["launch__waves_per_multiprocessor"] = 2.5;
  return p;
}

TEST(ReplayPlan, AsyncCopiesReadGlobalLinesAndWriteNoRegister) {
  const ReplayPlan plan = plan_from_profile(async_copy_kernel());
  const PlanEntry* ldgsts = find(plan, "LDGSTS.E.BYPASS.LTC128B.128");
  ASSERT_NE(ldgsts, nullptr);
  EXPECT_EQ(ldgsts->sectors_per_request, 16u);
  EXPECT_EQ(ldgsts->lines_per_request, 4u);
  EXPECT_EQ(ldgsts->footprint_sectors, 64u * 16);
  EXPECT_TRUE(ldgsts->dsts.empty());  // Writes shared memory, not registers.
  // Reads its address registers and the zero-fill predicate.
  for (const traces::Reg r : {traces::gpr(2), traces::gpr(5)}) {
    EXPECT_NE(std::find(ldgsts->srcs.begin(), ldgsts->srcs.end(), r), ldgsts->srcs.end());
  }
  // A TMA copy names a tensor box, not lane addresses: no global shape.
  const PlanEntry* tma = find(plan, "UTMALDG.2D");
  ASSERT_NE(tma, nullptr);
  EXPECT_EQ(tma->sectors_per_request, 1u);
  EXPECT_EQ(tma->footprint_sectors, 1u);
}

// A multi-stage cp.async pipeline waits for its oldest copies only: the wait keeps its count.
TEST(ReplayPlan, WaitsKeepTheGroupsTheyLeaveOutstanding) {
  const ReplayPlan plan = plan_from_profile(async_copy_kernel());
  ASSERT_TRUE(find(plan, "DEPBAR.LE")->wait_count.has_value());
  EXPECT_EQ(*find(plan, "DEPBAR.LE")->wait_count, 1);
  EXPECT_FALSE(find(plan, "LDGDEPBAR")->wait_count.has_value());
  EXPECT_FALSE(find(plan, "LDS.128")->wait_count.has_value());
}

TEST(ReplayPlan, SharedConflictsCountWavefrontsBeyondTheIdeal) {
  const ReplayPlan plan = plan_from_profile(async_copy_kernel());
  EXPECT_EQ(find(plan, "LDS.128")->conflict_ways, 1u);
  EXPECT_EQ(find(plan, "LDS")->conflict_ways, 2u);
}

TEST(ReplayPlan, WavesGiveTheCtasResidentAtOnce) {
  EXPECT_EQ(plan_from_profile(async_copy_kernel()).ctas_per_wave, 4u);  // 8 CTAs in 2.5 waves.
  traces::ncu::KernelProfile one_wave = async_copy_kernel();
  one_wave.metrics["launch__waves_per_multiprocessor"] = 0.5;
  EXPECT_EQ(plan_from_profile(one_wave).ctas_per_wave, 0u);
}

}  // namespace
}  // namespace warpsim::replay

namespace warpsim::replay {
namespace {

using testing::pc;

// ncu's source page prints no stall counts, but samples warps waiting on them: each issue is one
// "selected" warp-cycle, so a PC's wait samples times the kernel's issues per selected sample,
// over the PC's executions, are the cycles a warp waits before issuing it.
TEST(ReplayPlan, WaitSamplesGiveTheCyclesBeforeAnInstruction) {
  traces::ncu::KernelProfile p;
  p.name = "waits";
  p.grid = {4, 1, 1};
  p.block = {32, 1, 1};
  p.pcs = {pc(0x00, "FFMA R1, R1, R1, R1", 400), pc(0x10, "ISETP.GE.AND P0, PT, R1, RZ, PT", 400),
           pc(0x20, "@P0 BRA 0x0", 400), pc(0x30, "EXIT", 4)};
  p.pcs[0].samples = {{"selected", 10}};
  p.pcs[1].samples = {{"selected", 10}};
  p.pcs[2].samples = {{"selected", 10}, {"wait", 48}};  // 1204 issues / 32 selected samples
  p.pcs[3].samples = {{"selected", 2}};                 // = 37.6 warp-cycles a sample
  const ReplayPlan plan = plan_from_profile(p);
  ASSERT_EQ(plan.entries.size(), 3u);
  EXPECT_DOUBLE_EQ(plan.entries[0].wait_cycles, 0.0);
  EXPECT_NEAR(plan.entries[2].wait_cycles, 48 * (1204.0 / 32) / 400, 1e-9);  // 4.5 cycles
}

// PCs with fewer than 10 wait samples share their pooled waits evenly, in whole cycles, so that
// a short kernel's waits are neither dropped nor heaped on the PCs a sample happened to hit.
TEST(ReplayPlan, SeldomSampledPcsShareTheirPooledWaits) {
  traces::ncu::KernelProfile p;
  p.name = "sparse waits";
  p.grid = {4, 1, 1};
  p.block = {32, 1, 1};
  p.pcs = {pc(0x00, "FFMA R1, R1, R1, R1", 400), pc(0x10, "FFMA R2, R1, R1, R1", 400),
           pc(0x20, "FFMA R3, R2, R1, R1", 400), pc(0x30, "FFMA R4, R3, R1, R1", 400),
           pc(0x40, "ISETP.GE.AND P0, PT, R4, RZ, PT", 400), pc(0x50, "EXIT", 4)};
  p.pcs[0].samples = {{"selected", 10}, {"wait", 9}};
  p.pcs[1].samples = {{"selected", 10}, {"wait", 8}};
  p.pcs[2].samples = {{"selected", 10}, {"wait", 7}};
  p.pcs[3].samples = {{"selected", 10}, {"wait", 6}};
  p.pcs[4].samples = {{"selected", 10}, {"wait", 20}};  // enough to stand for itself
  const ReplayPlan plan = plan_from_profile(p);
  ASSERT_EQ(plan.entries.size(), 5u);
  const double per_sample = 2004.0 / 50;       // issues over selected samples
  const double pooled = 30 * per_sample / 1600;  // 0.75 cycles an execution
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    const double w = plan.entries[i].wait_cycles;
    EXPECT_TRUE(w == std::floor(pooled) || w == std::ceil(pooled)) << i << ": " << w;
    sum += w;
  }
  EXPECT_NEAR(sum, 4 * pooled, 0.5);
  EXPECT_NEAR(plan.entries[4].wait_cycles, 20 * per_sample / 400, 1e-9);
}

}  // namespace
}  // namespace warpsim::replay

namespace warpsim::replay {
namespace {

using testing::pc;
using traces::ncu::PcSpace;

// index_add's shape: 1 M reductions from 8 K warps onto 128 lines. The reductions' L2 misses from
// the empty L2 ncu profiles from are their unique sectors; the loads keep the DRAM-sized walk.
TEST(ReplayPlan, ReductionsLandOnTheSectorsTheyMissed) {
  traces::ncu::KernelProfile p;
  p.name = "index_add";
  p.sm_version = 90;
  p.grid = {64, 1, 1};
  p.block = {128, 1, 1};  // 256 warps
  p.pcs = {pc(0x00, "LDG.E.64 R2, desc[UR4][R4.64]", 32768, PcSpace::kGlobal, 32768 * 8),
           pc(0x10, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R7", 32768, PcSpace::kGlobal,
              32768 * 31),
           pc(0x20, "EXIT", 256)};
  p.dram_read_bytes = 32768.0 * 8 * 32;
  p.metrics["lts__t_sectors_srcunit_tex_op_red_lookup_miss.sum"] = 512;
  const ReplayPlan plan = plan_from_profile(p);
  const PlanEntry* red = find(plan, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU");
  ASSERT_NE(red, nullptr);
  EXPECT_EQ(red->footprint_sectors, 512u);
  const PlanEntry* load = find(plan, "LDG.E.64");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->footprint_sectors, 32768u * 8);  // all of the DRAM reads
  // Without the counter the reductions walk a share of the DRAM-sized footprint, as loads do.
  p.metrics.clear();
  const ReplayPlan without = plan_from_profile(p);
  const PlanEntry* spread = find(without, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU");
  ASSERT_NE(spread, nullptr);
  EXPECT_GT(spread->footprint_sectors, 100'000u);
}

}  // namespace
}  // namespace warpsim::replay
