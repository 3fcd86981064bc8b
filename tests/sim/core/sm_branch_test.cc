// Taken branches: the branch probe's loops (validate/capture/probes/branch.cu) with their sm_90
// stall counts (validate/reference/h200/branch_sass.txt) take as many cycles per round as on
// the H200 (branch.tsv) once a taken branch holds its warp 10 cycles.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "tests/sim/core/sm_test_bench.h"

namespace warpsim::core {
namespace {

using engine::Cycle;
using testing::make_kernel;
using testing::SmBench;
using traces::gpr;
using traces::pred;
using traces::ureg;
using traces::WarpBuilder;

constexpr int kRounds = 6;

// One round of branch_loop<B> at `head`: UIADD3 UR4, the FFMAs on R0 and ISETP interleaved as
// the compiler placed them, then @!P0 BRA back to `head`. `stalls` lists each instruction's stall
// count in order; the ISETP is at `isetp_at` and the BRA last.
void add_round(WarpBuilder& w, std::uint32_t head, const std::vector<std::uint8_t>& stalls,
               std::size_t uiadd_at, std::size_t isetp_at) {
  w.pc(head);
  for (std::size_t k = 0; k + 1 < stalls.size(); ++k) {
    if (k == uiadd_at) {
      w.add("UIADD3", {ureg(4)}, {ureg(4)});
    } else if (k == isetp_at) {
      w.add("ISETP.LE.AND", {pred(0)}, {gpr(4), ureg(4)});
    } else {
      w.add("FFMA", {gpr(0)}, {gpr(0), gpr(5)});
    }
    w.last().issue_stall = stalls[k];
  }
  w.add("BRA").guard(pred(0), true);
  w.last().issue_stall = stalls.back();
}

// Cycles between the first instructions of consecutive rounds of warp slot 0.
std::vector<Cycle> round_cycles(int warps, const std::vector<std::uint8_t>& stalls,
                                std::size_t uiadd_at, std::size_t isetp_at) {
  auto kernel = make_kernel(1, 32 * static_cast<std::uint32_t>(warps),
                            [&](WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
                              for (int r = 0; r < kRounds; ++r) {
                                add_round(w, 0xa0, stalls, uiadd_at, isetp_at);
                              }
                              w.add("EXIT");
                            });
  SmConfig config;
  config.branch_resolve_cycles = 10;
  SmBench bench(config);
  bench.run(kernel);
  const std::vector<Cycle> issues = bench.observer().issue_cycles(0);
  std::vector<Cycle> out;
  for (int r = 1; r < kRounds; ++r) {
    out.push_back(issues[static_cast<std::size_t>(r) * stalls.size()] -
                  issues[static_cast<std::size_t>(r - 1) * stalls.size()]);
  }
  return out;
}

TEST(CoreBranch, OneFfmaLoopTakes29CyclesPerRound) {
  // branch_loop<1>: UIADD3 (1), FFMA (5), ISETP (13), BRA (5): 24 cycles of stall counts; the
  // taken BRA holds the warp 10 cycles, not 5. The H200: 29.0 with 1, 4 and 8 warps.
  const std::vector<std::uint8_t> stalls = {1, 5, 13, 5};
  for (const int warps : {1, 4, 8}) {
    EXPECT_EQ(round_cycles(warps, stalls, 0, 2), std::vector<Cycle>(kRounds - 1, 29))
        << warps << " warps";
  }
}

TEST(CoreBranch, EightFfmaLoopTakes39CyclesPerRound) {
  // branch_loop<8>: FFMA (1), UIADD3 (3), FFMA (3), ISETP (1), five FFMAs (4 each), FFMA (1),
  // BRA (6): 35 cycles of stall counts. The H200: 39.0 with 1 and 4 warps.
  const std::vector<std::uint8_t> stalls = {1, 3, 3, 1, 4, 4, 4, 4, 4, 1, 6};
  for (const int warps : {1, 4}) {
    EXPECT_EQ(round_cycles(warps, stalls, 1, 3), std::vector<Cycle>(kRounds - 1, 39))
        << warps << " warps";
  }
}

}  // namespace
}  // namespace warpsim::core
