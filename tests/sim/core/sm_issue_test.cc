// Exact issue timing of the SM core with a fixed-latency mock memory pipeline.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "arch/error.h"
#include "sim/core/sm.h"
#include "tests/sim/core/sm_test_bench.h"

namespace warpsim::core {
namespace {

using engine::Cycle;
using testing::make_kernel;
using testing::SmBench;
using traces::gpr;
using traces::WarpBuilder;

std::vector<Cycle> every(Cycle start, Cycle step, int n) {
  std::vector<Cycle> out;
  for (int i = 0; i < n; ++i) out.push_back(start + step * static_cast<Cycle>(i));
  return out;
}

// One warp running `n` instructions `mnemonic`, dependent (each reads the previous result) or
// independent, then EXIT. Returns the issue cycles of the `mnemonic` instructions.
std::vector<Cycle> chain(const char* mnemonic, int n, bool dependent, SmConfig config = {}) {
  auto kernel = make_kernel(1, 32, [&](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    for (int i = 0; i < n; ++i) {
      if (dependent) {
        w.add(mnemonic, {gpr(1)}, {gpr(1), gpr(2), gpr(3)});
      } else {
        w.add(mnemonic, {gpr(10 + static_cast<std::uint32_t>(i))}, {gpr(1), gpr(2), gpr(3)});
      }
    }
    w.add("EXIT");
  });
  SmBench bench(config);
  bench.run(kernel);
  std::vector<Cycle> cycles = bench.observer().issue_cycles(0);
  cycles.pop_back();  // EXIT
  return cycles;
}

TEST(CoreSmIssue, DependentFfmaChainIssuesEveryFp32Latency) {
  EXPECT_EQ(chain("FFMA", 10, true), every(0, 4, 10));
}

TEST(CoreSmIssue, IndependentFfmasIssueAtTheInitiationInterval) {
  EXPECT_EQ(chain("FFMA", 10, false), every(0, 1, 10));
}

TEST(CoreSmIssue, ImadRunsOnTheFmaPipe) {
  EXPECT_EQ(chain("IMAD", 6, false), every(0, 1, 6));
  EXPECT_EQ(chain("IMAD", 6, true), every(0, 4, 6));
  EXPECT_EQ(chain("IADD3", 6, false), every(0, 2, 6));  // the 16-lane integer pipe
}

TEST(CoreSmIssue, RegisterReadsBeyondTheCollectorsRateHoldOtherWarpsDispatch) {
  SmConfig config;
  config.register_reads_per_cycle = 2;
  // Warps 0 and 4 share SMSP 0; each issues FFMAs with three register sources (two cycles of
  // operand reads), `step` cycles apart by their stall counts.
  const auto run = [&](std::uint8_t step, std::uint32_t reuse) {
    auto kernel = make_kernel(1, 160, [&](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
      for (std::uint32_t i = 0; i < 4; ++i) {
        w.add("FFMA", {gpr(10 + i)}, {gpr(1), gpr(2), gpr(3)});
        w.last().issue_stall = step;
        w.last().reuse = reuse;
      }
      w.add("EXIT");
    });
    SmBench bench{config};
    bench.run(kernel);
    return std::pair{bench.observer().issue_cycles(0), bench.observer().issue_cycles(4)};
  };
  // The warp that issued goes on at its stall counts (the compiler knew its operands); the other
  // warp of the SMSP waits out the reads: warp 0 at 0-3, warp 4 from 5 (the last read cycle is 4).
  auto [first, second] = run(1, 0);
  EXPECT_EQ(first, (std::vector<Cycle>{0, 1, 2, 3, 4}));
  EXPECT_EQ(second, (std::vector<Cycle>{5, 6, 7, 8, 9}));
  // Four cycles apart (EXIT too), the warps alternate two cycles apart: each FFMA holds the other.
  std::tie(first, second) = run(4, 0);
  EXPECT_EQ(first, (std::vector<Cycle>{0, 4, 8, 12, 16}));
  EXPECT_EQ(second, (std::vector<Cycle>{2, 6, 10, 14, 18}));
  // Two of the sources from the reuse cache: one read, nothing held.
  std::tie(first, second) = run(4, 0b110);
  EXPECT_EQ(first, (std::vector<Cycle>{0, 4, 8, 12, 16}));
  EXPECT_EQ(second, (std::vector<Cycle>{1, 5, 9, 13, 17}));
}

TEST(CoreSmIssue, AWarpPickedWhileTheReadsHoldTheDispatchLosesTheCycle) {
  // Round robin picks the other warp of the SMSP in the cycle after each three-read FFMA; the
  // dispatcher is still reading, so that cycle goes unused (both warps charged dispatch_stall)
  // and each FFMA costs two issue cycles, even where the warp that issued it could have gone on.
  SmConfig config;
  config.register_reads_per_cycle = 2;
  config.scheduler = "lrr";
  auto kernel = make_kernel(1, 160, [&](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    for (std::uint32_t i = 0; i < 4; ++i) {
      w.add("FFMA", {gpr(10 + i)}, {gpr(1), gpr(2), gpr(3)});
      w.last().issue_stall = 1;
    }
    w.add("EXIT");
  });
  SmBench bench{config};
  bench.run(kernel);
  EXPECT_EQ(bench.observer().issue_cycles(0), (std::vector<Cycle>{0, 4, 8, 12, 16}));
  EXPECT_EQ(bench.observer().issue_cycles(4), (std::vector<Cycle>{2, 6, 10, 14, 17}));
  // Each of the 8 lost cycles charges both warps: the one picked and the one that could have gone.
  EXPECT_EQ(bench.sm().counters().stalls[StallReason::kDispatchStall], 16u);
}

TEST(CoreSmIssue, TheCompilersStallCountHoldsTheNextInstruction) {
  auto kernel = make_kernel(1, 32, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.add("FADD", {gpr(10)}, {gpr(1), gpr(2)});
    w.last().issue_stall = 7;
    w.add("FADD", {gpr(11)}, {gpr(1), gpr(2)});
    w.last().issue_stall = 1;  // no wait beyond the next cycle
    w.add("FADD", {gpr(12)}, {gpr(1), gpr(2)});
    w.add("EXIT");
  });
  SmBench bench{SmConfig{}};
  bench.run(kernel);
  EXPECT_EQ(bench.observer().issue_cycles(0), (std::vector<Cycle>{0, 7, 8, 9}));
  EXPECT_EQ(bench.sm().counters().stalls[StallReason::kWait], 6u);
}

TEST(CoreSmIssue, MufuRunsAtTheSfuRate) {
  EXPECT_EQ(chain("MUFU.EX2", 5, false), every(0, 8, 5));
  EXPECT_EQ(chain("MUFU.EX2", 5, true), every(0, 16, 5));
}

TEST(CoreSmIssue, LatencyAndIntervalComeFromTheConfig) {
  SmConfig config;
  config.units[arch::FP32] = {6, 3, 1};
  EXPECT_EQ(chain("FFMA", 4, true, config), every(0, 6, 4));
  EXPECT_EQ(chain("FFMA", 4, false, config), every(0, 3, 4));
  config.units[arch::FP32] = {6, 2, 2};  // two units of II 2: one per cycle
  EXPECT_EQ(chain("FFMA", 4, false, config), every(0, 1, 4));
}

TEST(CoreSmIssue, LoadDependentWaitsForTheMemoryPipeline) {
  auto kernel = make_kernel(1, 32, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.mem("LDG.E", {gpr(2)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0x1000, 4));
    w.add("FFMA", {gpr(3)}, {gpr(2), gpr(5), gpr(3)});
    w.add("EXIT");
  });
  SmBench bench({}, 400, 30);
  bench.run(kernel);
  EXPECT_EQ(bench.observer().issue_cycles(0), (std::vector<Cycle>{0, 400, 401}));
  const SmCounters& c = bench.sm().counters();
  EXPECT_EQ(c.stalls[StallReason::kLongScoreboard], 399u);
  EXPECT_EQ(c.stalls[StallReason::kSelected], 3u);
  EXPECT_EQ(c.stalls.total(), c.warps_active_sum);
  EXPECT_EQ(c.warps_active_sum, 402u);
}

