#include "sim/engine/port.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/engine/engine.h"
#include "tests/sim/engine/test_components.h"

namespace warpsim::engine {
namespace {

using testing::LambdaComponent;

// A sender that sends one message per cycle while credits allow, and a receiver that pops one
// message, then waits 10 cycles (arrivals wake it earlier; it goes back to waiting).
TEST(EnginePort, CapacityTwoBlocksSenderUntilACreditReturns) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  Port<int>* port = nullptr;
  constexpr int kTotal = 8;
  int sent = 0;
  std::size_t max_seen = 0;
  std::vector<Cycle> send_cycles;
  LambdaComponent sender("sender", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (sent == kTotal) return kSleep;
    max_seen = std::max(max_seen, port->occupancy());
    if (!port->can_send()) return kSleep;
    port->send(sent++);
    send_cycles.push_back(now);
    return now + 1;
  });
  std::vector<std::pair<Cycle, int>> pops;
  Cycle next_pop = 0;
  LambdaComponent receiver("receiver", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (now < next_pop) return next_pop;
    if (!port->has_message()) return kSleep;
    pops.emplace_back(now, port->pop());
    next_pop = now + 10;
    return next_pop;
  });
  engine.add(sender);
  engine.add(receiver);
  port = &engine.connect<int>(sender, receiver, {.latency_ps = l2.duration(1), .capacity = 2});
  engine.run();
  EXPECT_EQ(send_cycles, (std::vector<Cycle>{0, 1, 2, 12, 22, 32, 42, 52}));
  // The sender stalls the cycle after filling the port and resumes the cycle after each pop.
  EXPECT_EQ(sender.ticked_at,
            (std::vector<Cycle>{0, 1, 2, 3, 12, 13, 22, 23, 32, 33, 42, 43, 52, 53}));
  EXPECT_EQ(pops, (std::vector<std::pair<Cycle, int>>{
                      {1, 0}, {11, 1}, {21, 2}, {31, 3}, {41, 4}, {51, 5}, {61, 6}, {71, 7}}));
  EXPECT_EQ(port->max_occupancy(), 2u);
  EXPECT_LE(max_seen, 2u);
  EXPECT_EQ(port->occupancy(), 0u);
  EXPECT_EQ(port->sent_count(), 8u);
  EXPECT_EQ(port->popped_count(), 8u);
  EXPECT_EQ(port->capacity(), 2u);
}

TEST(EnginePort, CreditIsVisibleFromTheNextInstantOn) {
  Engine engine;
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  Port<int>* port = nullptr;
  std::vector<bool> could_send;
  LambdaComponent sender("sender", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    could_send.push_back(port->can_send());
    if (could_send.back() && now < 3) port->send(static_cast<int>(now));
    return now < 13 ? now + 1 : kSleep;
  });
  LambdaComponent receiver("receiver", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (now < 11) return 11;
    port->pop();
    return kSleep;
  });
  engine.add(sender);
  engine.add(receiver);
  port = &engine.connect<int>(sender, receiver, {.latency_ps = 1, .capacity = 2});
  engine.run();
  // Full from cycle 2 on; the pop at cycle 11 is seen at cycle 12, not in its own instant.
  const std::vector<bool> expected = {true,  true,  false, false, false, false, false,
                                      false, false, false, false, false, true,  true};
  EXPECT_EQ(could_send, expected);
}

TEST(EnginePort, StalledSenderResumesAtItsFirstEdgeAfterTheCreditAcrossDomains) {
  Engine engine;
  const ClockDomain& sm = engine.add_clock_domain("sm", 1'980'000);
  const ClockDomain& l2 = engine.add_clock_domain("l2", 1'600'000);
  Port<int>* port = nullptr;
  int sent = 0;
  std::vector<Cycle> send_cycles;
  LambdaComponent sender("sender", sm, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (sent == 2 || !port->can_send()) return kSleep;
    port->send(sent++);
    send_cycles.push_back(now);
    return now + 1;
  });
  std::vector<Cycle> pop_cycles;
  LambdaComponent receiver("receiver", l2, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (now < 11) return 11;
    while (port->has_message()) {
      port->pop();
      pop_cycles.push_back(now);
    }
    return kSleep;
  });
  engine.add(sender);
  engine.add(receiver);
  port = &engine.connect<int>(sender, receiver, {.latency_ps = 1, .capacity = 1});
  engine.run();
  // Pop at l2 cycle 11 (6875 ps); the credit is visible from 6876 ps: sm cycle 14 (7070 ps).
  EXPECT_EQ(send_cycles, (std::vector<Cycle>{0, 14}));
  EXPECT_EQ(sender.ticked_at, (std::vector<Cycle>{0, 1, 14, 15}));
  // The second message arrives at 7071 ps: l2 cycle 12 (7500 ps).
  EXPECT_EQ(pop_cycles, (std::vector<Cycle>{11, 12}));
  EXPECT_EQ(receiver.ticked_at, (std::vector<Cycle>{0, 1, 11, 12}));
}

}  // namespace
}  // namespace warpsim::engine
