#include "sim/core/functional_unit.h"

#include <gtest/gtest.h>

namespace warpsim::core {
namespace {

TEST(CoreFunctionalUnit, IntervalHoldsTheUnit) {
  SmConfig config;
  FunctionalUnits fu(config);
  EXPECT_TRUE(fu.can_issue(arch::SFU, 0));
  fu.issue(arch::SFU, 0, 8 * kFixedOne);
  EXPECT_FALSE(fu.can_issue(arch::SFU, 7));
  EXPECT_EQ(fu.free_at(arch::SFU, 3), 8u);
  EXPECT_TRUE(fu.can_issue(arch::SFU, 8));
  EXPECT_TRUE(fu.can_issue(arch::FP32, 1));  // other classes are independent
  fu.reset();
  EXPECT_TRUE(fu.can_issue(arch::SFU, 1));
}

TEST(CoreFunctionalUnit, SeveralUnitsAcceptInParallel) {
  SmConfig config;
  config.units[arch::FP64].units_per_smsp = 2;
  FunctionalUnits fu(config);
  EXPECT_EQ(fu.units(arch::FP64), 2);
  fu.issue(arch::FP64, 0, 4 * kFixedOne);
  EXPECT_TRUE(fu.can_issue(arch::FP64, 1));
  fu.issue(arch::FP64, 1, 4 * kFixedOne);
  EXPECT_EQ(fu.free_at(arch::FP64, 2), 4u);
}

TEST(CoreFunctionalUnit, FractionalIntervalsKeepTheirAverageRate) {
  SmConfig config;
  FunctionalUnits fu(config);
  const FixedCycles interval = to_fixed(2.5);
  engine::Cycle now = 0;
  for (int i = 0; i < 10; ++i) {
    now = fu.free_at(arch::TENSOR, now);
    fu.issue(arch::TENSOR, now, interval);
  }
  EXPECT_EQ(now, 23u);  // the 10th starts at ceil(9 × 2.5)
  // An idle gap of a whole cycle or more resets the fraction.
  FunctionalUnits idle(config);
  idle.issue(arch::TENSOR, 0, interval);
  idle.issue(arch::TENSOR, 10, interval);
  EXPECT_EQ(idle.free_at(arch::TENSOR, 10), 13u);
}

}  // namespace
}  // namespace warpsim::core
