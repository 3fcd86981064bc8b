#include "sim/replay/profile_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/core/shared_memory_banks.h"
#include "sim/replay/replay.h"
#include "tests/sim/replay/replay_test_util.h"

namespace warpsim::replay {
namespace {

using testing::pc;
using traces::ncu::PcSpace;

traces::ncu::KernelProfile loop_kernel() {
  traces::ncu::KernelProfile p;
  p.name = "loop";
  p.grid = {10, 1, 1};
  p.block = {64, 1, 1};  // 20 warps.
  p.pcs = {pc(0x00, "S2R R0, SR_TID.X", 20),
           pc(0x10, "LDG.E R2, desc[UR4][R4.64]", 70, PcSpace::kGlobal, 70 * 4),
           pc(0x20, "FFMA R3, R2, R2, R3", 70),
           pc(0x30, "BAR.SYNC.DEFER_BLOCKING 0x0", 40),
           pc(0x40, "STS [R0], R3", 20, PcSpace::kShared),
           pc(0x50, "EXIT", 20)};
  return p;
}

TEST(ReplaySource, CountsMatchTheProfileAndBarriersAreUniform) {
  const ReplayPlan plan = plan_from_profile(loop_kernel());
  ProfileKernelSource source({plan}, "test");
  traces::KernelInfo info;
  ASSERT_TRUE(source.next_kernel(info));
  std::map<std::string, uint64_t> counts;
  traces::CtaTrace cta;
  uint64_t ctas = 0;
  while (source.next_cta(cta)) {
    ++ctas;
    for (const traces::WarpTrace& w : cta.warps) {
      uint64_t bars = 0;
      for (const auto& inst : w.instructions) {
        const auto& name = info.opcodes->info(inst.opcode).base;
        ++counts[name];
        bars += name == "BAR";
      }
      EXPECT_EQ(bars, 2u);
      EXPECT_EQ(info.opcodes->info(w.instructions.back().opcode).base, "EXIT");
    }
  }
  EXPECT_EQ(ctas, 10u);
  EXPECT_EQ(counts["LDG"], 70u);  // 3.5 per warp, spread over the warps.
  EXPECT_EQ(counts["FFMA"], 70u);
  EXPECT_EQ(counts["S2R"], 20u);
  EXPECT_EQ(counts["EXIT"], 20u);
  EXPECT_FALSE(source.next_cta(cta));
  EXPECT_FALSE(source.next_kernel(info));
}

// A warp-specialised wgmma kernel's shape: 2 warpgroups a CTA, wgmma and ALU counts that are not
// whole per warp, and CTA barriers between them.
traces::ncu::KernelProfile wgmma_kernel() {
  traces::ncu::KernelProfile p;
  p.name = "wgmma";
  p.sm_version = 90;
  p.grid = {6, 1, 1};
  p.block = {256, 1, 1};  // 48 warps.
  p.pcs = {pc(0x00, "S2R R0, SR_TID.X", 48),
           pc(0x10, "FFMA R3, R2, R2, R3", 168),  // 3.5 a warp
           pc(0x20, "BAR.SYNC.DEFER_BLOCKING 0x0", 96),
           pc(0x30, "WARPGROUP.ARRIVE", 120),  // 2.5 a warp
           pc(0x40, "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], R24", 120),
           pc(0x50, "WARPGROUP.DEPBAR.LE gsb0, 0x0", 120),
           pc(0x60, "BAR.SYNC.DEFER_BLOCKING 0x0", 96),
           pc(0x70, "EXIT", 48)};
  return p;
}

TEST(ReplaySource, WarpgroupKernelsGiveEveryWarpOfACtaTheSameCounts) {
  const ReplayPlan plan = plan_from_profile(wgmma_kernel());
  ASSERT_TRUE(plan.warpgroup_collective);
  ProfileKernelSource source({plan}, "test");
  traces::KernelInfo info;
  ASSERT_TRUE(source.next_kernel(info));
  traces::CtaTrace cta;
  std::map<std::string, uint64_t> counts;
  std::set<uint64_t> hgmma_per_warp;
  while (source.next_cta(cta)) {
    for (const traces::WarpTrace& w : cta.warps) {
      ASSERT_EQ(w.instructions.size(), cta.warps[0].instructions.size());
      uint64_t hgmma = 0;
      for (size_t i = 0; i < w.instructions.size(); ++i) {
        EXPECT_EQ(w.instructions[i].opcode, cta.warps[0].instructions[i].opcode);
        const std::string& base = info.opcodes->info(w.instructions[i].opcode).base;
        ++counts[base];
        hgmma += base == "HGMMA";
      }
      hgmma_per_warp.insert(hgmma);
    }
  }
  EXPECT_EQ(hgmma_per_warp, (std::set<uint64_t>{2, 3}));  // 2.5 a warp, whole CTAs at a time
  EXPECT_EQ(counts["HGMMA"], 120u);
  EXPECT_EQ(counts["FFMA"], 168u);
  EXPECT_EQ(counts["BAR"], 192u);
}

// With per-warp shares (2 or 3 wgmma in neighbouring warps of one warpgroup) this replay
// deadlocked: a warp waited at the second barrier for a partner that waited for its wgmma.
TEST(ReplaySource, WarpgroupKernelReplaysWithoutDeadlock) {
  ReplayOptions options;
  options.self_check = false;
  std::vector<KernelReplay> r;
  ASSERT_NO_THROW(r = replay_profiles({wgmma_kernel()}, options));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_GT(simulated(r[0].target, "gpc__cycles_elapsed.max").value_or(0), 0);
  EXPECT_EQ(simulated(r[0].target, "smsp__inst_executed.sum").value_or(0),
            48 + 168 + 192 + 3 * 120 + 48);  // and an EXIT a warp
}

// cuDNN's FlashAttention signals named barriers with BAR.ARV and waits with BAR.SYNC. Replayed
// in every warp as one CTA-wide barrier, an arrive that does not wait lets a warp's arrival count
// in a later generation than its partners' (its replay deadlocked,
// validate/reference/h200/foreign): it is replayed as a waiting barrier. This shape completes
// either way; it checks the mapping and that the replay runs.
TEST(ReplaySource, ArriveOnlyBarriersAreReplayedAsWaitingOnes) {
  traces::ncu::KernelProfile p = wgmma_kernel();
  p.pcs = {pc(0x00, "S2R R0, SR_TID.X", 48),
           pc(0x10, "BAR.SYNC.DEFER_BLOCKING 0x2, 0x120", 48),
           pc(0x20, "BAR.ARV 0x3, 0x120", 48),
           pc(0x30, "FFMA R3, R2, R2, R3", 168),
           pc(0x40, "BAR.SYNC.DEFER_BLOCKING 0x3, 0x120", 48),
           pc(0x50, "WARPGROUP.ARRIVE", 48),
           pc(0x60, "HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], R24", 48),
           pc(0x70, "WARPGROUP.DEPBAR.LE gsb0, 0x0", 48),
           pc(0x80, "BAR.ARV 0x2, 0x120", 48),
           pc(0x90, "EXIT", 48)};
  const ReplayPlan plan = plan_from_profile(p);
  for (const PlanEntry& e : plan.entries) {
    EXPECT_EQ(plan.info.opcodes->info(e.opcode).mnemonic.find(".ARV"), std::string::npos);
  }
  ReplayOptions options;
  options.self_check = false;
  std::vector<KernelReplay> r;
  ASSERT_NO_THROW(r = replay_profiles({p}, options));
  EXPECT_GT(simulated(r[0].target, "gpc__cycles_elapsed.max").value_or(0), 0);
}

TEST(ReplaySource, LaneAddressesReproduceSectorsPerRequestAndConflicts) {
  for (double sectors : {1.0, 4.0, 8.0, 32.0}) {
    traces::ncu::KernelProfile p = loop_kernel();
    p.pcs[1].l2_sectors = 70 * sectors;
    p.pcs[1].l2_sectors_ideal = 70 * 4;
    p.pcs[4].shared_wavefronts = 20 * 4;
    p.pcs[4].shared_wavefronts_ideal = 20;
    const ReplayPlan plan = plan_from_profile(p);
    traces::WarpTrace warp;
    build_warp(plan, 3, 20, 32, warp);
    for (const auto& inst : warp.instructions) {
      const auto& info = plan.info.opcodes->info(inst.opcode);
      if (!info.is_memory()) continue;
      const auto lanes = warp.lane_addresses(inst);
      ASSERT_EQ(lanes.size(), 32u);
      if (info.space == traces::MemSpace::kGlobal) {
        std::set<uint64_t> distinct;
        for (uint64_t a : lanes) distinct.insert(a / 32);
        EXPECT_EQ(distinct.size(), static_cast<size_t>(sectors));
      } else {
        std::map<uint64_t, std::set<uint64_t>> rows_per_bank;
        for (uint64_t a : lanes) rows_per_bank[(a / 4) % 32].insert(a / 128);
        size_t ways = 0;
        for (const auto& [bank, rows] : rows_per_bank) ways = std::max(ways, rows.size());
        EXPECT_EQ(ways, 4u);
      }
    }
  }
}


TEST(ReplaySource, NeighbouringWarpsShareSectorsAsOftenAsL1Hits) {
  traces::ncu::KernelProfile p = loop_kernel();
  p.l1_hit_rate_pct = 75.0;  // One miss in four requests: groups of 4 requests share sectors.
  const ReplayPlan plan = plan_from_profile(p);
  const auto first_load = [&](uint64_t warp) {
    traces::WarpTrace w;
    build_warp(plan, warp, 20, 32, w);
    for (const auto& inst : w.instructions) {
      if (plan.info.opcodes->info(inst.opcode).base == "LDG") return w.lane_addresses(inst)[0];
    }
    return uint64_t{0};
  };
  EXPECT_EQ(first_load(0), first_load(3));
  EXPECT_NE(first_load(3), first_load(4));
  EXPECT_EQ(first_load(4), first_load(7));
}


// A wide shared access goes to the banks in phases of 128 B (8 lanes of STS.128): an 8-way
// conflict beyond the ideal is 8 wavefronts in each of the 4 phases, 32 in all, as the reference
// GEMM's `STS.128` measured (2,097,152 wavefronts for 65,536 requests).
TEST(ReplaySource, WideSharedConflictsAreCountedPerPhase) {
  const core::SharedMemoryBanks banks({});
  for (const auto& [ways, wavefronts] : {std::pair{1u, 4}, std::pair{2u, 8}, std::pair{8u, 32}}) {
    traces::ncu::KernelProfile p = loop_kernel();
    p.pcs[4] = pc(0x40, "STS.128 [R0], R4", 20, PcSpace::kShared);
    p.pcs[4].shared_wavefronts = 20 * 4 * ways;
    p.pcs[4].shared_wavefronts_ideal = 20 * 4;
    const ReplayPlan plan = plan_from_profile(p);
    traces::WarpTrace warp;
    build_warp(plan, 0, 20, 32, warp);
    bool seen = false;
    for (const auto& inst : warp.instructions) {
      if (plan.info.opcodes->info(inst.opcode).base != "STS") continue;
      std::array<uint64_t, 32> lanes{};
      std::copy_n(warp.lane_addresses(inst).begin(), 32, lanes.begin());
      EXPECT_EQ(banks.access(0xffffffffu, lanes, 16).wavefronts, wavefronts) << ways;
      seen = true;
    }
    EXPECT_TRUE(seen);
  }
}

// The sectors and lines of each of the loop kernel's LDG requests when its load measured
// `sectors` L2 sectors and `lines` L1 tag lookups a request, and DRAM bytes `fetch` times its
// sectors' (2: each 32 B used costs a 64 B fetch).
std::vector<std::pair<std::set<uint64_t>, std::set<uint64_t>>> load_requests(double sectors,
                                                                             double lines,
                                                                             double fetch) {
  traces::ncu::KernelProfile p = loop_kernel();
  p.pcs[1].l2_sectors = 70 * sectors;
  p.pcs[1].l2_sectors_ideal = 70 * 4;
  p.pcs[1].l1_tag_requests = 70 * lines;
  p.dram_read_bytes = 70 * sectors * 32 * fetch;
  const ReplayPlan plan = plan_from_profile(p);
  std::vector<std::pair<std::set<uint64_t>, std::set<uint64_t>>> out;
  for (uint64_t w = 0; w < 20; ++w) {
    traces::WarpTrace warp;
    build_warp(plan, w, 20, 32, warp);
    for (const auto& inst : warp.instructions) {
      if (plan.info.opcodes->info(inst.opcode).base != "LDG") continue;
      auto& [s, l] = out.emplace_back();
      for (uint64_t a : warp.lane_addresses(inst)) {
        s.insert(a / 32);
        l.insert(a / 128);
      }
    }
  }
  return out;
}

// The measured L1 tag lookups set the lines a request spans: a stride-4 float gather (16 sectors
// in 4 lines) packs 4 sectors a line; a stride-32 one (32 sectors in 32 lines) takes one sector
// of each line, and when the loads' DRAM bytes are twice their L2 sectors (64 B fetched for each
// 32 B used) no other request touches the rest of those lines.
TEST(ReplaySource, LinesPerRequestFollowTheL1TagLookups) {
  for (const auto& [sectors, lines, sparse] :
       {std::tuple{16.0, 4.0, false}, std::tuple{32.0, 8.0, false}, std::tuple{32.0, 32.0, true}}) {
    std::set<uint64_t> all_sectors, all_lines;
    const auto requests = load_requests(sectors, lines, sparse ? 2 : 1);
    EXPECT_FALSE(requests.empty());
    for (const auto& [s, l] : requests) {
      EXPECT_EQ(s.size(), static_cast<size_t>(sectors));
      EXPECT_EQ(l.size(), static_cast<size_t>(lines));
      all_sectors.insert(s.begin(), s.end());
      all_lines.insert(l.begin(), l.end());
    }
    // Sparse: one sector of each line, ever; dense: the lines fill up.
    if (sparse) {
      EXPECT_EQ(all_sectors.size(), all_lines.size());
    } else {
      EXPECT_EQ(all_sectors.size(), 4 * all_lines.size());
    }
  }
}

// A request whose sectors do not divide evenly over its lines still touches every line ncu
// counted: index_add's reductions put 31 sectors in 29 lines (each lane its own float of 4096);
// spreading them ceil(31 / 29) = 2 to a line reached only 16 lines, and half the lines in all.
TEST(ReplaySource, UnevenSectorsStillTouchEveryMeasuredLine) {
  for (const auto& [sectors, lines] : {std::pair{31.0, 29.0}, std::pair{6.0, 4.0},
                                       std::pair{5.0, 2.0}, std::pair{9.0, 8.0}}) {
    const auto requests = load_requests(sectors, lines, 1);
    EXPECT_FALSE(requests.empty());
    for (const auto& [s, l] : requests) {
      EXPECT_EQ(s.size(), static_cast<size_t>(sectors)) << sectors << " in " << lines;
      EXPECT_EQ(l.size(), static_cast<size_t>(lines)) << sectors << " in " << lines;
    }
  }
}

// A scattered load (32 sectors in 32 lines a request) by `warps` one-warp CTAs, `per_warp`
// executions each, over a footprint of `footprint_sectors` (from the DRAM bytes).
ReplayPlan scattered_plan(uint32_t warps, double per_warp, double footprint_sectors) {
  traces::ncu::KernelProfile p;
  p.name = "scattered";
  p.grid = {warps, 1, 1};
  p.block = {32, 1, 1};
  const double count = warps * per_warp;
  p.pcs = {pc(0x00, "LDG.E R2, desc[UR4][R4.64]", count, PcSpace::kGlobal, count * 32),
           pc(0x10, "EXIT", warps)};
  p.pcs[0].l2_sectors_ideal = count * 4;
  p.pcs[0].l1_tag_requests = count * 32;
  p.dram_read_bytes = footprint_sectors * 32;
  return plan_from_profile(p);
}

// Visits of every 32 B sector of the load, and for each 128 B line the first and last warp
// that read it.
struct Visits {
  std::map<uint64_t, uint64_t> sectors;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> line_warps;
};

Visits visits_of(const ReplayPlan& plan, uint32_t warps) {
  Visits v;
  for (uint64_t w = 0; w < warps; ++w) {
    traces::WarpTrace warp;
    build_warp(plan, w, warps, 32, warp);
    for (const auto& inst : warp.instructions) {
      if (plan.info.opcodes->info(inst.opcode).base != "LDG") continue;
      for (uint64_t a : warp.lane_addresses(inst)) {
        ++v.sectors[a / 32];
        auto [it, fresh] = v.line_warps.try_emplace(a / 128, w, w);
        it->second.second = w;
      }
    }
  }
  return v;
}

// Half an execution a warp: every other warp runs the load, yet the walk covers the whole
// footprint once (ordinals are dense over the executions, not the warps).
TEST(ReplaySource, FractionalCountsWalkTheWholeFootprint) {
  const ReplayPlan plan = scattered_plan(256, 0.5, 4096);  // 128 loads, 4096 sectors.
  const Visits v = visits_of(plan, 256);
  EXPECT_EQ(v.sectors.size(), 4096u);
  for (const auto& [sector, n] : v.sectors) EXPECT_EQ(n, 1u) << sector;
}

// An L1 hit rate that is not 1 - 1/n (25 %: 1.33 requests a group) gives some groups a second
// reader and others none: a quarter of the requests re-read the sectors of the one before.
TEST(ReplaySource, FractionalReuseGivesTheMeasuredShareOfRereads) {
  traces::ncu::KernelProfile p;
  p.name = "reuse";
  p.grid = {4096, 1, 1};
  p.block = {32, 1, 1};
  p.pcs = {pc(0x00, "LDG.E R2, desc[UR4][R4.64]", 4096, PcSpace::kGlobal, 4096 * 4),
           pc(0x10, "EXIT", 4096)};
  p.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 4096 * 4;
  p.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"] = 1024 * 4;
  const ReplayPlan plan = plan_from_profile(p);
  EXPECT_NEAR(plan.entries[0].reuse_group, 4.0 / 3, 1e-9);
  uint64_t previous = ~uint64_t{0}, rereads = 0;
  for (uint64_t w = 0; w < 4096; ++w) {
    traces::WarpTrace warp;
    build_warp(plan, w, 4096, 32, warp);
    const uint64_t first = warp.lane_addresses(warp.instructions[0])[0];
    rereads += first == previous;
    previous = first;
  }
  EXPECT_EQ(rereads, 1024u);
}

// A footprint larger than its window is walked window by window: all reads of a line come from
// warps within one window's visits of each other, and every sector is read as often.
TEST(ReplaySource, LargeFootprintsAreReReadWithinTheirWindow) {
  ReplayPlan plan = scattered_plan(4096, 1, 16384);  // 4096 lines in 128 sets of 32; 32 visits.
  ASSERT_EQ(plan.entries[0].lines_per_request, 32u);
  plan.entries[0].window_lines = 64;  // 2 sets.
  const Visits v = visits_of(plan, 4096);
  EXPECT_EQ(v.sectors.size(), 16384u);
  for (const auto& [sector, n] : v.sectors) EXPECT_EQ(n, 8u) << sector;
  for (const auto& [line, warps] : v.line_warps) {
    EXPECT_LT(warps.second - warps.first, 2u * 32) << line;
  }
  // Visits that do not divide evenly (3072 lines in 96 sets, 42.7 visits a set) still cover the
  // whole footprint, each sector 10 or 11 times.
  ReplayPlan uneven = scattered_plan(4096, 1, 12288);
  uneven.entries[0].window_lines = 64;
  const Visits u = visits_of(uneven, 4096);
  EXPECT_EQ(u.sectors.size(), 12288u);
  for (const auto& [sector, n] : u.sectors) {
    EXPECT_GE(n, 10u) << sector;
    EXPECT_LE(n, 11u) << sector;
  }
  // Without a window (the whole footprint), a line's reads spread over the grid.
  plan.entries[0].window_lines = 1u << 20;
  const Visits whole = visits_of(plan, 4096);
  EXPECT_EQ(whole.line_warps.begin()->second.second - whole.line_warps.begin()->second.first,
            31u * 128);
}

// A DEPBAR replays with the count of groups it leaves outstanding (an immediate the trace
// instruction carries), not 0, which would drain the whole cp.async pipeline at every wait.
TEST(ReplaySource, WaitsCarryTheirCount) {
  traces::ncu::KernelProfile p = loop_kernel();
  p.pcs[2] = pc(0x20, "DEPBAR.LE SB0, 0x3", 70);
  const ReplayPlan plan = plan_from_profile(p);
  traces::WarpTrace warp;
  build_warp(plan, 0, 20, 32, warp);
  size_t waits = 0;
  for (const auto& inst : warp.instructions) {
    if (plan.info.opcodes->info(inst.opcode).base != "DEPBAR") continue;
    ++waits;
    EXPECT_TRUE(inst.has(traces::kInstHasImm));
    EXPECT_EQ(inst.imm, 3);
  }
  EXPECT_GT(waits, 0u);
}

// With the measured GPU's waves, the ordinals go wave by wave and stay dense: two executions a
// warp over waves of 1000 warps still read every sector equally often.
TEST(ReplaySource, WavesKeepOrdinalsDense) {
  ReplayPlan plan = scattered_plan(4096, 2, 16384);
  plan.ctas_per_wave = 1000;
  const Visits v = visits_of(plan, 4096);
  EXPECT_EQ(v.sectors.size(), 16384u);
  for (const auto& [sector, n] : v.sectors) EXPECT_EQ(n, 16u) << sector;
}


// A warp-specialised kernel's roles run at once on the GPU; every replayed warp runs every
// role, so the roles' loops are merged pass by pass rather than run one after the other: the
// first wgmma comes before the last FFMA.
TEST(ReplaySource, WarpSpecialisedRolesRunSideBySide) {
  const ReplayPlan plan = plan_from_profile(wgmma_kernel());
  traces::WarpTrace warp;
  build_warp(plan, 0, 48, 32, warp);
  size_t first_hgmma = warp.instructions.size(), last_ffma = 0;
  for (size_t i = 0; i < warp.instructions.size(); ++i) {
    const std::string& base = plan.info.opcodes->info(warp.instructions[i].opcode).base;
    if (base == "HGMMA") first_hgmma = std::min(first_hgmma, i);
    if (base == "FFMA") last_ffma = i;
  }
  EXPECT_LT(first_hgmma, last_ffma);
}

// TMA copies: each moves its share of the L2 sectors the kernel's copies read beyond the LSU's
// misses (ncu counts multicast bytes once per receiving SM), as whole consecutive lines of the
// footprint behind the DRAM bytes, carried in the trace's TMA fields.
TEST(ReplaySource, TmaCopiesCarryTheirLines) {
  traces::ncu::KernelProfile p = wgmma_kernel();
  p.pcs.insert(p.pcs.begin() + 1, pc(0x08, "UTMALDG.2D [UR8], [UR4]", 96, PcSpace::kOther));
  p.metrics["l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"] = 96 * 8192;
  p.metrics["lts__t_sectors_srcunit_tex_op_read.sum"] = 96 * 128 + 1000;
  p.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] = 1000;
  p.dram_read_bytes = 48 * 4096;  // each line read twice
  const ReplayPlan plan = plan_from_profile(p);
  const PlanEntry* copy = nullptr;
  for (const PlanEntry& e : plan.entries) {
    if (plan.info.opcodes->info(e.opcode).base == "UTMALDG") copy = &e;
  }
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->copy_lines, 32u);
  EXPECT_EQ(copy->footprint_sectors, 48u * 4096 / 32);
  std::map<uint64_t, uint64_t> line_reads;
  uint64_t copies = 0;
  for (uint64_t w = 0; w < 48; ++w) {
    traces::WarpTrace warp;
    build_warp(plan, w, 48, 32, warp);
    for (const auto& inst : warp.instructions) {
      if (plan.info.opcodes->info(inst.opcode).base != "UTMALDG") continue;
      ++copies;
      const traces::InstructionExtras* extras = warp.extras_of(inst);
      ASSERT_TRUE(extras != nullptr && extras->tma);
      EXPECT_EQ(extras->tma->bytes, 4096u);
      const auto lines = warp.tma_addresses(inst);
      ASSERT_EQ(lines.size(), 32u);
      for (size_t l = 0; l < lines.size(); ++l) {
        EXPECT_EQ(lines[l], lines[0] + 128 * l);
        ++line_reads[lines[l]];
      }
    }
  }
  EXPECT_EQ(copies, 96u);
  EXPECT_EQ(line_reads.size(), 48u * 4096 / 128);
  for (const auto& [line, reads] : line_reads) EXPECT_EQ(reads, 2u) << line;
}


// The wait measured before an instruction becomes the stall count of the instruction emitted
// before it (the compiler's stall counts hold the next instruction, not their own).
TEST(ReplaySource, MeasuredWaitsBecomeTheStallCountsBeforeThem) {
  traces::ncu::KernelProfile p = loop_kernel();
  ReplayPlan plan = plan_from_profile(p);
  for (PlanEntry& e : plan.entries) {
    if (plan.info.opcodes->info(e.opcode).base == "FFMA") e.wait_cycles = 4.4;
  }
  traces::WarpTrace warp;
  build_warp(plan, 0, 20, 32, warp);
  size_t ffma = 0;
  for (size_t i = 1; i < warp.instructions.size(); ++i) {
    if (plan.info.opcodes->info(warp.instructions[i].opcode).base != "FFMA") continue;
    ++ffma;
    EXPECT_EQ(warp.instructions[i - 1].issue_stall, 5u);  // 4 cycles of wait, then issue
  }
  EXPECT_GT(ffma, 0u);
}

}  // namespace
}  // namespace warpsim::replay
