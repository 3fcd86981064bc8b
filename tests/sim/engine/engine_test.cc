#include "sim/engine/engine.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arch/error.h"
#include "tests/sim/engine/test_components.h"

namespace warpsim::engine {
namespace {

using testing::LambdaComponent;

Cycle sleep_fn(LambdaComponent&, Cycle) { return kSleep; }

TEST(EngineRun, IdleComponentIsTickedOnlyWhenAMessageArrives) {
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  Port<int>* port = nullptr;
  std::vector<int> received;
  LambdaComponent sender("a.sender", sm, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (now == 0) return 9'990;
    port->send(42);
    return kSleep;
  });
  LambdaComponent receiver("b.receiver", sm, [&](LambdaComponent&, Cycle) -> Cycle {
    while (port->has_message()) received.push_back(port->pop());
    return kSleep;
  });
  engine.add(sender);
  engine.add(receiver);
  port = &engine.connect<int>(sender, receiver, {.latency_ps = sm.duration(10)});
  const RunResult result = engine.run();
  EXPECT_EQ(result.reason, StopReason::kIdle);
  EXPECT_EQ(receiver.tick_count(), 2u);
  EXPECT_EQ(receiver.ticked_at, (std::vector<Cycle>{0, 10'000}));
  EXPECT_EQ(sender.ticked_at, (std::vector<Cycle>{0, 9'990}));
  EXPECT_EQ(received, std::vector<int>{42});
  EXPECT_EQ(result.end_time, sm.time_of(10'000));
  EXPECT_EQ(result.end_time, 5'050'505u);
  EXPECT_EQ(engine.total_ticks(), 4u);
  EXPECT_EQ(engine.instants(), 3u);
  EXPECT_EQ(port->sent_count(), 1u);
  EXPECT_EQ(port->popped_count(), 1u);
  EXPECT_EQ(port->occupancy(), 0u);
}

TEST(EngineRun, WakeUpsAreExactAcrossDomains) {
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);    // 505.05 ps
  const ClockDomain& mem = engine.add_clock_domain("mem", 3'200'000);  // 312.5 ps
  Port<int>* request = nullptr;
  Port<int>* reply = nullptr;
  std::vector<Time> sm_seen;
  std::vector<Time> mem_seen;
  LambdaComponent core("core", sm, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (now == 7) request->send(1);
    while (reply->has_message()) sm_seen.push_back(now * 1000 + static_cast<Time>(reply->pop()));
    return now < 7 ? 7 : kSleep;
  });
  LambdaComponent dram("dram", mem, [&](LambdaComponent&, Cycle now) -> Cycle {
    while (request->has_message()) {
      mem_seen.push_back(now * 1000 + static_cast<Time>(request->pop()));
      reply->send(2);
    }
    return kSleep;
  });
  engine.add(core);
  engine.add(dram);
  request = &engine.connect<int>(core, dram, {.latency_ps = 1000});
  reply = &engine.connect<int>(dram, core, {.latency_ps = 1});
  engine.run();
  // Sent at sm cycle 7 = 3535 ps; arrives 4535 ps; first mem edge at or after it: cycle 15 = 4687.
  EXPECT_EQ(dram.ticked_at, (std::vector<Cycle>{0, 15}));
  EXPECT_EQ(mem_seen, std::vector<Time>{15'001});
  // Reply arrives 4688 ps; first sm edge at or after it: cycle 10 = 5050 ps.
  EXPECT_EQ(core.ticked_at, (std::vector<Cycle>{0, 7, 10}));
  EXPECT_EQ(sm_seen, std::vector<Time>{10'002});
  EXPECT_EQ(engine.now(), 5050u);
}

TEST(EngineRun, ArrivalExactlyOnAnEdgeIsSeenAtThatEdge) {
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  const ClockDomain& mem = engine.add_clock_domain("mem", 3'200'000);
  Port<int>* port = nullptr;
  LambdaComponent src("src", mem, [&](LambdaComponent&, Cycle) -> Cycle {
    port->send(5);
    return kSleep;
  });
  bool seen = false;
  LambdaComponent dst("dst", sm, [&](LambdaComponent&, Cycle) -> Cycle {
    if (port->has_message()) seen = port->pop() == 5;
    return kSleep;
  });
  engine.add(src);
  engine.add(dst);
  port = &engine.connect<int>(src, dst, {.latency_ps = 50'000});  // sm cycle 99 starts at 50000
  engine.run();
  EXPECT_EQ(dst.ticked_at, (std::vector<Cycle>{0, 99}));
  EXPECT_TRUE(seen);
}

TEST(EngineRun, ReceiverSeesOnlyArrivedMessages) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  Port<int>* port = nullptr;
  LambdaComponent src("src", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (now == 2) {
      port->send(1);
      return kSleep;
    }
    return now + 1;
  });
  std::vector<Cycle> seen_at;
  LambdaComponent dst("dst", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (port->has_message()) {
      seen_at.push_back(now);
      EXPECT_EQ(port->next_arrival(), l2.time_of(5));
      port->pop();
    }
    return now < 8 ? now + 1 : kSleep;
  });
  engine.add(src);
  engine.add(dst);
  port = &engine.connect<int>(src, dst, {.latency_ps = l2.duration(3)});
  engine.run();
  EXPECT_EQ(seen_at, std::vector<Cycle>{5});
  EXPECT_EQ(port->next_arrival(), kNever);
}

// Regression: an arrival wake-up must survive the receiver ticking earlier and going to sleep.
TEST(EngineRun, ArrivalWakeSurvivesAnEarlierTick) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  Port<int>* port = nullptr;
  LambdaComponent src("src", l2, [&](LambdaComponent&, Cycle) -> Cycle {
    port->send(1);
    return kSleep;
  });
  std::vector<Cycle> seen_at;
  LambdaComponent dst("dst", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (port->has_message()) {
      port->pop();
      seen_at.push_back(now);
    }
    if (now == 0) return 3;
    return kSleep;
  });
  engine.add(src);
  engine.add(dst);
  port = &engine.connect<int>(src, dst, {.latency_ps = l2.duration(5)});
  engine.run();
  EXPECT_EQ(dst.ticked_at, (std::vector<Cycle>{0, 3, 5}));
  EXPECT_EQ(seen_at, std::vector<Cycle>{5});
}

// A tick caused by an arrival replaces the component's earlier request for a later cycle.
TEST(EngineRun, TickReplacesTheSelfRequestedCycle) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  Port<int>* port = nullptr;
  LambdaComponent src("src", l2, [&](LambdaComponent&, Cycle) -> Cycle {
    port->send(1);
    return kSleep;
  });
  LambdaComponent dst("dst", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (now == 0) return 100;
    if (port->has_message()) port->pop();
    return now < 100 ? 200 : kSleep;
  });
  engine.add(src);
  engine.add(dst);
  port = &engine.connect<int>(src, dst, {.latency_ps = l2.duration(5)});
  engine.run();
  EXPECT_EQ(dst.ticked_at, (std::vector<Cycle>{0, 5, 200}));
}

TEST(EngineRun, UnboundedPortKeepsFifoOrderForBursts) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  Port<int>* port = nullptr;
  LambdaComponent src("src", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    for (int i = 0; i < 7; ++i) port->send(static_cast<int>(now) * 100 + i);
    return now < 3 ? now + 1 : kSleep;
  });
  std::vector<int> got;
  LambdaComponent dst("dst", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (port->has_message()) got.push_back(port->pop());
    return port->has_message() ? now + 1 : kSleep;
  });
  engine.add(src);
  engine.add(dst);
  port = &engine.connect<int>(src, dst, {.latency_ps = 1});
  engine.run();
  ASSERT_EQ(got.size(), 28u);
  for (int i = 0; i < 28; ++i) EXPECT_EQ(got[i], (i / 7) * 100 + i % 7);
  EXPECT_EQ(port->max_occupancy(), 25u);  // 7 per cycle in, 1 per cycle out
  EXPECT_EQ(port->name(), "src->dst");
}

TEST(EngineRun, TimeLimitAndResume) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent ticker("ticker", l2,
                         [](LambdaComponent&, Cycle now) { return now < 200 ? now + 1 : kSleep; });
  engine.add(ticker);
  RunResult r = engine.run({.until = l2.time_of(100) + 1});
  EXPECT_EQ(r.reason, StopReason::kTimeLimit);
  EXPECT_EQ(r.end_time, 62'501u);
  EXPECT_EQ(ticker.tick_count(), 101u);
  r = engine.run();
  EXPECT_EQ(r.reason, StopReason::kIdle);
  EXPECT_EQ(ticker.tick_count(), 201u);
  EXPECT_EQ(r.end_time, l2.time_of(200));
}

TEST(EngineRun, StopsOnPredicate) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent ticker("ticker", l2, [](LambdaComponent&, Cycle now) { return now + 3; });
  engine.add(ticker);
  const RunResult r = engine.run({.stop_when = [&] { return ticker.tick_count() == 50; }});
  EXPECT_EQ(r.reason, StopReason::kPredicate);
  EXPECT_EQ(r.end_time, l2.time_of(49 * 3));
  EXPECT_EQ(ticker.next_wake_cycle(), 150u);
}

TEST(EngineRun, AsleepComponentRunsOnlyWhenWoken) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent sleeper("sleeper", l2, sleep_fn);
  engine.add(sleeper, Start::kAsleep);
  engine.run();
  EXPECT_EQ(sleeper.tick_count(), 0u);
  engine.wake(sleeper, 9);
  engine.wake(sleeper, 5);
  engine.wake(sleeper, 5);  // the same cycle twice ticks once
  engine.run();
  EXPECT_EQ(sleeper.ticked_at, (std::vector<Cycle>{5, 9}));
  EXPECT_EQ(engine.now(), 5625u);
}

TEST(EngineRun, ComponentsAddedBetweenRunsKeepPendingWakeUps) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent z("z", l2, [](LambdaComponent&, Cycle now) { return now + 10; });
  engine.add(z);
  engine.run({.until = l2.time_of(15)});
  LambdaComponent a("a", l2,
                    [](LambdaComponent&, Cycle now) { return now < 30 ? now + 7 : kSleep; });
  engine.add(a);
  engine.run({.until = l2.time_of(40)});
  EXPECT_EQ(z.ticked_at, (std::vector<Cycle>{0, 10, 20, 30, 40}));
  EXPECT_EQ(a.ticked_at, (std::vector<Cycle>{15, 22, 29, 36}));
  EXPECT_EQ(engine.components()[0]->name(), "a");
}

