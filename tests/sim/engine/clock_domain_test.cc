#include "sim/engine/clock_domain.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "arch/error.h"

namespace warpsim::engine {
namespace {

TEST(EngineClockDomain, IntegerPeriod) {
  const ClockDomain l2("l2", 1'600'000);  // 1600 MHz: 625 ps
  EXPECT_EQ(l2.time_of(0), 0u);
  EXPECT_EQ(l2.time_of(1), 625u);
  EXPECT_EQ(l2.time_of(7), 4375u);
  EXPECT_EQ(l2.cycle_at_or_after(0), 0u);
  EXPECT_EQ(l2.cycle_at_or_after(1), 1u);
  EXPECT_EQ(l2.cycle_at_or_after(625), 1u);
  EXPECT_EQ(l2.cycle_at_or_after(626), 2u);
  EXPECT_EQ(l2.cycle_at(624), 0u);
  EXPECT_EQ(l2.cycle_at(625), 1u);
  EXPECT_EQ(l2.cycle_at(1249), 1u);
}

TEST(EngineClockDomain, NonIntegerPeriodRoundsDown) {
  const ClockDomain sm("sm", 1'980'000);  // 505.0505... ps
  EXPECT_EQ(sm.time_of(1), 505u);
  EXPECT_EQ(sm.time_of(2), 1010u);
  EXPECT_EQ(sm.time_of(99), 50000u);  // exactly 50 ns
  EXPECT_EQ(sm.time_of(100), 50505u);
  EXPECT_EQ(sm.cycle_at_or_after(506), 2u);
  EXPECT_EQ(sm.cycle_at_or_after(50000), 99u);
  EXPECT_EQ(sm.cycle_at_or_after(50001), 100u);
  EXPECT_EQ(sm.cycle_at(50504), 99u);
  EXPECT_EQ(sm.cycle_at(50505), 100u);
  const ClockDomain mem("mem", 3'200'000);  // 312.5 ps
  EXPECT_EQ(mem.time_of(1), 312u);
  EXPECT_EQ(mem.time_of(2), 625u);
  EXPECT_EQ(mem.time_of(15), 4687u);
}

TEST(EngineClockDomain, FromMhz) {
  const ClockDomain d = ClockDomain::from_mhz("sm", 1980.0);
  EXPECT_EQ(d.frequency_khz(), 1'980'000u);
  EXPECT_EQ(d.name(), "sm");
  EXPECT_EQ(ClockDomain::from_mhz("x", 1755.5).frequency_khz(), 1'755'500u);
}

TEST(EngineClockDomain, DriftFreeOverTenToTheTwelveCycles) {
  const ClockDomain sm("sm", 1'980'000);
  const std::uint64_t c = 1'000'000'000'000;  // 10^12 cycles
  // 10^12 * 10^9 / 1.98e6 = 505050505050505.05... ps
  EXPECT_EQ(sm.time_of(c), 505'050'505'050'505u);
  EXPECT_EQ(sm.time_of(99 * c), 50'000'000'000'000'000u);  // exactly 5e16 ps, no accumulated error
  EXPECT_EQ(sm.cycle_at_or_after(505'050'505'050'505u), c);
  EXPECT_EQ(sm.cycle_at_or_after(505'050'505'050'506u), c + 1);
  EXPECT_EQ(sm.cycle_at(505'050'505'050'505u), c);
  const ClockDomain mem("mem", 3'200'000);
  EXPECT_EQ(mem.time_of(c), 312'500'000'000'000u);
  EXPECT_EQ(mem.time_of(c + 1), 312'500'000'000'312u);
  // A run of 1000 cycles 10^12 cycles in lasts 1000 periods of 505.0505.. ps, floor-rounded once.
  EXPECT_EQ(sm.time_of(c + 1000) - sm.time_of(c), 505'050u);
}

TEST(EngineClockDomain, RoundTripsAtRandomCycles) {
  std::mt19937_64 rng(7);
  for (std::uint64_t khz : {1'000u, 1'410'000u, 1'600'000u, 1'980'000u, 3'200'000u, 499'999'999u}) {
    const ClockDomain d("d", khz);
    const Cycle max_cycle = d.cycle_at(kNever - 1);
    for (int i = 0; i < 2000; ++i) {
      const Cycle c = (rng() >> (i % 40)) % max_cycle;
      const Time t = d.time_of(c);
      ASSERT_NE(t, kNever);
      ASSERT_EQ(d.cycle_at_or_after(t), c) << khz << " " << c;
      ASSERT_EQ(d.cycle_at(t), c) << khz << " " << c;
      ASSERT_LT(t, d.time_of(c + 1));
      if (t > 0) {
        ASSERT_EQ(d.cycle_at(t - 1), c - 1);
        ASSERT_EQ(d.cycle_at_or_after(t + 1), c + 1);
      }
    }
  }
}

TEST(EngineClockDomain, HugeValuesSaturate) {
  const ClockDomain sm("sm", 1'980'000);
  EXPECT_EQ(sm.time_of(kSleep), kNever);
  EXPECT_EQ(sm.time_of(UINT64_MAX / 2), kNever);
  // The last cycle before the end of time round-trips through the 128-bit path.
  const Cycle last = sm.cycle_at(kNever - 1);
  EXPECT_LT(sm.time_of(last), kNever);
  EXPECT_EQ(sm.time_of(last + 1), kNever);
  EXPECT_EQ(sm.cycle_at_or_after(sm.time_of(last)), last);
}

TEST(EngineClockDomain, DurationOfCyclesIsExactInSameDomain) {
  const ClockDomain sm("sm", 1'980'000);
  for (Cycle n : {1u, 3u, 28u, 200u}) {
    const Time lat = sm.duration(n);
    for (Cycle c = 0; c < 500; ++c) {
      ASSERT_EQ(sm.cycle_at_or_after(sm.time_of(c) + lat), c + n) << "c=" << c << " n=" << n;
    }
  }
}

TEST(EngineClockDomain, RejectsBadFrequencies) {
  EXPECT_THROW(ClockDomain("z", 0), InputError);
  EXPECT_THROW(ClockDomain("z", kMaxFrequencyKhz + 1), InputError);
  EXPECT_THROW(ClockDomain::from_mhz("z", 0.0), InputError);
  EXPECT_THROW(ClockDomain::from_mhz("z", -5.0), InputError);
  EXPECT_THROW(ClockDomain::from_mhz("z", 1e12), InputError);
  EXPECT_THROW(ClockDomain::from_mhz("z", std::nan("")), InputError);
  try {
    ClockDomain("memory", 0);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("clock domain 'memory'"), std::string::npos);
  }
}

}  // namespace
}  // namespace warpsim::engine
