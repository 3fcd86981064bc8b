#include "sim/mem/interconnect.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <vector>

#include "arch/error.h"
#include "sim/engine/engine.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::mem {
namespace {

using engine::Cycle;
using engine::Engine;
using engine::kSleep;
using testing::MockSm;

// A server that records request arrivals; pops from cycle `pop_from` on and may echo a response.
class Sink final : public engine::Component {
 public:
  Sink(std::string name, const engine::ClockDomain& d, bool echo, Cycle pop_from = 0)
      : Component(std::move(name), d), echo_(echo), pop_from_(pop_from) {}
  void set_link(const MemLink& link) { link_ = link; }
  Cycle tick(Cycle now) override {
    if (now < pop_from_) return pop_from_;
    while (link_.request->has_message()) {
      if (echo_ && !link_.response->can_send()) return kSleep;
      const MemRequest r = link_.request->pop();
      arrivals.push_back({now, r});
      bytes_at[now] += request_flits(r) * kSectorBytes;
      if (echo_) link_.response->send(response_to(r));
      note_progress();
    }
    return kSleep;
  }
  std::vector<std::pair<Cycle, MemRequest>> arrivals;
  std::map<Cycle, std::uint64_t> bytes_at;

 private:
  bool echo_;
  Cycle pop_from_;
  MemLink link_{};
};

struct Bench {
  explicit Bench(const InterconnectConfig& config, int sms, int sinks, bool echo = true,
                 Cycle pop_from = 0)
      : domain(engine.add_clock_domain("l2", 1'000'000)),
        xbar("xbar", domain, config, [sinks](std::uint64_t line) {
          return static_cast<std::uint32_t>((line / kLineBytes) % sinks);
        }) {
    engine.add(xbar);
    for (int i = 0; i < sms; ++i) {
      sm.push_back(std::make_unique<MockSm>("sm" + std::to_string(i), domain));
      engine.add(*sm.back());
    }
    for (int i = 0; i < sinks; ++i) {
      sink.push_back(std::make_unique<Sink>("sink" + std::to_string(i), domain, echo, pop_from));
      engine.add(*sink.back());
    }
    for (auto& s : sm) {
      s->set_link(xbar.add_input(engine, *s));
      s->expect_responses = echo;
    }
    for (auto& s : sink) s->set_link(xbar.add_output(engine, *s));
  }
  Engine engine;
  const engine::ClockDomain& domain;
  Interconnect xbar;
  std::vector<std::unique_ptr<MockSm>> sm;
  std::vector<std::unique_ptr<Sink>> sink;
};

TEST(MemInterconnect, FlitCostsCountAHeaderAndTheDataSectors) {
  EXPECT_EQ(request_flits(MemRequest::read(0, 0b1111, 0, 0)), 1u);
  EXPECT_EQ(request_flits(MemRequest::write(0, 0b0101, 64, 0, 0)), 3u);
  EXPECT_EQ(response_flits(response_to(MemRequest::read(0, 0b0111, 0, 0))), 4u);
  EXPECT_EQ(response_flits(response_to(MemRequest::write(0, 0b1111, 128, 0, 0))), 1u);
  MemRequest atom = MemRequest::read(0, 0b0001, 0, 0);
  atom.op = MemOp::kAtomic;
  EXPECT_EQ(request_flits(atom), 2u);
  EXPECT_EQ(response_flits(response_to(atom)), 2u);
  atom.op = MemOp::kReduction;
  EXPECT_EQ(response_flits(response_to(atom)), 1u);
}

TEST(MemInterconnect, UncontendedLatencyIsExactInBothDirections) {
  Bench b({.latency_cycles = 5}, 1, 1);
  b.sm[0]->push(3, MemRequest::read(0, 1, 42, 0));
  b.engine.run();
  ASSERT_EQ(b.sink[0]->arrivals.size(), 1u);
  EXPECT_EQ(b.sink[0]->arrivals[0].first, 3u + 1 + 5);  // one cycle in, five across
  EXPECT_EQ(b.sm[0]->latency(42), 2u * (1 + 5));
  EXPECT_EQ(b.xbar.request_counters().messages, 1u);
  EXPECT_EQ(b.xbar.response_counters().bytes, 64u);
}

TEST(MemInterconnect, SaturatingStreamMovesExactlyThePortWidth) {
  Bench b({.latency_cycles = 2, .port_bytes_per_cycle = 64}, 1, 1, false);
  for (int i = 0; i < 200; ++i) b.sm[0]->push(0, MemRequest::read(0, 0b1111, i, 0));
  b.engine.run();
  const auto& bytes_at = b.sink[0]->bytes_at;
  ASSERT_EQ(b.sink[0]->arrivals.size(), 200u);
  for (const auto& [cycle, bytes] : bytes_at) EXPECT_EQ(bytes, 64u) << "cycle " << cycle;
  EXPECT_EQ(bytes_at.begin()->first, 3u);
  EXPECT_EQ(bytes_at.rbegin()->first, 3u + 99);
}

TEST(MemInterconnect, LargeMessagesBorrowBandwidthButNeverExceedTheWidth) {
  Bench b({.latency_cycles = 1, .port_bytes_per_cycle = 64}, 1, 1, false);
  for (int i = 0; i < 100; ++i) b.sm[0]->push(0, MemRequest::write(0, 0b1111, 128, i, 0));
  b.engine.run();
  const auto& arrivals = b.sink[0]->arrivals;
  ASSERT_EQ(arrivals.size(), 100u);
  const Cycle first = arrivals.front().first;
  const Cycle last = arrivals.back().first;
  // 160 bytes per write at 64 bytes per cycle: 2.5 cycles each.
  EXPECT_EQ(last - first, 247u);  // alternating gaps of 2 and 3 cycles
  std::uint64_t total = 0;
  for (const auto& [cycle, bytes] : b.sink[0]->bytes_at) {
    total += bytes;
    EXPECT_LE(total, 64 * (cycle - first + 1) + 160) << "cycle " << cycle;
  }
}

TEST(MemInterconnect, TotalBandwidthCapsAllOutputsTogether) {
  Bench b({.latency_cycles = 1, .port_bytes_per_cycle = 64, .total_bytes_per_cycle = 96}, 4, 4,
          false);
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < 60; ++i) {
      b.sm[s]->push(
          0, MemRequest::read(static_cast<std::uint64_t>(s) * kLineBytes, 1, s * 1000 + i, s));
    }
  }
  b.engine.run(engine::RunLimits{.until = b.domain.time_of(500)});
  std::map<Cycle, std::uint64_t> per_cycle;
  for (const auto& sink : b.sink) {
    for (const auto& [cycle, bytes] : sink->bytes_at) per_cycle[cycle] += bytes;
  }
  std::uint64_t total = 0;
  for (const auto& [cycle, bytes] : per_cycle) {
    EXPECT_LE(bytes, 96u) << "cycle " << cycle;
    total += bytes;
  }
  EXPECT_EQ(total, 240u * 32);
  // Saturated at the total while two or more inputs have traffic; the last input alone then
  // moves its port width.
  for (Cycle c = 2; c <= 76; ++c) EXPECT_EQ(per_cycle[c], 96u) << "cycle " << c;
  EXPECT_EQ(per_cycle[77], 64u);
}

