// The H200 preset's L2 miss path as gpu_config.cc splits it: the line stays in flight at its slice
// for most of the miss, so a read of it from another SM of the partition that arrives hundreds of
// cycles after the first still joins it (validate/reference/h200/lrc_pair.tsv), and the
// unloaded miss keeps the description's load-to-use latency.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "arch/loader.h"
#include "sim/engine/engine.h"
#include "sim/gpu/gpu_config.h"
#include "sim/mem/address_hash.h"
#include "sim/mem/memory_system.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::gpu {
namespace {

using engine::Cycle;
using mem::MemRequest;
using mem::testing::MockSm;

struct H200Memory {
  H200Memory()
      : config(gpu_config_from_spec(arch::load_spec("h200").spec)),
        l2(engine.add_clock_domain("l2", config.l2_mhz * 1000)),
        memory(engine.add_clock_domain("memory", config.memory_mhz * 1000)) {
    for (int i = 0; i < config.sms; ++i) {
      sms.push_back(std::make_unique<MockSm>("sm" + std::to_string(i), l2));
      engine.add(*sms.back());
    }
    mem = std::make_unique<mem::MemorySystem>(engine, config.memory, l2, memory);
    for (auto& sm : sms) sm->set_link(mem->attach_sm(*sm));
  }
  GpuConfig config;
  engine::Engine engine;
  const engine::ClockDomain& l2;
  const engine::ClockDomain& memory;
  std::vector<std::unique_ptr<MockSm>> sms;
  std::unique_ptr<mem::MemorySystem> mem;

  /// The first line from 0x40000 on whose home slice lies in `partition` (by the memory
  /// system's own hash).
  std::uint64_t line_homed_in(std::uint32_t partition) const {
    const mem::AddressHash& hash = mem->address_hash();
    std::uint64_t line = 0x40000;
    while (hash.locate(line).partition != partition) line += 128;
    return line;
  }

  /// SM `first` reads a whole line homed in the first partition (away from kFirst) at cycle 0
  /// (request id 1), SM `second` at `delay` (id 2); runs to the end and returns the counters.
  mem::MemorySystemCounters two_reads(std::uint32_t first, std::uint32_t second, Cycle delay) {
    const std::uint64_t line = line_homed_in(0);
    sms[first]->push(0, MemRequest::read(line, 0b1111, 1, first));
    sms[second]->push(delay, MemRequest::read(line, 0b1111, 2, second));
    engine.run();
    return mem->counters();
  }
};

// Two SMs next to the same partition (the preset's sm_partitions: SMs 2 and 3 both sit by
// partition 1).
constexpr std::uint32_t kFirst = 2, kSecond = 3;
// An SM next to the other partition.
constexpr std::uint32_t kOther = 0;

TEST(GpuMissWindow, AReadArrivingHundredsOfCyclesLaterJoinsTheMissInFlight) {
  H200Memory h;
  ASSERT_EQ(h.config.memory.sm_partitions.at(kFirst),
            h.config.memory.sm_partitions.at(kSecond));
  const mem::MemorySystemCounters c = h.two_reads(kFirst, kSecond, 300);
  // Both are answered with the same fill (the slice sends one response a cycle): the second read
  // joined the first at the coalescer, 300 cycles behind it.
  EXPECT_NEAR(static_cast<double>(h.sms[kFirst]->received_at.at(1)),
              static_cast<double>(h.sms[kSecond]->received_at.at(2)), 2.0);
  EXPECT_EQ(c.l2.coalesced_sectors, 4u);
  EXPECT_EQ(c.l2.sectors_miss, 4u);
  EXPECT_EQ(c.dram.bytes_read, 128u);
}

TEST(GpuMissWindow, AReadFromTheOtherPartitionWaitsForTheSameFill) {
  H200Memory h;
  const mem::MemorySystemCounters c = h.two_reads(kFirst, kOther, 260);
  // The line is still in flight 300 cycles on: the read merges into its MSHR and is answered
  // with the fill, the far - near difference before the first (whose SM sits by the other
  // partition than the line's home), not as a hit 276 cycles after it arrives.
  EXPECT_EQ(c.l2.mshr_merges, 1u);
  const auto& l2 = h.config.memory.l2;
  EXPECT_EQ(h.sms[kOther]->received_at.at(2) + (l2.hit_latency_far_cycles - l2.hit_latency_near_cycles),
            h.sms[kFirst]->received_at.at(1));
  // The unloaded far miss, as before the split: 665 cycles of the L2's clock (1693 MHz), 770 of
  // the SMs' (1960 MHz). The mock SMs tick with the L2, so the 260 cycles above are 301 SM cycles.
  EXPECT_EQ(h.sms[kFirst]->latency(1), 665u);
}

TEST(GpuMissWindow, AReadArrivingAfterTheFillHitsInstead) {
  H200Memory h;
  const mem::MemorySystemCounters c = h.two_reads(kFirst, kSecond, 700);
  // The first read's answer has left: the second is looked up and hits.
  EXPECT_LT(h.sms[kFirst]->received_at.at(1), h.sms[kSecond]->received_at.at(2));
  EXPECT_EQ(c.l2.coalesced_sectors, 0u);
  EXPECT_EQ(c.l2.sectors_hit, 4u);
}

}  // namespace
}  // namespace warpsim::gpu
