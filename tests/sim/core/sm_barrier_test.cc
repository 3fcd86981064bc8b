// CTA barriers: BAR.SYNC releases only when every running warp of the CTA arrived; warps that
// exited do not block it; BAR.ARV arrives without waiting.
#include <gtest/gtest.h>

#include <vector>

#include "tests/sim/core/sm_test_bench.h"

namespace warpsim::core {
namespace {

using engine::Cycle;
using testing::make_kernel;
using testing::SmBench;
using traces::gpr;
using traces::WarpBuilder;

// Issue cycle of the last instruction before EXIT of each warp slot.
std::vector<Cycle> last_work(const testing::RecordingObserver& o, int warps) {
  std::vector<Cycle> out;
  for (int s = 0; s < warps; ++s) {
    const std::vector<Cycle> c = o.issue_cycles(s);
    out.push_back(c.at(c.size() - 2));
  }
  return out;
}

TEST(CoreBarrier, ReleasesWhenTheLastWarpArrives) {
  // Warp i runs a dependent chain of i FFMAs (4 cycles each), then BAR.SYNC, then one FFMA.
  auto kernel = make_kernel(1, 128, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t i) {
    for (std::uint32_t k = 0; k < i; ++k) w.add("FFMA", {gpr(1)}, {gpr(1), gpr(2), gpr(3)});
    w.add("BAR.SYNC.DEFER_BLOCKING").imm(0);
    w.add("FFMA", {gpr(5)}, {gpr(6), gpr(2), gpr(3)});
    w.add("EXIT");
  });
  SmBench bench;
  bench.run(kernel);
  // Warp 3 reaches the barrier at cycle 9 (FFMAs at 0, 4, 8); release 12 cycles later.
  EXPECT_EQ(bench.observer().issue_cycles(3).at(3), 9u);
  EXPECT_EQ(last_work(bench.observer(), 4), (std::vector<Cycle>{21, 21, 21, 21}));
  const SmCounters& c = bench.sm().counters();
  // Barrier cycles: warp 0 waits 1..20, warp 1 2..20, warp 2 6..20, warp 3 10..20.
  EXPECT_EQ(c.stalls[StallReason::kBarrier], 20u + 19u + 15u + 11u);
  EXPECT_EQ(c.stalls.total(), c.warps_active_sum);
}

TEST(CoreBarrier, ArrivalsAreTakenOneAtATime) {
  // 16 back-to-back BAR.SYNC per warp, as the barrier probe runs them: the SM takes 2 cycles per
  // warp's arrival, one warp at a time, and releases 12 cycles after the last, so a barrier costs
  // 12 + 2 x warps cycles (the H200: 14.2, 16.2, 20.2, 28.2, 44.2, 76.2 for 1 to 32 warps;
  // validate/reference/h200/barrier.tsv).
  SmConfig config;
  config.barrier_arrival_cycles = 2;
  config.barrier_latency_cycles = 12;
  for (const std::uint32_t warps : {1u, 4u, 32u}) {
    auto kernel =
        make_kernel(1, warps * 32, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
          for (int k = 0; k < 16; ++k) w.add("BAR.SYNC.DEFER_BLOCKING").imm(0);
          w.add("EXIT");
        });
    SmBench bench(config);
    bench.run(kernel);
    const std::vector<Cycle> bars = bench.observer().issue_cycles(0);
    ASSERT_EQ(bars.size(), 17u);
    // Warp 0 issues each barrier as soon as the previous one releases it (from the second on:
    // the first includes the warps' staggered start).
    for (int k = 2; k < 16; ++k) {
      EXPECT_EQ(bars[static_cast<std::size_t>(k)] - bars[static_cast<std::size_t>(k - 1)],
                12u + 2u * warps)
          << warps << " warps, barrier " << k;
    }
  }
}

TEST(CoreBarrier, ExitedWarpsDoNotBlockIt) {
  // Warps 0-2 wait at the barrier from cycle 0; warp 3 runs 5 dependent FFMAs and exits.
  auto kernel = make_kernel(1, 128, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t i) {
    if (i == 3) {
      for (int k = 0; k < 5; ++k) w.add("FFMA", {gpr(1)}, {gpr(1), gpr(2), gpr(3)});
      w.add("EXIT");
      return;
    }
    w.add("BAR.SYNC").imm(0);
    w.add("FFMA", {gpr(5)}, {gpr(6), gpr(2), gpr(3)});
    w.add("EXIT");
  });
  SmBench bench;
  bench.run(kernel);
  EXPECT_EQ(bench.observer().issue_cycles(3).back(), 17u);  // EXIT after FFMAs at 0..16
  EXPECT_EQ(last_work(bench.observer(), 3), (std::vector<Cycle>{29, 29, 29}));
}

TEST(CoreBarrier, ArriveDoesNotWaitAndNamedBarriersAreIndependent) {
  // Warps 0 and 1 sync on barrier 1; warps 2 and 3 arrive on barrier 1 (BAR.ARV) late and
  // continue; barrier 1 releases once all four arrived.
  auto kernel = make_kernel(1, 128, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t i) {
    if (i < 2) {
      w.add("BAR.SYNC").imm(1);
    } else {
      for (int k = 0; k < 3; ++k) w.add("FFMA", {gpr(1)}, {gpr(1), gpr(2), gpr(3)});
      w.add("BAR.ARV").imm(1);
    }
    w.add("FFMA", {gpr(5)}, {gpr(6), gpr(2), gpr(3)});
    w.add("EXIT");
  });
  SmBench bench;
  bench.run(kernel);
  // Arrivals of warps 2 and 3 at cycle 9; release at 21; BAR.ARV warps go on at 10.
  EXPECT_EQ(last_work(bench.observer(), 4), (std::vector<Cycle>{21, 21, 10, 10}));
}

}  // namespace
}  // namespace warpsim::core