class HookComponent : public Component {
 public:
  HookComponent(std::string name, const ClockDomain& d, const LambdaComponent& other)
      : Component(std::move(name), d), other_(other) {
    enable_commit_hook();
  }
  Cycle tick(Cycle now) override { return now < 2 ? now + 1 : kSleep; }
  void commit(Cycle now) override { seen.push_back(now * 100 + other_.ticked_at.size()); }
  std::vector<std::uint64_t> seen;

 private:
  const LambdaComponent& other_;
};

TEST(EngineRun, CommitHookRunsAfterEveryTickOfTheInstant) {
  for (const bool hook_first : {true, false}) {
    Engine engine;
    const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
    LambdaComponent other(hook_first ? "zz" : "aa", l2,
                          [](LambdaComponent&, Cycle now) { return now < 2 ? now + 1 : kSleep; });
    HookComponent hook("hook", l2, other);
    engine.add(hook);
    engine.add(other);
    engine.run();
    EXPECT_EQ(hook.seen, (std::vector<std::uint64_t>{1, 102, 203}));
  }
}

class HookSender : public Component {
 public:
  HookSender(std::string name, const ClockDomain& d) : Component(std::move(name), d) {
    enable_commit_hook();
  }
  Cycle tick(Cycle /*now*/) override { return kSleep; }
  void commit(Cycle now) override { out->send(static_cast<int>(now) + 40); }
  Port<int>* out = nullptr;
};

