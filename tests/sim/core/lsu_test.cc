#include "sim/core/lsu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "arch/error.h"
#include "tests/sim/core/mock_memory.h"

namespace warpsim::core {
namespace {

using testing::Bench;
using testing::Lanes;
using testing::opcode;
using testing::strided;
using traces::AccessKind;
using traces::MemSpace;

const traces::OpcodeInfo kLdg = opcode(MemSpace::kGlobal, AccessKind::kLoad);
const traces::OpcodeInfo kStg = opcode(MemSpace::kGlobal, AccessKind::kStore);
const traces::OpcodeInfo kAtomg = opcode(MemSpace::kGlobal, AccessKind::kAtomic);
const traces::OpcodeInfo kRedg = opcode(MemSpace::kGlobal, AccessKind::kReduction);
const traces::OpcodeInfo kLdl = opcode(MemSpace::kLocal, AccessKind::kLoad);

constexpr engine::Cycle kMemory = 100;  // mock latency
// Request port 1 cycle + memory + response port 1 cycle + fill 0.
constexpr engine::Cycle kMiss = 1 + kMemory + 1;
constexpr engine::Cycle kHit = 40;

TEST(CoreLsu, CoalescedWarpLoadIsOneRequestOfFourSectors) {
  Bench bench;
  const auto id = bench.add(10, kLdg, strided(0x1000, 4));
  bench.run();
  EXPECT_EQ(bench.counters().global_ld.requests, 1u);
  EXPECT_EQ(bench.counters().global_ld.sectors, 4u);
  EXPECT_EQ(bench.counters().global_ld.sector_misses, 4u);
  ASSERT_EQ(bench.memory().received.size(), 1u);
  const mem::MemRequest& request = bench.memory().received[0].request;
  EXPECT_EQ(request.line_address, 0x1000u);
  EXPECT_EQ(request.sector_mask, 0xfu);
  EXPECT_EQ(request.op, mem::MemOp::kRead);
  EXPECT_EQ(request.source_sm, 0u);
  EXPECT_EQ(request.issue_time_ps, 10'000u);
  EXPECT_EQ(bench.memory().received[0].arrived, 11u);
  EXPECT_EQ(bench.done(id), 10 + kMiss);
  EXPECT_TRUE(bench.pipeline().idle());
}

TEST(CoreLsu, StridedLoadsTouchTheExpectedSectorsAndLines) {
  for (auto [stride, sectors, lines] :
       {std::tuple{2, 8, 2}, std::tuple{4, 16, 4}, std::tuple{8, 32, 8}, std::tuple{32, 32, 32}}) {
    Bench bench;
    const auto id = bench.add(0, kLdg, strided(0x10000, 4u * stride));
    bench.run();
    EXPECT_EQ(bench.counters().global_ld.sectors, static_cast<std::uint64_t>(sectors)) << stride;
    EXPECT_EQ(bench.memory().received.size(), static_cast<std::size_t>(lines)) << stride;
    EXPECT_EQ(bench.counters().read_requests, static_cast<std::uint64_t>(lines)) << stride;
    EXPECT_EQ(bench.counters().read_sectors, static_cast<std::uint64_t>(sectors)) << stride;
    // The last line is looked up in tag-stage cycle (sectors - 1) / 4.
    EXPECT_EQ(bench.done(id), static_cast<engine::Cycle>((sectors - 1) / 4) + kMiss) << stride;
  }
}

TEST(CoreLsu, HitCompletesAfterExactlyTheHitLatency) {
  Bench bench;
  bench.add(0, kLdg, strided(0x1000, 4));
  const auto hit = bench.add(500, kLdg, strided(0x1000, 4));
  bench.run();
  EXPECT_EQ(bench.done(hit), 500 + kHit);
  EXPECT_EQ(bench.counters().global_ld.sector_hits, 4u);
  EXPECT_EQ(bench.counters().global_ld.sector_misses, 4u);
  EXPECT_EQ(bench.memory().received.size(), 1u);
  EXPECT_DOUBLE_EQ(bench.counters().l1_sector_hit_rate_pct(), 50.0);
}

TEST(CoreLsu, MissLatencyIsPortsPlusMemoryPlusFill) {
  SmMemoryConfig config;
  config.memory_request_latency_cycles = 2;
  config.memory_response_latency_cycles = 3;
  config.l1_fill_latency_cycles = 4;
  Bench bench(config, 50);
  const auto id = bench.add(7, kLdg, strided(0x1000, 4));
  bench.run();
  EXPECT_EQ(bench.done(id), 7u + 2u + 50u + 3u + 4u);
}

TEST(CoreLsu, TagStageLooksUpFourSectorsPerCycle) {
  Bench bench;
  bench.add(0, kLdg, strided(0x10000, 128));                       // warm 32 lines
  const auto wide = bench.add(1000, kLdg, strided(0x10000, 128));  // 32 sectors: 8 cycles
  // Four of the warmed lines: four sectors, one tag cycle, queued behind the wide access.
  const auto next = bench.add(1000, kLdg, strided(0x10000, 128), 0xfu, 1);
  bench.run();
  EXPECT_EQ(bench.done(wide), 1000 + 7 + kHit);
  EXPECT_EQ(bench.done(next), 1000 + 8 + kHit);
}

TEST(CoreLsu, MergedMissesSendOneRequest) {
  Bench bench;
  const auto first = bench.add(0, kLdg, strided(0x1000, 4));
  const auto second = bench.add(5, kLdg, strided(0x1000, 4));
  bench.run();
  EXPECT_EQ(bench.memory().received.size(), 1u);
  EXPECT_EQ(bench.counters().mshr_merges, 1u);
  EXPECT_EQ(bench.counters().mshr_allocations, 1u);
  EXPECT_EQ(bench.done(first), kMiss);
  EXPECT_EQ(bench.done(second), kMiss);
  // The second lookup found the sectors allocated (in flight): tag hits, as the t-stage counts.
  EXPECT_EQ(bench.counters().global_ld.sector_hits, 4u);
}

TEST(CoreLsu, MergingAskesOnlyForSectorsNotInFlight) {
  Bench bench;
  const auto low = bench.add(0, kLdg, strided(0x1000, 0), 0xffffffffu);  // sector 0
  Lanes two = strided(0x1000, 0);
  two[1] = 0x1060;  // sectors 0 and 3
  const auto both = bench.add(3, kLdg, two, 0x3u);
  bench.run();
  ASSERT_EQ(bench.memory().received.size(), 2u);
  EXPECT_EQ(bench.memory().received[0].request.sector_mask, 0x1u);
  EXPECT_EQ(bench.memory().received[1].request.sector_mask, 0x8u);
  EXPECT_EQ(bench.memory().received[1].request.id, bench.memory().received[0].request.id);
  EXPECT_EQ(bench.done(low), kMiss);
  EXPECT_EQ(bench.done(both), 3 + kMiss);
}

TEST(CoreLsu, FullMshrTableBackPressuresTheLsu) {
  SmMemoryConfig config;
  config.l1_mshr_entries = 2;
  config.lsu_queue_depth_per_smsp = 1;
  config.lsu_queue_depth_per_sm = 1;
  Bench bench(config);
  const auto a = bench.add(0, kLdg, strided(0x1000, 0));
  const auto b = bench.add(1, kLdg, strided(0x2000, 0));
  const auto c = bench.add(2, kLdg, strided(0x3000, 0));  // stalls in the tag stage
  const auto d = bench.add(3, kLdg, strided(0x4000, 0));  // refused: the queue holds c
  bench.run();
  ASSERT_FALSE(bench.sm().refusals.empty());
  EXPECT_EQ(bench.sm().refusals.front().first, 3u);
  EXPECT_EQ(bench.sm().refusals.front().second, PipelineBackpressure::kLsu);
  EXPECT_EQ(bench.done(a), kMiss);
  EXPECT_EQ(bench.done(b), 1 + kMiss);
  // a's fill (cycle 102) frees an entry: c is looked up then, d enters the queue.
  EXPECT_EQ(bench.done(c), kMiss + kMiss);
  EXPECT_EQ(bench.sm().issued_at[3], kMiss);
  EXPECT_EQ(bench.done(d), 1 + kMiss + kMiss);
  EXPECT_GE(bench.counters().tag_stage_stalls, 1u);
}

TEST(CoreLsu, TheTagStageLooksUpOneLinePerCycleWhenSoLimited) {
  SmMemoryConfig config;
  config.l1_tag_lines_per_cycle = 1;
  Bench bench(config);
  bench.add(0, kLdg, strided(0x10000, 128));                       // warm 32 lines' sector 0
  bench.add(0, kLdg, strided(0x10000, 4));                         // and all of the first line
  const auto wide = bench.add(1000, kLdg, strided(0x10000, 128));  // 32 lines: 32 cycles
  // One whole line (four sectors) still takes one cycle, queued behind the wide access.
  const auto line = bench.add(1000, kLdg, strided(0x10000, 4), 0xffffffffu, 1);
  // Eight lanes over eight lines: eight cycles where the sector budget alone would take two.
  const auto eight = bench.add(1000, kLdg, strided(0x10000, 128), 0xffu, 2);
  bench.run();
  EXPECT_EQ(bench.done(wide), 1000 + 31 + kHit);
  EXPECT_EQ(bench.done(line), 1000 + 32 + kHit);
  EXPECT_EQ(bench.done(eight), 1000 + 33 + 7 + kHit);
}

TEST(CoreLsu, TheSectorBudgetHoldsALoadUntilFillsMakeRoom) {
  SmMemoryConfig config;
  config.l1_max_sectors_in_flight = 8;  // two whole lines
  Bench bench(config);
  const auto a = bench.add(0, kLdg, strided(0x1000, 4));
  const auto b = bench.add(1, kLdg, strided(0x2000, 4));
  const auto c = bench.add(2, kLdg, strided(0x3000, 4));  // waits for a's four sectors
  bench.run();
  EXPECT_EQ(bench.done(a), kMiss);
  EXPECT_EQ(bench.done(b), 1 + kMiss);
  EXPECT_EQ(bench.done(c), kMiss + kMiss);
  EXPECT_GE(bench.counters().tag_stage_stalls, 1u);
}

TEST(CoreLsu, FullMergeSlotsStallUntilTheFillThenHit) {
  SmMemoryConfig config;
  config.l1_mshr_merge_slots = 1;
  Bench bench(config);
  const auto first = bench.add(0, kLdg, strided(0x1000, 4));
  const auto second = bench.add(1, kLdg, strided(0x1000, 4));
  bench.run();
  EXPECT_EQ(bench.memory().received.size(), 1u);
  EXPECT_EQ(bench.done(first), kMiss);
  EXPECT_EQ(bench.done(second), kMiss + kHit);
}

TEST(CoreLsu, StoresWriteThroughAndAllocate) {
  Bench bench;
  const auto store = bench.add(3, kStg, strided(0x1000, 4));
  const auto load = bench.add(10, kLdg, strided(0x1000, 4));
  bench.run();
  EXPECT_EQ(bench.done(store), 4u);  // the cycle after its request left
  // The write goes through; the load then hits the sectors the store left in the L1.
  ASSERT_EQ(bench.memory().received.size(), 1u);
  const mem::MemRequest& write = bench.memory().received[0].request;
  EXPECT_EQ(write.op, mem::MemOp::kWrite);
  EXPECT_EQ(write.sector_mask, 0xfu);
  EXPECT_EQ(write.full_write_mask, 0xfu);
  EXPECT_EQ(write.write_bytes, 128u);
  EXPECT_EQ(bench.done(load), 10 + kHit);
  EXPECT_EQ(bench.counters().global_st.requests, 1u);
  EXPECT_EQ(bench.counters().global_st.sectors, 4u);
  EXPECT_EQ(bench.counters().global_st.sector_misses, 4u);
  EXPECT_EQ(bench.counters().global_ld.sector_hits, 4u);
  EXPECT_EQ(bench.counters().write_requests, 1u);
}

TEST(CoreLsu, StoreHitsKeepTheLineAndPartialStoresCountTheirBytes) {
  Bench bench;
  bench.add(0, kLdg, strided(0x1000, 4));
  Lanes lanes = strided(0x1000, 4);
  lanes[1] = 0x1000;  // lanes 0 and 1 write the same word
  lanes[2] = 0x1044;
  const auto store = bench.add(300, kStg, lanes, 0x7u);
  const auto load = bench.add(400, kLdg, strided(0x1000, 4));
  bench.run();
  ASSERT_EQ(bench.memory().received.size(), 2u);
  const mem::MemRequest& write = bench.memory().received[1].request;
  EXPECT_EQ(write.sector_mask, 0x5u);
  EXPECT_EQ(write.write_bytes, 8u);
  EXPECT_EQ(write.full_write_mask, 0u);
  EXPECT_EQ(bench.done(store), 301u);
  EXPECT_EQ(bench.done(load), 400 + kHit);
  EXPECT_EQ(bench.counters().global_st.sector_hits, 2u);
}

TEST(CoreLsu, AtomicsGoToTheL2AndReductionsCompleteWhenSent) {
  Bench bench;
  const auto atom = bench.add(0, kAtomg, strided(0x1000, 8));  // two lines
  const auto red = bench.add(1, kRedg, strided(0x3000, 4));
  const auto load = bench.add(500, kLdg, strided(0x1000, 4));
  bench.run();
  ASSERT_EQ(bench.memory().received.size(), 4u);
  EXPECT_EQ(bench.memory().received[0].request.op, mem::MemOp::kAtomic);
  EXPECT_EQ(bench.memory().received[1].request.op, mem::MemOp::kAtomic);
  EXPECT_EQ(bench.memory().received[2].request.op, mem::MemOp::kReduction);
  EXPECT_EQ(bench.memory().received[2].request.write_bytes, 128u);
  // Eight sectors: the second line is looked up (and sent) in the atomic's second tag cycle, and
  // the reduction enters the tag stage after it.
  EXPECT_EQ(bench.done(atom), 1 + kMiss);
  EXPECT_EQ(bench.done(red), 3u);
  EXPECT_EQ(bench.done(load), 500 + kMiss);  // atomics do not allocate in L1
  EXPECT_EQ(bench.counters().global_atom_requests, 1u);
  EXPECT_EQ(bench.counters().global_atom_sectors, 8u);
  EXPECT_EQ(bench.counters().global_red_requests, 1u);
  EXPECT_EQ(bench.counters().atomic_requests, 3u);
}

// A GPU-scope fence (ERRBAR) waits for the memory system to acknowledge the warp's writes: the
// LSU counts them per warp slot and sends a notice when the last acknowledgement arrives.
TEST(CoreLsu, WritesCountPerWarpUntilAcknowledgedAndTheLastBringsTheNotice) {
  Bench bench;
  bench.add(0, kStg, strided(0x1000, 8), 0xffffffffu, 1);  // two lines from warp slot 1
  bench.add(2, kRedg, strided(0x3000, 4), 0xffffffffu, 1);
  bench.add(2, kLdg, strided(0x5000, 4), 0xffffffffu, 2);  // a load counts for nothing
  bench.sm().notify_at = {{10, 1}, {20, 2}};
  bench.engine().run({.until = 50'000});
  EXPECT_EQ(bench.pipeline().unacknowledged_writes(1), 3u);
  EXPECT_EQ(bench.pipeline().unacknowledged_writes(2), 0u);
  bench.run();
  EXPECT_EQ(bench.pipeline().unacknowledged_writes(1), 0u);
  // The reduction is sent in cycle 2, after the store's two lines: its acknowledgement is back
  // kMiss later. Warp 2, with nothing in flight, hears with the pipeline's next advance.
  using Notice = std::pair<std::uint32_t, engine::Cycle>;
  EXPECT_EQ(bench.sm().acknowledgements, (std::vector<Notice>{{2, 21}, {1, 2 + kMiss}}));
}

TEST(CoreLsu, FullQueueRefusesTextureWithTexBackpressure) {
  SmMemoryConfig config;
  config.lsu_queue_depth_per_smsp = 1;
  config.l1_mshr_entries = 1;
  const traces::OpcodeInfo tex = opcode(MemSpace::kTexture, AccessKind::kLoad);
  Bench bench(config);
  bench.add(0, kLdg, strided(0x1000, 4));
  bench.add(1, kLdg, strided(0x2000, 4));  // waits for the only MSHR entry
  const auto texture = bench.add(2, tex, strided(0x3000, 4));
  bench.run();
  ASSERT_FALSE(bench.sm().refusals.empty());
  EXPECT_EQ(bench.sm().refusals.front().second, PipelineBackpressure::kTex);
  EXPECT_EQ(bench.sm().issued_at[2], kMiss);
  EXPECT_EQ(bench.done(texture), kMiss + kMiss + kMiss);
}

TEST(CoreLsu, LocalAccessesCountUnderLocal) {
  Bench bench;
  bench.add(0, kLdl, strided(0x8000, 4));
  bench.run();
  EXPECT_EQ(bench.counters().local_ld.requests, 1u);
  EXPECT_EQ(bench.counters().local_ld.sectors, 4u);
  EXPECT_EQ(bench.counters().global_ld.requests, 0u);
}

TEST(CoreLsu, UnaddressedAndInactiveOpsAreTimedAsHits) {
  Bench bench;
  const auto unaddressed = bench.add(0, kLdg, strided(0, 4), 0xffffffffu, 0, false);
  const auto inactive = bench.add(1, kStg, strided(0, 4), 0u);
  bench.run();
  EXPECT_EQ(bench.done(unaddressed), kHit);
  EXPECT_EQ(bench.done(inactive), 2u);
  EXPECT_EQ(bench.counters().unaddressed_ops, 1u);
  EXPECT_TRUE(bench.memory().received.empty());
}

TEST(CoreLsu, WideAccessesCoalesceByPieces) {
  Bench bench;
  const traces::OpcodeInfo load = opcode(MemSpace::kGlobal, AccessKind::kLoad, 32);
  const traces::OpcodeInfo store = opcode(MemSpace::kGlobal, AccessKind::kStore, 32);
  bench.add(0, load, strided(0x10000, 32));
  bench.add(300, store, strided(0x20000, 32));
  bench.run();
  EXPECT_EQ(bench.counters().global_ld.sectors, 32u);
  EXPECT_EQ(bench.counters().read_requests, 8u);
  EXPECT_EQ(bench.counters().write_requests, 8u);
  EXPECT_EQ(bench.memory().received.back().request.write_bytes, 128u);
}

TEST(CoreLsu, UnsupportedWidthIsAnInputError) {
  Bench bench;
  const traces::OpcodeInfo load = opcode(MemSpace::kGlobal, AccessKind::kLoad, 24);
  bench.add(0, load, strided(0, 24));
  EXPECT_THROW(bench.run(), InputError);
}

TEST(CoreLsu, UnmatchedResponseIsAnInternalError) {
  Bench bench;
  bench.memory().inject(mem::MemResponse{.line_address = 0x1000, .id = 3});
  EXPECT_THROW(bench.run(), InternalError);
}

TEST(CoreLsu, EveryOpCompletesExactlyOnce) {
  SmMemoryConfig config;
  config.l1_mshr_entries = 8;
  config.l1_mshr_merge_slots = 2;
  config.unified_l1_shared_bytes = 4096;
  config.memory_request_port_capacity = 3;
  Bench bench(config, 37);
  std::mt19937_64 rng(11);
  const traces::OpcodeInfo* kinds[] = {&kLdg, &kLdg, &kStg, &kAtomg, &kRedg, &kLdl};
  for (int i = 0; i < 600; ++i) {
    Lanes lanes{};
    const std::uint64_t base = (rng() % 64) * 128;
    for (int lane = 0; lane < 32; ++lane) {
      lanes[static_cast<std::size_t>(lane)] = i % 2 == 0 ? base + 4u * lane : (rng() % 2048) * 4;
    }
    bench.add(static_cast<engine::Cycle>(i / 2), *kinds[rng() % 6], lanes,
              static_cast<std::uint32_t>(rng()), static_cast<int>(rng() % 4));
  }
  bench.run();
  ASSERT_EQ(bench.sm().completions.size(), 600u);
  for (std::uint32_t id = 0; id < 600; ++id) EXPECT_NO_THROW(bench.completion(id));
  EXPECT_TRUE(bench.pipeline().idle());
  EXPECT_EQ(bench.pipeline().lsu().mshrs().used_count(), 0);
  EXPECT_EQ(bench.counters().responses, bench.memory().received.size());
}

}  // namespace
}  // namespace warpsim::core
