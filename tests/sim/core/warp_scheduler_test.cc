// Each warp-scheduler policy issues in its documented order (one SMSP, 4 warps).
#include "sim/core/warp_scheduler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arch/error.h"
#include "tests/sim/core/sm_test_bench.h"

namespace warpsim::core {
namespace {

using testing::make_kernel;
using testing::SmBench;
using traces::gpr;

struct PolicyCase {
  std::string policy;
  std::vector<int> order;  // warp slots in issue order
};

class CoreScheduler : public ::testing::TestWithParam<PolicyCase> {};

TEST_P(CoreScheduler, IssuesInTheDocumentedOrder) {
  SmConfig config;
  config.limits.sub_partitions = 1;
  config.scheduler = GetParam().policy;
  config.two_level_active_warps = 2;
  // 4 warps, each 3 independent FFMAs and EXIT: every warp is always eligible.
  auto kernel =
      make_kernel(1, 128, [](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
        for (std::uint32_t i = 0; i < 3; ++i)
          w.add("FFMA", {gpr(10 + i)}, {gpr(1), gpr(2), gpr(3)});
        w.add("EXIT");
      });
  SmBench bench(config);
  bench.run(kernel);
  EXPECT_EQ(bench.observer().issue_order(), GetParam().order);
  // One SMSP issues one instruction per cycle, with no gaps.
  const auto& issues = bench.observer().issues;
  for (std::size_t i = 0; i < issues.size(); ++i) EXPECT_EQ(issues[i].cycle, i);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, CoreScheduler,
    ::testing::Values(PolicyCase{"gto", {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}},
                      // One CTA: one drawn priority, so its warps go by arrival as under gto.
                      PolicyCase{"gto_drawn", {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}},
                      PolicyCase{"lrr", {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}},
                      // One CTA: its warps in turn, as under lrr.
                      PolicyCase{"cta_rr", {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}},
                      PolicyCase{"cta_rr_drawn", {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}},
                      PolicyCase{"two_level", {0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3}}),
    [](const ::testing::TestParamInfo<PolicyCase>& info) { return info.param.policy; });

TEST(CoreSchedulerRegistry, ListsThePolicies) {
  EXPECT_EQ(warp_scheduler_names(), (std::vector<std::string>{"cta_rr", "cta_rr_drawn", "gto",
                                                              "gto_drawn", "lrr", "two_level"}));
}

TEST(CoreSchedulerRegistry, UnknownPolicyNamesTheKnownOnes) {
  SmConfig config;
  config.scheduler = "oldest_first";
  try {
    make_warp_scheduler(config);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "SM config: field 'sm.scheduler' names an unknown warp-scheduler policy "
              "'oldest_first' (known: cta_rr, cta_rr_drawn, gto, gto_drawn, lrr, two_level)");
  }
}

TEST(CoreSchedulerRegistry, GtoFallsBackToTheOldest) {
  SmConfig config;
  auto gto = make_warp_scheduler(config);
  gto->add_warp(5);
  gto->add_warp(2);
  gto->add_warp(9);
  EXPECT_EQ(gto->pick((1u << 2) | (1u << 9)), 2);  // 5 is older but not eligible
  gto->issued(9);
  EXPECT_EQ(gto->pick((1u << 2) | (1u << 9) | (1u << 5)), 9);  // greedy
  gto->remove_warp(9);
  EXPECT_EQ(gto->pick((1u << 2) | (1u << 5)), 5);
}

TEST(CoreSchedulerRegistry, GtoDrawnRanksWarpsByTheirCtasPriority) {
  SmConfig config;
  config.scheduler = "gto_drawn";
  auto drawn = make_warp_scheduler(config);
  // Three CTAs arrive in this order with priorities 30, 10, 20: two warps each.
  drawn->cta_priority(30);
  drawn->add_warp(0);
  drawn->add_warp(1);
  drawn->cta_priority(10);
  drawn->add_warp(2);
  drawn->add_warp(3);
  drawn->cta_priority(20);
  drawn->add_warp(4);
  drawn->add_warp(5);
  std::vector<int> order;
  for (WarpMask left = 0b111111; left != 0;) {
    const int slot = drawn->pick(left);
    order.push_back(slot);
    left &= ~(WarpMask{1} << slot);
  }
  // The CTA of the lowest priority first; within a CTA, the oldest warp first.
  EXPECT_EQ(order, (std::vector<int>{2, 3, 4, 5, 0, 1}));
  // Greedy as gto: the warp issued last keeps issuing while eligible.
  drawn->issued(0);
  EXPECT_EQ(drawn->pick(0b000101), 0);
  drawn->remove_warp(0);
  EXPECT_EQ(drawn->pick(0b100010), 5);
  // A CTA arriving later with an equal priority goes after the resident ones of that priority.
  drawn->cta_priority(10);
  drawn->add_warp(6);
  EXPECT_EQ(drawn->pick(0b1001000), 3);
  EXPECT_EQ(drawn->pick(0b1010000), 6);
}

TEST(CoreSchedulerRegistry, LrrWrapsAround) {
  SmConfig config;
  config.scheduler = "lrr";
  auto lrr = make_warp_scheduler(config);
  for (int s : {1, 4, 7}) lrr->add_warp(s);
  lrr->issued(7);
  EXPECT_EQ(lrr->pick((1u << 1) | (1u << 4)), 1);
  lrr->issued(1);
  EXPECT_EQ(lrr->pick((1u << 1) | (1u << 4) | (1u << 7)), 4);
}

TEST(CoreSchedulerRegistry, CtaRrTakesTheFirstCtasWarpsInTurn) {
  SmConfig config;
  config.scheduler = "cta_rr";
  config.shared_warps = 3;
  auto rr = make_warp_scheduler(config);
  // Two CTAs (priorities ignored under cta_rr): slots 0, 2, 4 and then 1, 3; three warps share.
  rr->cta_priority(50);
  for (int s : {0, 2, 4}) rr->add_warp(s);
  rr->cta_priority(10);
  for (int s : {1, 3}) rr->add_warp(s);
  // The first CTA's warps in turn while any is eligible, wrapping around.
  EXPECT_EQ(rr->pick(0b11111), 0);
  rr->issued(0);
  EXPECT_EQ(rr->pick(0b11111), 2);  // no greedy: the next of the CTA
  rr->issued(2);
  EXPECT_EQ(rr->pick(0b01111), 0);  // 4 not eligible: wraps to 0
  // None of the first CTA eligible: the second CTA's.
  EXPECT_EQ(rr->pick(0b01010), 1);
  rr->issued(1);
  EXPECT_EQ(rr->pick(0b01010), 3);
  // The first CTA gone, the second issues first.
  for (int s : {0, 2, 4}) rr->remove_warp(s);
  EXPECT_EQ(rr->issuable(), WarpMask{0b01010});
  EXPECT_EQ(rr->pick(0b01010), 3);
}

TEST(CoreSchedulerRegistry, CtaRrSharesByWarpsNotByCtas) {
  SmConfig config;
  config.scheduler = "cta_rr";
  config.shared_warps = 4;
  auto rr = make_warp_scheduler(config);
  // CTAs of two warps each: slots 0, 1 | 2, 3 | 4, 5. The first four warps (two CTAs) share.
  for (int cta = 0; cta < 3; ++cta) {
    rr->cta_priority(0);
    for (int s : {2 * cta, 2 * cta + 1}) rr->add_warp(s);
  }
  EXPECT_EQ(rr->pick(0b111111), 0);
  rr->issued(0);
  EXPECT_EQ(rr->pick(0b111111), 1);
  rr->issued(1);
  EXPECT_EQ(rr->pick(0b111111), 2);  // the second CTA's warps take their turn too
  rr->issued(2);
  EXPECT_EQ(rr->pick(0b111111), 3);
  rr->issued(3);
  EXPECT_EQ(rr->pick(0b111111), 0);  // the third CTA waits
  EXPECT_EQ(rr->pick(0b110000), 4);  // until none of the four is eligible
  // A shared warp retires: the third CTA's first warp joins the turn.
  rr->remove_warp(1);
  EXPECT_EQ(rr->pick(0b111101), 4);  // next after 3, the last to issue
  rr->issued(4);
  EXPECT_EQ(rr->pick(0b111101), 0);
  EXPECT_EQ(rr->pick(0b100000), 5);
}

TEST(CoreSchedulerRegistry, CtaRrDrawnRanksCtasByTheirDrawnPriority) {
  SmConfig config;
  config.scheduler = "cta_rr_drawn";
  config.shared_warps = 2;
  auto rr = make_warp_scheduler(config);
  rr->cta_priority(50);
  for (int s : {0, 2}) rr->add_warp(s);
  rr->cta_priority(10);
  for (int s : {1, 3}) rr->add_warp(s);
  rr->cta_priority(10);  // equal priority: after the resident CTA of that priority
  rr->add_warp(5);
  EXPECT_EQ(rr->pick(0b101111), 1);
  rr->issued(1);
  EXPECT_EQ(rr->pick(0b101111), 3);
  EXPECT_EQ(rr->pick(0b100101), 5);
  EXPECT_EQ(rr->pick(0b000101), 0);
}

TEST(CoreSchedulerRegistry, TwoLevelDemotesAWarpOnALongStall) {
  SmConfig config;
  config.scheduler = "two_level";
  config.two_level_active_warps = 2;
  auto two = make_warp_scheduler(config);
  for (int s : {0, 1, 2, 3}) two->add_warp(s);
  EXPECT_EQ(two->issuable(), 0b0011u);
  EXPECT_EQ(two->pick(0b1100u), -1);  // pending warps cannot issue
  two->long_stall(0);
  EXPECT_EQ(two->issuable(), 0b0110u);
  two->long_stall(1);
  EXPECT_EQ(two->issuable(), 0b1100u);
  two->remove_warp(2);
  EXPECT_EQ(two->issuable(), 0b1001u);  // the oldest pending warp (0) returns
}

}  // namespace
}  // namespace warpsim::core
