// The SM's serial CTA launch (SmConfig::cta_launch_interval_cycles): CTAs that arrive together
// start one interval apart, their warps resident and charged no_instruction meanwhile.
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

// Three CTAs of two warps, each warp one FADD and EXIT.
traces::KernelTrace three_ctas() {
  return make_kernel(3, 64, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.add("FADD", {gpr(1)}, {gpr(2), gpr(3)});
    w.add("EXIT");
  });
}

TEST(CoreCtaLaunch, CtasArrivingTogetherStartOneIntervalApart) {
  SmConfig config;
  config.cta_launch_interval_cycles = 30;
  SmBench bench(config);
  auto kernel = three_ctas();
  bench.run(kernel);
  // Warp slots 0-1 hold CTA 0, 2-3 CTA 1, 4-5 CTA 2.
  const std::vector<Cycle> first = {0, 0, 30, 30, 60, 60};
  for (int slot = 0; slot < 6; ++slot) {
    ASSERT_FALSE(bench.observer().issue_cycles(slot).empty()) << slot;
    EXPECT_EQ(bench.observer().issue_cycles(slot).front(), first[static_cast<std::size_t>(slot)])
        << slot;
  }
  // The held warps are resident and wait on no_instruction: 2 x 30 + 2 x 60 warp-cycles.
  EXPECT_EQ(bench.sm().counters().stalls[StallReason::kNoInstruction], 180u);
}

TEST(CoreCtaLaunch, WithoutAnIntervalEveryCtaStartsAtOnce) {
  SmBench bench;
  auto kernel = three_ctas();
  bench.run(kernel);
  for (int slot = 0; slot < 6; ++slot) {
    // Slots 4 and 5 share sub-partitions 0 and 1 with slots 0 and 1, which issue their FADD and
    // EXIT first.
    ASSERT_FALSE(bench.observer().issue_cycles(slot).empty()) << slot;
    EXPECT_EQ(bench.observer().issue_cycles(slot).front(), slot < 4 ? 0u : 2u) << slot;
  }
  EXPECT_EQ(bench.sm().counters().stalls[StallReason::kNoInstruction], 0u);
}

TEST(CoreCtaLaunch, ACtaArrivingAfterTheIntervalStartsAtOnce) {
  SmConfig config;
  config.cta_launch_interval_cycles = 30;
  SmBench bench(config);
  auto kernel = three_ctas();
  bench.start(kernel);
  bench.sm().launch_cta(kernel.ctas[0], 0);
  bench.engine().run();
  const Cycle later = bench.sm().current_cycle() + 100;
  bench.sm().stage_cta(kernel.ctas[1], later);
  bench.engine().wake(bench.sm(), later);
  bench.engine().run();
  // CTA 1 takes the warp slots CTA 0 left: slot 0 issues CTA 0's FADD and EXIT, then CTA 1's.
  const std::vector<Cycle> issues = bench.observer().issue_cycles(0);
  ASSERT_EQ(issues.size(), 4u);
  EXPECT_EQ(issues[2], later);
  EXPECT_EQ(bench.sm().counters().stalls[StallReason::kNoInstruction], 0u);
}

}  // namespace
}  // namespace warpsim::core
