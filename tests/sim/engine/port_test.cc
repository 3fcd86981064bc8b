#include "sim/engine/port.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
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

// Sixteen senders, each feeding a receiver owned by the other thread of a two-thread engine (ids
// follow names: sender i is component i, its receiver 16 + (i + 1) % 16, of the other parity),
// so that in most instants one thread publishes a port's messages while the other returns its
// credits. Credits, occupancy and every tick must come out as on one thread.
struct CrossedPorts {
  std::vector<std::vector<Cycle>> ticks;
  std::vector<std::size_t> max_occupancy;
  std::vector<std::uint64_t> sent;
  std::vector<std::uint64_t> popped;
  std::uint64_t parallel_instants = 0;
  std::uint64_t parallel_publishes = 0;
};

CrossedPorts run_crossed_ports(unsigned threads) {
  constexpr int kPairs = 16;
  constexpr int kMessages = 200;
  Engine engine({.threads = threads, .parallel_threshold = 2, .serial_fallback = false});
  const ClockDomain& d = engine.add_clock_domain("d", 1'000'000);
  std::vector<Port<int>*> ports(kPairs);
  std::vector<int> sent(kPairs, 0);
  std::vector<std::unique_ptr<LambdaComponent>> components;
  for (int i = 0; i < kPairs; ++i) {
    components.push_back(std::make_unique<LambdaComponent>(
        "a" + std::to_string(100 + i), d, [&, i](LambdaComponent&, Cycle now) -> Cycle {
          Port<int>& p = *ports[static_cast<std::size_t>(i)];
          int& n = sent[static_cast<std::size_t>(i)];
          // Two messages when credits allow: the port fills and the sender stalls.
          for (int k = 0; k < 2 && n < kMessages && p.can_send(); ++k) p.send(n++);
          return n < kMessages ? now + 1 : kSleep;
        }));
  }
  for (int i = 0; i < kPairs; ++i) {
    components.push_back(std::make_unique<LambdaComponent>(
        "b" + std::to_string(100 + i), d, [&, i](LambdaComponent&, Cycle now) -> Cycle {
          // Receiver b_i serves the sender a_(i - 1); it pops one message on even cycles only.
          Port<int>& p = *ports[static_cast<std::size_t>((i + kPairs - 1) % kPairs)];
          if (now % 2 == 0 && p.has_message()) p.pop();
          return p.next_arrival() == kNever ? kSleep : now + 1;
        }));
  }
  for (auto& c : components) engine.add(*c);
  for (int i = 0; i < kPairs; ++i) {
    Component& receiver = *components[static_cast<std::size_t>(kPairs + (i + 1) % kPairs)];
    ports[static_cast<std::size_t>(i)] = &engine.connect<int>(
        *components[static_cast<std::size_t>(i)], receiver,
        {.latency_ps = d.duration(1) + static_cast<Time>(i), .capacity = 3});
  }
  engine.run();
  CrossedPorts out;
  for (auto& c : components) out.ticks.push_back(c->ticked_at);
  for (Port<int>* p : ports) {
    out.max_occupancy.push_back(p->max_occupancy());
    out.sent.push_back(p->sent_count());
    out.popped.push_back(p->popped_count());
  }
  out.parallel_instants = engine.parallel_instants();
  out.parallel_publishes = engine.parallel_publishes();
  return out;
}

TEST(EnginePort, CommitOnTwoThreadsMatchesOneThread) {
  const CrossedPorts serial = run_crossed_ports(1);
  const CrossedPorts parallel = run_crossed_ports(2);
  EXPECT_EQ(serial.parallel_instants, 0u);
  EXPECT_GT(parallel.parallel_instants, 100u);
  EXPECT_GT(parallel.parallel_publishes, 50u);
  EXPECT_EQ(parallel.ticks, serial.ticks);
  EXPECT_EQ(parallel.max_occupancy, serial.max_occupancy);
  EXPECT_EQ(parallel.sent, serial.sent);
  EXPECT_EQ(parallel.popped, serial.popped);
  for (std::size_t i = 0; i < serial.sent.size(); ++i) {
    EXPECT_EQ(serial.sent[i], 200u) << "port " << i;
    EXPECT_EQ(serial.popped[i], 200u) << "port " << i;
    EXPECT_EQ(serial.max_occupancy[i], 3u) << "port " << i;  // the receivers fall behind
  }
}

// A port connected after a run (the components already numbered) wakes its receiver on two
// threads as on one: publishing owes the wake-up to the receiver's id, which the port learns at
// connect time.
std::vector<Cycle> late_port_receiver_ticks(unsigned threads) {
  Engine engine({.threads = threads, .parallel_threshold = 2, .serial_fallback = false});
  const ClockDomain& d = engine.add_clock_domain("d", 1'000'000);
  Port<int>* port = nullptr;
  // Twenty busy senders and their sink: enough port traffic for publishing on the pool.
  std::vector<std::unique_ptr<LambdaComponent>> busy;
  std::vector<Port<int>*> busy_ports(20);
  LambdaComponent sink("sink", d, [&](LambdaComponent&, Cycle) -> Cycle {
    for (Port<int>* p : busy_ports) {
      while (p->has_message()) p->pop();
    }
    return kSleep;
  });
  for (int i = 0; i < 20; ++i) {
    busy.push_back(std::make_unique<LambdaComponent>(
        "busy" + std::to_string(100 + i), d, [&, i](LambdaComponent&, Cycle now) -> Cycle {
          busy_ports[static_cast<std::size_t>(i)]->send(i);
          return now < 40 ? now + 1 : kSleep;
        }));
  }
  LambdaComponent sender("sender", d, [&](LambdaComponent&, Cycle now) -> Cycle {
    if (port == nullptr) return kSleep;
    if (now % 5 == 0) port->send(static_cast<int>(now));
    return now < 30 ? now + 1 : kSleep;
  });
  LambdaComponent receiver("receiver", d, [&](LambdaComponent&, Cycle) -> Cycle {
    while (port != nullptr && port->has_message()) port->pop();
    return kSleep;
  });
  for (auto& c : busy) engine.add(*c);
  engine.add(sink);
  engine.add(sender);
  engine.add(receiver);
  for (int i = 0; i < 20; ++i) {
    busy_ports[static_cast<std::size_t>(i)] =
        &engine.connect<int>(*busy[static_cast<std::size_t>(i)], sink, {.latency_ps = 1});
  }
  engine.run({.until = d.time_of(3)});
  port = &engine.connect<int>(sender, receiver, {.latency_ps = d.duration(2)});
  engine.wake(sender, 5);
  engine.run();
  EXPECT_EQ(port->popped_count(), port->sent_count());
  if (threads > 1) {
    EXPECT_GT(engine.parallel_publishes(), 20u);
  }
  return receiver.ticked_at;
}

TEST(EnginePort, PortConnectedAfterARunWakesItsReceiverOnAnyThreads) {
  const std::vector<Cycle> one = late_port_receiver_ticks(1);
  EXPECT_EQ(one, (std::vector<Cycle>{0, 7, 12, 17, 22, 27, 32}));
  EXPECT_EQ(late_port_receiver_ticks(2), one);
}

}  // namespace
}  // namespace warpsim::engine