TEST(CoreSmIssue, WidthOfALoadCoversItsRegisters) {
  auto kernel = make_kernel(1, 32, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.mem("LDG.E.128", {gpr(4)}, {gpr(8)}, traces::strided_addresses(w.current_mask(), 0, 16));
    w.add("FADD", {gpr(20)}, {gpr(7), gpr(21)});  // reads the last register of R4..R7
    w.add("EXIT");
  });
  SmBench bench({}, 100, 30);
  bench.run(kernel);
  EXPECT_EQ(bench.observer().issue_cycles(0), (std::vector<Cycle>{0, 100, 101}));
}

TEST(CoreSmIssue, StoresDrainBeforeTheWarpRetires) {
  auto kernel = make_kernel(1, 32, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.mem("STG.E", {}, {gpr(4), gpr(5)}, traces::strided_addresses(w.current_mask(), 0, 4));
    w.add("EXIT");
  });
  SmBench bench({}, 50, 30);
  bench.run(kernel);
  const SmCounters& c = bench.sm().counters();
  EXPECT_EQ(c.stalls[StallReason::kDrain], 48u);  // cycles 2..49
  EXPECT_EQ(c.warps_active_sum, 50u);
  EXPECT_EQ(c.stalls.total(), 50u);
  EXPECT_EQ(bench.observer().retires.at(0).cycle, 50u);
}

