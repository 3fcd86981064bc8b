#include "sim/mem/rate_limiter.h"

#include <gtest/gtest.h>

namespace warpsim::mem {
namespace {

// Transfers of `cost` started whenever the budget allows, from cycle `from` up to cycle `to`.
int transfers(RateLimiter& r, std::int64_t cost, engine::Cycle from, engine::Cycle to) {
  int n = 0;
  for (engine::Cycle c = from; c < to; ++c) {
    r.refill(c);
    while (r.available()) {
      r.consume(cost);
      ++n;
    }
  }
  return n;
}

TEST(MemRateLimiter, OneCycleOfBurstLetsOneTransferBorrow) {
  RateLimiter r(10);
  // 40-unit transfers at 10 a cycle: one every 4 cycles from the start.
  EXPECT_EQ(transfers(r, 40, 0, 40), 10);
  r.refill(40);
  EXPECT_EQ(r.next_available(40), 40u);
}

TEST(MemRateLimiter, SavedCyclesAreSpentAtOnceThenTheRateHolds) {
  RateLimiter r(10, 16);
  // Idle for 100 cycles: the budget fills to 16 cycles' worth (160), not 100 cycles' worth.
  r.refill(100);
  // Four 40-unit transfers leave at once (the fifth borrows), then one every 4 cycles.
  int now = 0;
  while (r.available()) {
    r.consume(40);
    ++now;
  }
  EXPECT_EQ(now, 4);
  EXPECT_EQ(r.next_available(100), 101u);
  // Over a long saturating stream the rate is the same as with one cycle of burst.
  EXPECT_EQ(transfers(r, 40, 101, 501), 100);
}

TEST(MemRateLimiter, ZeroRateIsUnlimitedWhateverTheBurst) {
  RateLimiter r(0, 8);
  r.consume(1 << 20);
  EXPECT_TRUE(r.available());
  EXPECT_EQ(r.next_available(5), 5u);
}

}  // namespace
}  // namespace warpsim::mem