TEST(EngineRun, CommitHookSendsArePublishedInTheSameInstant) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  HookSender& sender = engine.emplace<HookSender>("sender", l2);
  std::vector<int> got;
  Port<int>* port = nullptr;
  LambdaComponent& receiver =
      engine.emplace<LambdaComponent>("receiver", l2, [&](LambdaComponent&, Cycle) -> Cycle {
        while (port->has_message()) got.push_back(port->pop());
        return kSleep;
      });
  port = &engine.connect<int>(sender, receiver, {.latency_ps = l2.duration(2)});
  sender.out = port;
  engine.run();
  EXPECT_EQ(sender.tick_count(), 1u);
  EXPECT_EQ(receiver.ticked_at, (std::vector<Cycle>{0, 2}));
  EXPECT_EQ(got, std::vector<int>{40});
  EXPECT_EQ(engine.components().size(), 2u);
}

TEST(EngineRunErrors, ExceptionFromAParallelTickReachesTheCaller) {
  Engine engine({.threads = 2, .parallel_threshold = 2});
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  for (int i = 0; i < 8; ++i) {
    engine.emplace<LambdaComponent>("c" + std::to_string(i), l2,
                                    [i](LambdaComponent&, Cycle now) -> Cycle {
                                      if (i == 5 && now == 3) throw InputError("trace line 7: bad");
                                      return now + 1;
                                    });
  }
  EXPECT_THROW(engine.run(), InputError);
  EXPECT_EQ(engine.parallel_instants(), 4u);
  EXPECT_EQ(engine.now(), l2.time_of(3));
}

