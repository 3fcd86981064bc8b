// Stall accounting: every resident warp-cycle is charged to exactly one reason, with ncu's
// classification of each dependency.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "tests/sim/core/sm_test_bench.h"

namespace warpsim::core {
namespace {

using engine::Cycle;
using testing::make_kernel;
using testing::SmBench;
using traces::gpr;
using traces::WarpBuilder;

SmCounters run_one_warp(const std::function<void(WarpBuilder&)>& body, SmConfig config = {}) {
  auto kernel = make_kernel(1, 32, [&](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    body(w);
    w.add("EXIT");
  });
  SmBench bench(config, 400, 30);
  bench.run(kernel);
  return bench.sm().counters();
}

TEST(CoreStall, SharedLoadDependentIsShortScoreboard) {
  const SmCounters c = run_one_warp([](WarpBuilder& w) {
    w.mem("LDS", {gpr(2)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0, 4));
    w.add("FADD", {gpr(3)}, {gpr(2), gpr(3)});
  });
  EXPECT_EQ(c.stalls[StallReason::kShortScoreboard], 29u);
  EXPECT_EQ(c.stalls[StallReason::kLongScoreboard], 0u);
}

TEST(CoreStall, FixedLatencyDependentIsWait) {
  const SmCounters c = run_one_warp([](WarpBuilder& w) {
    for (int i = 0; i < 3; ++i) w.add("FFMA", {gpr(1)}, {gpr(1), gpr(2), gpr(3)});
  });
  EXPECT_EQ(c.stalls[StallReason::kWait], 6u);
  EXPECT_EQ(c.stalls[StallReason::kSelected], 4u);
}

// The H200 charges a busy SFU to mio_throttle (MUFU goes through the MIO): sfu at 528 CTAs,
// validate/reference/h200/raw.csv, 4.32 warps per issue on mio_throttle and 0.00 on
// math_pipe_throttle.
TEST(CoreStall, MufuDependentIsShortScoreboardAndBusySfuIsMioThrottle) {
  const SmCounters dependent = run_one_warp([](WarpBuilder& w) {
    w.add("MUFU.RSQ", {gpr(1)}, {gpr(2)});
    w.add("FADD", {gpr(3)}, {gpr(1), gpr(3)});
  });
  EXPECT_EQ(dependent.stalls[StallReason::kShortScoreboard], 15u);
  const SmCounters busy = run_one_warp([](WarpBuilder& w) {
    for (std::uint32_t i = 0; i < 3; ++i) w.add("MUFU.EX2", {gpr(10 + i)}, {gpr(2)});
  });
  EXPECT_EQ(busy.stalls[StallReason::kMioThrottle], 14u);  // 7 + 7
  EXPECT_EQ(busy.stalls[StallReason::kMathPipeThrottle], 0u);
}

TEST(CoreStall, PipelineBackpressureIsChargedToItsThrottle) {
  auto kernel = make_kernel(1, 32, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    for (std::uint32_t i = 0; i < 2; ++i) {
      w.mem("LDS", {gpr(10 + i)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0, 4));
    }
    w.add("EXIT");
  });
  SmBench bench({}, 400, 30);
  bench.pipeline().limit_in_flight(1, PipelineBackpressure::kMio);
  bench.run(kernel);
  EXPECT_EQ(bench.observer().issue_cycles(0), (std::vector<Cycle>{0, 30, 31}));
  EXPECT_EQ(bench.sm().counters().stalls[StallReason::kMioThrottle], 29u);
}

// A full queue admits the warps it refused in the order they were refused (the H200's LSU and MIO
// queues share their slots out in turn, validate/reference/h200/lsu_queue.tsv), not by the warp
// scheduler's priority: warps 0 and 4 (both on sub-partition 0) alternate once both wait.
TEST(CoreStall, FullQueueAdmitsTheLongestWaitingWarp) {
  auto kernel = make_kernel(1, 256, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t i) {
    if (i % 4 == 0) {
      for (std::uint32_t k = 0; k < 3; ++k) {
        w.mem("LDS", {gpr(10 + k)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0, 4));
      }
    }
    w.add("EXIT");
  });
  SmBench bench({}, 400, 30);
  bench.pipeline().limit_in_flight(1, PipelineBackpressure::kMio);
  bench.run(kernel);
  // Warp 0 issues first; both are refused at cycle 1, the tie going to the lower slot; warp 0's
  // third load is refused at 31, after warp 4's first refusal, so warp 4 goes next.
  const std::vector<Cycle> first = bench.observer().issue_cycles(0);
  const std::vector<Cycle> second = bench.observer().issue_cycles(4);
  ASSERT_GE(first.size(), 3u);
  ASSERT_GE(second.size(), 3u);
  EXPECT_EQ(std::vector<Cycle>(first.begin(), first.begin() + 3), (std::vector<Cycle>{0, 30, 90}));
  EXPECT_EQ(std::vector<Cycle>(second.begin(), second.begin() + 3),
            (std::vector<Cycle>{60, 120, 150}));
}

