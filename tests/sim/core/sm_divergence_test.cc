// Divergence: active masks drive thread-instruction counts (SIMT efficiency), and the
// reconvergence points with their masks reach the observer.
#include <gtest/gtest.h>

#include <vector>

#include "tests/sim/core/sm_test_bench.h"

namespace warpsim::core {
namespace {

using testing::make_kernel;
using testing::SmBench;
using traces::gpr;
using traces::LaneMask;
using traces::WarpBuilder;

// A warp that splits `ways` ways inside BSSY/BSYNC: each path runs `body` FFMAs with its
// 32/ways lanes, then the warp reconverges.
traces::KernelTrace divergent_kernel(int ways, int body) {
  return make_kernel(1, 32, [=](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.add("BSSY", {}, {});
    const int lanes = 32 / ways;
    for (int path = 0; path < ways; ++path) {
      const LaneMask mask = ((LaneMask{1} << lanes) - 1) << (path * lanes);
      w.mask(mask);
      for (int k = 0; k < body; ++k) w.add("FFMA", {gpr(1)}, {gpr(2), gpr(3), gpr(4)});
    }
    w.mask(0xFFFFFFFFu);
    w.add("BSYNC", {}, {});
    w.add("EXIT");
  });
}

class CoreDivergence : public ::testing::TestWithParam<int> {};

TEST_P(CoreDivergence, SimtEfficiencyIsExact) {
  const int ways = GetParam();
  const int body = 5;
  auto kernel = divergent_kernel(ways, body);
  SmBench bench;
  bench.run(kernel);
  const SmCounters& c = bench.sm().counters();
  const std::uint64_t warp_insts = 3 + static_cast<std::uint64_t>(ways * body);
  const std::uint64_t thread_insts = 3 * 32 + static_cast<std::uint64_t>(ways * body * (32 / ways));
  EXPECT_EQ(c.total_issued(), warp_insts);
  EXPECT_EQ(c.thread_inst_executed, thread_insts);
  // smsp__thread_inst_executed_per_inst_executed.ratio
  EXPECT_DOUBLE_EQ(static_cast<double>(c.thread_inst_executed) / c.total_issued(),
                   static_cast<double>(thread_insts) / warp_insts);
}

INSTANTIATE_TEST_SUITE_P(Ways, CoreDivergence, ::testing::Values(2, 4, 8));

TEST(CoreDivergenceEvents, ReconvergencePointsAndMaskHistoryAreObservable) {
  auto kernel = divergent_kernel(2, 1);
  SmBench bench;
  bench.run(kernel);
  const auto& r = bench.observer().reconvergences;
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].pc, 0x00u);
  EXPECT_EQ(r[1].pc, 0x30u);
  EXPECT_EQ(r[1].mask, 0xFFFFFFFFu);
  std::vector<LaneMask> masks;
  for (const IssueEvent& e : bench.observer().issues) masks.push_back(e.mask);
  EXPECT_EQ(masks,
            (std::vector<LaneMask>{0xFFFFFFFF, 0x0000FFFF, 0xFFFF0000, 0xFFFFFFFF, 0xFFFFFFFF}));
}

TEST(CoreDivergenceEvents, PartialExitKeepsTheWarpRunning) {
  auto kernel = make_kernel(1, 32, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.mask(0x0000FFFF).add("EXIT");
    w.mask(0xFFFF0000).add("FFMA", {gpr(1)}, {gpr(2), gpr(3), gpr(4)});
    w.add("FFMA", {gpr(5)}, {gpr(2), gpr(3), gpr(4)});
    w.add("EXIT");
    w.add("FFMA", {gpr(6)}, {gpr(2), gpr(3), gpr(4)});  // never runs: every lane exited
  });
  SmBench bench;
  bench.run(kernel);
  EXPECT_EQ(bench.sm().counters().total_issued(), 4u);
  EXPECT_EQ(bench.sm().counters().thread_inst_executed, 64u);
}

TEST(CoreDivergenceEvents, PartialLastWarpHasOnlyItsThreads) {
  auto kernel = make_kernel(1, 40, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t i) {
    w.mask(i == 0 ? 0xFFFFFFFFu : 0xFFu).add("EXIT");
  });
  SmBench bench;
  bench.run(kernel);
  EXPECT_EQ(bench.sm().counters().warps_retired, 2u);
  EXPECT_EQ(bench.sm().counters().thread_inst_executed, 40u);
}

}  // namespace
}  // namespace warpsim::core