TEST(MemInterconnect, RoundRobinOverInputsFromAFixedStart) {
  Bench b({.latency_cycles = 1, .port_bytes_per_cycle = 32}, 3, 1, false);
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < 2; ++i) b.sm[s]->push(0, MemRequest::read(0, 1, s * 10 + i, s));
  }
  b.engine.run();
  std::vector<std::uint64_t> order;
  std::vector<Cycle> cycles;
  for (const auto& [cycle, r] : b.sink[0]->arrivals) {
    order.push_back(r.id);
    cycles.push_back(cycle);
  }
  EXPECT_EQ(order, (std::vector<std::uint64_t>{0, 10, 20, 1, 11, 21}));
  EXPECT_EQ(cycles, (std::vector<Cycle>{2, 3, 4, 5, 6, 7}));
}

TEST(MemInterconnect, CreditsBackPressureAFullPort) {
  Bench b({.latency_cycles = 1, .input_queue_entries = 2, .output_queue_entries = 3}, 1, 1, false,
          100);
  for (int i = 0; i < 10; ++i) b.sm[0]->push(0, MemRequest::read(0, 1, i, 0));
  b.engine.run(engine::RunLimits{.until = b.domain.time_of(50)});
  // The output's credits: 3 queued + 2 on the wire (1 cycle × 2 flits per cycle); 2 in the input.
  EXPECT_EQ(b.sm[0]->sent_at.size(), 7u);
  EXPECT_EQ(b.sink[0]->arrivals.size(), 0u);
  EXPECT_GT(b.xbar.request_counters().credit_stalls, 0u);
  b.engine.run();
  EXPECT_EQ(b.sink[0]->arrivals.size(), 10u);
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(b.sink[0]->arrivals[i].second.id, i);
}

TEST(MemInterconnect, ResponsesReturnToTheInputThatAsked) {
  Bench b({.latency_cycles = 3}, 2, 2);
  for (int s = 0; s < 2; ++s) {
    for (int i = 0; i < 8; ++i) {
      b.sm[s]->push(
          static_cast<Cycle>(i),
          MemRequest::read(static_cast<std::uint64_t>(i) * kLineBytes, 1, s * 100 + i, s));
    }
  }
  b.engine.run();
  for (int s = 0; s < 2; ++s) {
    ASSERT_EQ(b.sm[s]->responses.size(), 8u);
    for (const MemResponse& r : b.sm[s]->responses)
      EXPECT_EQ(r.id / 100, static_cast<std::uint64_t>(s));
    EXPECT_EQ(b.sm[s]->duplicates, 0);
  }
}

TEST(MemInterconnect, BadConfigNamesTheField) {
  Engine engine;
  const auto& d = engine.add_clock_domain("l2", 1'000'000);
  const auto route = [](std::uint64_t) { return 0u; };
  try {
    Interconnect x("gpu.noc", d, {.latency_cycles = 0}, route);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "gpu.noc.latency_cycles: expected at least 1 cycle, got 0");
  }
  EXPECT_THROW(Interconnect("x", d, {.input_queue_entries = 0}, route), InputError);
  EXPECT_THROW(Interconnect("x", d, {.output_queue_entries = 0}, route), InputError);
  EXPECT_THROW(Interconnect("x", d, {}, nullptr), InternalError);
}

}  // namespace
}  // namespace warpsim::mem