TEST(CoreStall, TakenBranchAndSleepHoldTheWarp) {
  const SmCounters c = run_one_warp([](WarpBuilder& w) {
    w.add("BRA");
    w.pc(0x200);  // the branch's target: the warp was redirected
    w.add("NANOSLEEP").imm(20);
  });
  EXPECT_EQ(c.stalls[StallReason::kBranchResolving], 3u);
  EXPECT_EQ(c.stalls[StallReason::kSleeping], 19u);
}

TEST(CoreStall, BranchThatFallsThroughHoldsOnlyForItsStallCount) {
  SmConfig config;
  config.branch_resolve_cycles = 10;
  const SmCounters through = run_one_warp(
      [](WarpBuilder& w) {
        w.add("BRA").guard(traces::pred(0));
        w.last().issue_stall = 5;
        w.add("FADD", {gpr(3)}, {gpr(4), gpr(5)});
      },
      config);
  EXPECT_EQ(through.stalls[StallReason::kBranchResolving], 4u);
  const SmCounters taken = run_one_warp(
      [](WarpBuilder& w) {
        w.add("BRA").guard(traces::pred(0));
        w.last().issue_stall = 5;
        w.pc(0x400);
        w.add("FADD", {gpr(3)}, {gpr(4), gpr(5)});
      },
      config);
  EXPECT_EQ(taken.stalls[StallReason::kBranchResolving], 9u);
}

// A convergence barrier's BSYNC (and BREAK) resolves like a taken branch though the warp goes on
// to the next instruction; BSSY and WARPSYNC do not (the H200's source pages: 11.2, 14.6 and 0
// cycles of branch_resolving an execution).
TEST(CoreStall, BsyncAndBreakResolveLikeATakenBranch) {
  SmConfig config;
  config.branch_resolve_cycles = 10;
  const auto stalls_after = [&](const char* opcode) {
    return run_one_warp(
               [&](WarpBuilder& w) {
                 w.add(opcode);
                 w.add("FADD", {gpr(3)}, {gpr(4), gpr(5)});
               },
               config)
        .stalls[StallReason::kBranchResolving];
  };
  EXPECT_EQ(stalls_after("BSYNC"), 9u);
  EXPECT_EQ(stalls_after("BREAK"), 9u);
  EXPECT_EQ(stalls_after("BSSY"), 0u);
  EXPECT_EQ(stalls_after("WARPSYNC.ALL"), 0u);
}

TEST(CoreStall, MembarWaitsForOutstandingStores) {
  const SmCounters c = run_one_warp([](WarpBuilder& w) {
    w.mem("STG.E", {}, {gpr(4), gpr(5)}, traces::strided_addresses(w.current_mask(), 0, 4));
    w.add("MEMBAR.SC.GPU");
  });
  EXPECT_EQ(c.stalls[StallReason::kMembar], 399u);
}