TEST(EngineRun, ThreadCountOption) {
  EXPECT_EQ(Engine().threads(), 1u);
  EXPECT_EQ(Engine({.threads = 3}).threads(), 3u);
  EXPECT_GE(Engine({.threads = 0}).threads(), 1u);
}

TEST(EngineRunErrors, TickMustReturnAFutureCycle) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent bad("gpu.l2[1]", l2, [](LambdaComponent&, Cycle now) { return now; });
  engine.add(bad);
  try {
    engine.run();
    FAIL();
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("'gpu.l2[1]': tick at cycle 0 returned cycle 0"),
              std::string::npos)
        << e.what();
  }
}

TEST(EngineRunErrors, DuplicateNamesAndRegistrations) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  EXPECT_THROW(engine.add_clock_domain("l2", 1'000), InputError);
  EXPECT_THROW(engine.add_clock_domain(ClockDomain::from_mhz("l2", 1600.0)), InputError);
  EXPECT_THROW(engine.add_clock_domain("zero", 0), InputError);
  EXPECT_EQ(engine.add_clock_domain(ClockDomain::from_mhz("sm", 1980.0)).frequency_khz(),
            1'980'000u);
  EXPECT_EQ(&engine.clock_domain("l2"), &l2);
  LambdaComponent a("same", l2, sleep_fn);
  LambdaComponent b("same", l2, sleep_fn);
  engine.add(a);
  EXPECT_THROW(engine.add(a), InternalError);
  engine.add(b);
  try {
    engine.run();
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("component name 'same' is used twice"), std::string::npos);
  }
}

TEST(EngineRunErrors, PortMisuse) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent a("a", l2, sleep_fn);
  LambdaComponent b("b", l2, sleep_fn);
  LambdaComponent stranger("stranger", l2, sleep_fn);
  engine.add(a);
  engine.add(b);
  EXPECT_THROW(engine.connect<int>(a, b, {.latency_ps = 0}), InputError);
  EXPECT_THROW(engine.connect<int>(a, stranger, {.latency_ps = 1}), InternalError);
  Port<int>& p = engine.connect<int>(a, b, {.latency_ps = 10, .capacity = 1, .name = "a.out"});
  EXPECT_THROW(p.pop(), InternalError);
  EXPECT_THROW(p.front(), InternalError);
  p.send(1);
  try {
    p.send(2);
    FAIL();
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("port 'a.out': send on a full port"), std::string::npos);
  }
  EXPECT_FALSE(p.has_message());  // staged, not yet published
  EXPECT_EQ(p.next_arrival(), kNever);
  engine.run();
  // Published at 0 ps, arrives at 10 ps; b is woken at its cycle 1 (625 ps) and leaves it there.
  EXPECT_EQ(b.ticked_at, (std::vector<Cycle>{0, 1}));
  EXPECT_EQ(engine.now(), 625u);
  EXPECT_EQ(p.occupancy(), 1u);
  EXPECT_EQ(p.next_arrival(), 10u);
  ASSERT_TRUE(p.has_message());
  EXPECT_EQ(p.front(), 1);
  EXPECT_EQ(p.pop(), 1);
  EXPECT_THROW(p.pop(), InternalError);
}

TEST(EngineRunErrors, WakeMisuse) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent a("a", l2,
                    [](LambdaComponent&, Cycle now) { return now < 4 ? now + 1 : kSleep; });
  LambdaComponent stranger("stranger", l2, sleep_fn);
  engine.add(a);
  EXPECT_THROW(engine.wake(stranger, 3), InternalError);
  engine.run();
  EXPECT_THROW(engine.wake(a, 3), InternalError);  // in the past
  Engine* e = &engine;
  LambdaComponent waker("waker", l2, [e, &a](LambdaComponent&, Cycle now) {
    e->wake(a, now + 5);
    return kSleep;
  });
  engine.add(waker);
  EXPECT_THROW(engine.run(), InternalError);  // wake during evaluate
  EXPECT_THROW(engine.clock_domain("nope"), InputError);
  EXPECT_THROW(engine.set_watchdog_cycles(10, "nope"), InputError);
}

TEST(EngineRunErrors, RunIsNotReentrant) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  LambdaComponent a("a", l2, sleep_fn);
  engine.add(a);
  EXPECT_THROW(engine.run({.stop_when = [&] { return engine.run().end_time == 0; }}),
               InternalError);
}

}  // namespace
}  // namespace warpsim::engine
