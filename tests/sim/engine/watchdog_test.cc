#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/engine/engine.h"
#include "tests/sim/engine/test_components.h"

namespace warpsim::engine {
namespace {

using testing::LambdaComponent;

std::string run_expecting_internal_error(Engine& engine) {
  try {
    engine.run();
  } catch (const InternalError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InternalError";
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(EngineWatchdog, FiresOnAComponentThatSpinsWithoutProgress) {
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  engine.set_watchdog_cycles(1000, "sm");
  LambdaComponent worker("gpu.sm[0]", sm, [](LambdaComponent& self, Cycle now) -> Cycle {
    if (now >= 100) return kSleep;
    self.progress();
    return now + 1;
  });
  LambdaComponent spinner("gpu.sm[3]", sm, [](LambdaComponent&, Cycle now) { return now + 1; });
  spinner.busy_flag = true;
  spinner.state_text = "warp 5 waiting on barrier 0";
  engine.add(worker);
  engine.add(spinner);
  const std::string msg = run_expecting_internal_error(engine);
  // Last progress at cycle 99 (50000 ps); the limit is 1000 cycles = 505050 ps; the first instant
  // beyond it is cycle 1100 (555555 ps).
  EXPECT_TRUE(contains(msg, "watchdog: no progress for 505555 ps (limit 505050 ps) since 50000 ps"))
      << msg;
  EXPECT_TRUE(contains(msg, "1 stuck component:")) << msg;
  EXPECT_TRUE(contains(msg, "- gpu.sm[3] [sm] last tick at cycle 1099, next cycle 1100, busy"))
      << msg;
  EXPECT_TRUE(contains(msg, "state: state=warp 5 waiting on barrier 0")) << msg;
  EXPECT_FALSE(contains(msg, "gpu.sm[0]")) << msg;
  EXPECT_EQ(spinner.tick_count(), 1100u);
}

TEST(EngineWatchdog, LimitInPicoseconds) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  engine.set_watchdog(10'000);
  LambdaComponent spinner("l2.slice[0]", l2, [](LambdaComponent&, Cycle now) { return now + 1; });
  engine.add(spinner);
  const std::string msg = run_expecting_internal_error(engine);
  EXPECT_TRUE(contains(msg, "next event at 10625 ps")) << msg;
  EXPECT_TRUE(contains(msg, "- l2.slice[0] [l2] last tick at cycle 16, next cycle 17, idle"))
      << msg;
  EXPECT_EQ(spinner.tick_count(), 17u);
}

TEST(EngineWatchdog, QuietWhileProgressContinues) {
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  engine.set_watchdog_cycles(1000, "sm");
  LambdaComponent worker("worker", sm, [](LambdaComponent& self, Cycle now) -> Cycle {
    if (now % 900 == 0) self.progress();
    return now + 100;
  });
  worker.busy_flag = true;
  engine.add(worker);
  const RunResult r = engine.run({.until = sm.time_of(100'000)});
  EXPECT_EQ(r.reason, StopReason::kTimeLimit);
  EXPECT_EQ(worker.tick_count(), 1001u);
}

TEST(EngineWatchdog, DisabledByDefault) {
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  LambdaComponent spinner("spinner", sm, [](LambdaComponent&, Cycle now) { return now + 1; });
  engine.add(spinner);
  EXPECT_EQ(engine.run({.until = sm.time_of(5000)}).reason, StopReason::kTimeLimit);
  EXPECT_EQ(spinner.tick_count(), 5001u);
}

TEST(EngineWatchdog, FiresOnDeadlock) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent waiting("gpu.l2[2]", l2,
                          [](LambdaComponent&, Cycle now) { return now < 5 ? now + 1 : kSleep; });
  waiting.busy_flag = true;
  waiting.state_text = "MSHR 3 waiting for DRAM reply to 0x1f80";
  LambdaComponent idle("gpu.l2[3]", l2, [](LambdaComponent&, Cycle) { return kSleep; });
  engine.add(waiting);
  engine.add(idle);
  const std::string msg = run_expecting_internal_error(engine);
  EXPECT_TRUE(contains(msg, "deadlock at 3125 ps")) << msg;
  EXPECT_TRUE(contains(msg, "- gpu.l2[2] [l2] last tick at cycle 5, asleep, busy")) << msg;
  EXPECT_TRUE(contains(msg, "MSHR 3 waiting for DRAM reply to 0x1f80")) << msg;
  EXPECT_FALSE(contains(msg, "gpu.l2[3]")) << msg;
}

TEST(EngineWatchdog, ReportListsAtMostSixteenComponents) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  engine.set_watchdog(1'000);
  std::vector<std::unique_ptr<LambdaComponent>> spinners;
  for (int i = 0; i < 20; ++i) {
    spinners.push_back(std::make_unique<LambdaComponent>(
        "s" + std::to_string(100 + i), l2, [](LambdaComponent&, Cycle now) { return now + 1; }));
    engine.add(*spinners.back());
  }
  const std::string msg = run_expecting_internal_error(engine);
  EXPECT_TRUE(contains(msg, "20 stuck components:")) << msg;
  EXPECT_TRUE(contains(msg, "- s115 ")) << msg;
  EXPECT_FALSE(contains(msg, "- s116 ")) << msg;
  EXPECT_TRUE(contains(msg, "... and 4 more")) << msg;
}

}  // namespace
}  // namespace warpsim::engine