// A mixed kernel: the charged warp-cycles of every warp sum to its resident cycles.
TEST(CoreStall, ChargedCyclesSumToResidentWarpCycles) {
  auto kernel = make_kernel(3, 256, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t i) {
    w.mem("LDG.E", {gpr(2)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0, 4));
    w.mem("LDS", {gpr(6)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0, 4));
    for (std::uint32_t k = 0; k < i; ++k) w.add("MUFU.EX2", {gpr(20 + k)}, {gpr(6)});
    w.add("FFMA", {gpr(3)}, {gpr(2), gpr(6), gpr(3)});
    w.add("BAR.SYNC").imm(0);
    w.add("IMAD", {gpr(7)}, {gpr(3), gpr(3), gpr(7)});
    w.mem("STG.E", {}, {gpr(4), gpr(7)}, traces::strided_addresses(w.current_mask(), 0, 4));
    w.add("EXIT");
  });
  SmBench bench({}, 200, 25);
  bench.run(kernel);
  const SmCounters& c = bench.sm().counters();
  EXPECT_EQ(c.stalls.total(), c.warps_active_sum);
  EXPECT_EQ(c.warps_retired, 24u);
  std::map<int, std::uint64_t> per_warp;
  for (const StallEvent& e : bench.observer().stalls) per_warp[e.warp_slot] += e.cycles;
  std::uint64_t total = 0;
  for (const auto& [slot, cycles] : per_warp) total += cycles;
  EXPECT_EQ(total, c.warps_active_sum);
  EXPECT_GT(c.stalls[StallReason::kLongScoreboard], 0u);
  EXPECT_GT(c.stalls[StallReason::kShortScoreboard], 0u);
  EXPECT_GT(c.stalls[StallReason::kBarrier], 0u);
  EXPECT_GT(c.stalls[StallReason::kNotSelected], 0u);
  EXPECT_GT(c.stalls[StallReason::kDrain], 0u);
  EXPECT_EQ(c.stalls[StallReason::kSelected], c.total_issued());
}

// Many warps contending for the same units and a small queue: without an observer the SM decides
// some not-selected warps' next evaluation in advance (Sm::port_wait); the issue cycles and every
// charged reason stay those of the run with one.
TEST(CoreStall, ContendedUnitsChargeTheSameWithoutAnObserver) {
  auto build = [] {
    return make_kernel(4, 512, [](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t i) {
      for (std::uint32_t k = 0; k < 3; ++k) {
        w.mem("LDS", {gpr(10 + k)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0, 4));
      }
      w.mem("LDG.E", {gpr(2)}, {gpr(4)}, traces::strided_addresses(w.current_mask(), 0, 4));
      for (std::uint32_t k = 0; k < 1 + i % 3; ++k) w.add("MUFU.EX2", {gpr(20 + k)}, {gpr(6)});
      w.add("FFMA", {gpr(3)}, {gpr(2), gpr(10), gpr(3)});
      w.mem("STG.E", {}, {gpr(4), gpr(3)}, traces::strided_addresses(w.current_mask(), 0, 4));
      w.add("EXIT");
    });
  };
  for (const PipelineBackpressure limited : {PipelineBackpressure::kNone,
                                             PipelineBackpressure::kMio,
                                             PipelineBackpressure::kLsu}) {
    auto observed_kernel = build();
    SmBench observed({}, 200, 25);
    if (limited != PipelineBackpressure::kNone) observed.pipeline().limit_in_flight(3, limited);
    const Cycle observed_end = observed.run(observed_kernel);
    auto plain_kernel = build();
    SmBench plain({}, 200, 25);
    if (limited != PipelineBackpressure::kNone) plain.pipeline().limit_in_flight(3, limited);
    plain.sm().set_observer(nullptr);
    const Cycle plain_end = plain.run(plain_kernel);
    EXPECT_EQ(plain_end, observed_end);
    const SmCounters& a = observed.sm().counters();
    const SmCounters& b = plain.sm().counters();
    EXPECT_GT(a.stalls[StallReason::kNotSelected], 0u);
    EXPECT_EQ(b.stalls.total(), b.warps_active_sum);
    for (int r = 0; r < kStallReasonCount; ++r) {
      const auto reason = static_cast<StallReason>(r);
      EXPECT_EQ(b.stalls[reason], a.stalls[reason]) << stall_reason_name(reason);
    }
    EXPECT_EQ(b.issue_active_cycles, a.issue_active_cycles);
    EXPECT_EQ(b.warps_active_sum, a.warps_active_sum);
  }
}

TEST(CoreStall, ReasonNamesAreNcus) {
  EXPECT_EQ(stall_reason_name(StallReason::kLongScoreboard), "long_scoreboard");
  EXPECT_EQ(stall_reason_name(StallReason::kMathPipeThrottle), "math_pipe_throttle");
  EXPECT_EQ(stall_reason_name(StallReason::kMisc), "misc");
  for (int r = 0; r < kStallReasonCount; ++r) {
    const auto reason = static_cast<StallReason>(r);
    EXPECT_EQ(parse_stall_reason(stall_reason_name(reason)), reason);
  }
  EXPECT_EQ(parse_stall_reason("imc_miss"), std::nullopt);
}

}  // namespace
}  // namespace warpsim::core
