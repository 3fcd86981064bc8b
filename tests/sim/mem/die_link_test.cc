#include "sim/mem/die_link.h"

#include <gtest/gtest.h>

#include <memory>

#include "arch/error.h"
#include "sim/engine/engine.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::mem {
namespace {

using engine::Cycle;
using testing::MockMemory;
using testing::MockSm;

// A requester on end 0 and a memory on end 1, joined by the link through one-cycle ports (as a
// crossbar's ports into and out of the link would be).
struct Bench {
  Bench(const DieLinkConfig& config, Cycle memory_latency)
      : l2(engine.add_clock_domain("l2", 1'000'000)),
        sm("sm", l2),
        memory("memory", l2, memory_latency),
        link("link", l2, config) {
    engine.add(sm);
    engine.add(memory);
    engine.add(link);
    const engine::PortConfig one{.latency_ps = l2.duration(1), .capacity = 64};
    auto& sm_req = engine.connect<MemRequest>(sm, link, one);
    auto& sm_resp = engine.connect<MemResponse>(link, sm, one);
    auto& mem_req = engine.connect<MemRequest>(link, memory, one);
    auto& mem_resp = engine.connect<MemResponse>(memory, link, one);
    sm.set_link({&sm_req, &sm_resp});
    memory.set_link({&mem_req, &mem_resp});
    link.set_server(0, {&sm_req, &sm_resp}, [](const MemResponse& r) { return r.reply_to; });
    link.set_client(1, {&mem_req, &mem_resp});
  }
  engine::Engine engine;
  const engine::ClockDomain& l2;
  MockSm sm;
  MockMemory memory;
  DieLink link;
};

TEST(MemDieLink, CrossesEachWayInExactlyItsLatency) {
  Bench b({.latency_cycles = 30, .bytes_per_cycle = 64}, 5);
  b.sm.push(0, MemRequest::read(0, 0b0001, 7, 0));
  b.engine.run();
  // One cycle into the link, 30 across to the memory, its 5 (response port included), 30 back
  // across, one cycle into the requester.
  ASSERT_EQ(b.memory.requests.size(), 1u);
  EXPECT_EQ(b.memory.requests[0].first, 1u + 30u);
  EXPECT_EQ(b.sm.latency(7), 1u + 30u + 5u + 30u);
  EXPECT_EQ(b.link.counters(0).requests, 1u);
  EXPECT_EQ(b.link.counters(1).responses, 1u);
  EXPECT_EQ(b.link.counters(0).bytes, 32u);       // a read request: one header flit
  EXPECT_EQ(b.link.counters(1).bytes, 32u + 32u);  // a response with one sector
}

TEST(MemDieLink, MovesNoMoreBytesPerCycleThanItsWidth) {
  // Full-line writes cost 5 flits (160 bytes); at 64 bytes per cycle the link carries one every
  // 2.5 cycles however fast they come.
  Bench b({.latency_cycles = 10, .bytes_per_cycle = 64, .queue_entries = 4}, 1);
  b.sm.expect_responses = false;
  constexpr int kWrites = 200;
  for (int i = 0; i < kWrites; ++i) {
    b.sm.push(0, MemRequest::write(std::uint64_t(i) * kLineBytes, 0b1111, 128, i, 0));
  }
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), static_cast<std::size_t>(kWrites));
  const Cycle first = b.memory.requests.front().first;
  for (std::size_t k = 1; k < b.memory.requests.size(); ++k) {
    const Cycle elapsed = b.memory.requests[k].first - first;
    // k messages after the first have crossed: their bytes fit in the cycles since (+ one
    // message of borrowing).
    EXPECT_LE(static_cast<double>(k) * 160.0, 64.0 * static_cast<double>(elapsed) + 160.0) << k;
  }
  const Cycle span = b.memory.requests.back().first - first;
  EXPECT_NEAR(static_cast<double>(span), (kWrites - 1) * 2.5, 2.0);
  EXPECT_GT(b.link.counters(0).width_stalls, 0u);
  EXPECT_EQ(b.link.counters(0).bytes, kWrites * 160u);
}

TEST(MemDieLink, RejectsZeroLatency) {
  engine::Engine engine;
  const auto& l2 = engine.add_clock_domain("l2", 1'000'000);
  EXPECT_THROW(DieLink("link", l2, {.latency_cycles = 0}), InputError);
}

}  // namespace
}  // namespace warpsim::mem