TEST(CoreSmIssue, WarpsOfACtaGoToSubPartitionsByWarpIndex) {
  auto kernel = make_kernel(1, 256, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.add("FFMA", {gpr(1)}, {gpr(2), gpr(3), gpr(4)});
    w.add("EXIT");
  });
  SmBench bench;
  bench.run(kernel);
  for (const IssueEvent& e : bench.observer().issues) {
    EXPECT_EQ(e.smsp, static_cast<int>(e.warp_in_cta % 4));
  }
  const SmCounters& c = bench.sm().counters();
  for (int s = 0; s < 4; ++s) EXPECT_EQ(c.inst_issued[static_cast<std::size_t>(s)], 4u);
  EXPECT_EQ(c.thread_inst_executed, 16u * 32u);
}

}  // namespace
}  // namespace warpsim::core

namespace warpsim::core {
namespace {

TEST(CoreSmErrors, LaunchBeyondTheOccupancyLimitIsRefused) {
  auto kernel = testing::make_kernel(
      3, 1024,
      [](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) { w.add("EXIT"); });
  testing::SmBench bench;
  EXPECT_THROW(bench.run(kernel), InputError);  // 3 × 32 warps > 64
  EXPECT_EQ(bench.sm().resident_ctas(), 2);
}

TEST(CoreSmErrors, UnknownOpcodeIdIsAnInputError) {
  auto kernel = testing::make_kernel(
      1, 32, [](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) { w.add("EXIT"); });
  kernel.ctas[0].warps[0].instructions[0].opcode = 999;
  testing::SmBench bench;
  try {
    bench.run(kernel);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("opcode id 999 is not in the kernel's opcode table"),
              std::string::npos);
  }
}

TEST(CoreSmErrors, LaunchBeforeStartKernelIsAnInputError) {
  SmConfig config;
  testing::MockMemoryPipeline pipeline(10, 10);
  engine::Engine engine;
  Sm sm("gpu.sm[0]", engine.add_clock_domain("sm", 1000), 0, config, pipeline);
  traces::CtaTrace cta;
  cta.reset(1);
  EXPECT_THROW(sm.launch_cta(cta, 0), InputError);
  EXPECT_FALSE(sm.busy());
}

// A CTA handed over by stage_cta is launched by the SM's tick at the staged cycle, as launch_cta
// would have launched it before that tick: the same issues at the same cycles.
TEST(CoreSmLaunch, StagedCtasLaunchAtTheSmsNextTick) {
  auto body = [](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    w.add("FFMA", {traces::gpr(0)}, {traces::gpr(1), traces::gpr(2), traces::gpr(3)});
    w.add("FFMA", {traces::gpr(4)}, {traces::gpr(0), traces::gpr(2), traces::gpr(3)});
    w.add("EXIT");
  };
  auto direct = testing::make_kernel(3, 64, body);
  testing::SmBench a;
  const engine::Cycle end_direct = a.run(direct);
  auto staged = testing::make_kernel(3, 64, body);
  testing::SmBench b;
  b.start(staged);
  for (traces::CtaTrace& cta : staged.ctas) b.sm().stage_cta(cta, 0);
  EXPECT_TRUE(b.sm().busy());             // staged work keeps the watchdog's deadlock check off
  EXPECT_EQ(b.sm().resident_ctas(), 0);   // nothing launched before the tick
  b.engine().run();
  EXPECT_EQ(b.sm().current_cycle(), end_direct);
  ASSERT_EQ(b.observer().launches.size(), 3u);
  ASSERT_EQ(b.observer().issues.size(), a.observer().issues.size());
  for (std::size_t i = 0; i < a.observer().issues.size(); ++i) {
    EXPECT_EQ(b.observer().issues[i].cycle, a.observer().issues[i].cycle) << "issue " << i;
    EXPECT_EQ(b.observer().issues[i].warp_slot, a.observer().issues[i].warp_slot) << "issue " << i;
  }
  // Staged for a later cycle, it starts issuing then.
  auto later = testing::make_kernel(1, 32, body);
  testing::SmBench c;
  c.run_staged(later, 40);
  ASSERT_FALSE(c.observer().issues.empty());
  EXPECT_EQ(c.observer().launches.front().cycle, 40u);
  EXPECT_GE(c.observer().issues.front().cycle, 40u);
}

TEST(CoreSmLaunch, StagedCtaMeetingAnotherCycleIsAnInternalError) {
  auto kernel = testing::make_kernel(
      1, 32, [](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) { w.add("EXIT"); });
  testing::SmBench bench;  // the SM is due at cycle 0
  bench.start(kernel);
  bench.sm().stage_cta(kernel.ctas[0], 7);
  EXPECT_THROW(bench.engine().run(), InternalError);
}

TEST(CoreSmErrors, BadConfigIsRefusedAtConstruction) {
  SmConfig config;
  config.scheduler = "fifo";
  testing::MockMemoryPipeline pipeline(10, 10);
  engine::Engine engine;
  EXPECT_THROW(Sm("gpu.sm[0]", engine.add_clock_domain("sm", 1000), 0, config, pipeline),
               InputError);
}

}  // namespace
}  // namespace warpsim::core
