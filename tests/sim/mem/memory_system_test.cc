#include "sim/mem/memory_system.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "arch/error.h"
#include "sim/engine/engine.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::mem {
namespace {

using engine::Cycle;
using engine::Engine;
using testing::MockSm;

MemorySystemConfig small_system() {
  MemorySystemConfig c;
  c.sms = 4;
  c.l2_slices = 4;
  c.l2_partitions = 2;
  c.l2_address_hash = "modulo";
  c.noc = {.latency_cycles = 10, .port_bytes_per_cycle = 64};
  c.l2.tags = {.size_bytes = 64 * 1024, .ways = 8};
  c.l2.hit_latency_near_cycles = 20;
  c.l2.hit_latency_far_cycles = 30;
  c.l2.fill_latency_cycles = 10;
  c.l2.mshr = {.entries = 32, .targets_per_entry = 4};
  c.dram_geometry = {.channels = 2,
                     .bank_groups = 2,
                     .banks_per_group = 4,
                     .row_bytes = 1024,
                     .interleave_bytes = 256};
  c.dram.timing = {.rcd_cycles = 7,
                   .rp_cycles = 5,
                   .ras_cycles = 20,
                   .cl_cycles = 9,
                   .cwl_cycles = 3,
                   .ccd_s_cycles = 2,
                   .ccd_l_cycles = 3,
                   .rrd_s_cycles = 2,
                   .rrd_l_cycles = 3,
                   .faw_cycles = 12,
                   .wr_cycles = 6,
                   .wtr_cycles = 4,
                   .rtp_cycles = 3,
                   .rtw_cycles = 8};
  return c;
}

struct System {
  explicit System(const MemorySystemConfig& config, std::uint64_t memory_khz = 1'000'000,
                  unsigned threads = 1)
      : engine(engine::EngineOptions{.threads = threads, .parallel_threshold = 2}),
        l2(engine.add_clock_domain("l2", 1'000'000)),
        memory(engine.add_clock_domain("memory", memory_khz)) {
    for (std::uint32_t i = 0; i < config.sms; ++i) {
      sms.push_back(std::make_unique<MockSm>("sm" + std::to_string(i), l2));
      engine.add(*sms.back());
    }
    mem = std::make_unique<MemorySystem>(engine, config, l2, memory);
    for (auto& sm : sms) sm->set_link(mem->attach_sm(*sm));
  }
  Engine engine;
  const engine::ClockDomain& l2;
  const engine::ClockDomain& memory;
  std::vector<std::unique_ptr<MockSm>> sms;
  std::unique_ptr<MemorySystem> mem;
};

TEST(MemMemorySystem, L2HitRoundTripIsExactForNearAndFarSms) {
  const MemorySystemConfig c = small_system();
  System s(c);
  s.mem->warm(0, 4096);
  // Line 0 lives in slice 0 (partition 0): SMs 0, 1 are near, 2, 3 far.
  s.sms[0]->push(0, MemRequest::read(0, 0b0001, 1, 0));
  s.sms[3]->push(0, MemRequest::read(0, 0b0001, 2, 3));
  s.engine.run();
  EXPECT_EQ(MemorySystem::hit_round_trip_cycles(c, true), 41u);
  EXPECT_EQ(s.sms[0]->latency(1), MemorySystem::hit_round_trip_cycles(c, true));
  EXPECT_EQ(s.sms[3]->latency(2), MemorySystem::hit_round_trip_cycles(c, false));
  // Nothing reached the memory, which never woke.
  for (const auto& ch : s.mem->channels()) EXPECT_EQ(ch->tick_count(), 0u);
  EXPECT_EQ(s.mem->slices()[1]->tick_count(), 0u);
  EXPECT_EQ(s.mem->counters().l2.sectors_hit, 2u);
}

TEST(MemMemorySystem, MissGoesToHbmAndComesBack) {
  System s(small_system());
  s.sms[0]->push(0, MemRequest::read(0, 0b0001, 1, 0));
  s.engine.run();
  // Into the crossbar and across it, one cycle to the memory crossbar and two across it,
  // tRCD + CL + burst in the channel, two back, the fill latency, and across the crossbar.
  EXPECT_EQ(s.sms[0]->latency(1), 1u + 10 + (1 + 2) + (7 + 9 + 2) + 2 + 10 + 10);
  const MemorySystemCounters c = s.mem->counters();
  EXPECT_EQ(c.dram.bytes_read, 32u);
  EXPECT_EQ(c.dram.row_misses, 1u);
  EXPECT_EQ(c.l2.sectors_miss, 1u);
}

std::map<std::uint64_t, Cycle> run_mixed(System& s, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  for (std::uint32_t sm = 0; sm < s.sms.size(); ++sm) {
    Cycle at = 0;
    for (int i = 0; i < 400; ++i) {
      const std::uint64_t line = (rng() % 4096) * kLineBytes;
      const auto mask = static_cast<std::uint8_t>(1 + rng() % 15);
      const std::uint64_t id = sm * 100000 + static_cast<std::uint64_t>(i);
      s.sms[sm]->push(at, rng() % 3 == 0
                              ? MemRequest::write(line, mask, 32 * sector_count(mask), id, sm)
                              : MemRequest::read(line, mask, id, sm));
      at += rng() % 4;
    }
  }
  s.engine.run();
  std::map<std::uint64_t, Cycle> all;
  for (const auto& sm : s.sms) {
    EXPECT_EQ(sm->duplicates, 0);
    EXPECT_EQ(sm->received_at.size(), 400u);
    all.insert(sm->received_at.begin(), sm->received_at.end());
  }
  return all;
}

TEST(MemMemorySystem, MixedTrafficIsAnsweredOnceAndIdenticallyOnAnyThreadCount) {
  MemorySystemConfig c = small_system();
  c.l2.tags.size_bytes = 16 * 1024;  // evictions and write-backs happen
  System a(c, 1'600'000);
  System b(c, 1'600'000, 2);  // evaluated on two threads
  const auto ta = run_mixed(a, 3);
  const auto tb = run_mixed(b, 3);
  EXPECT_EQ(ta.size(), 1600u);
  EXPECT_EQ(ta, tb);
  const MemorySystemCounters counters = a.mem->counters();
  EXPECT_GT(counters.l2.writeback_sectors, 0u);
  EXPECT_EQ(counters.dram.bytes_written, counters.l2.writeback_sectors * kSectorBytes);
  EXPECT_EQ(counters.dram.bytes_read, counters.l2.fetched_sectors * kSectorBytes);
  EXPECT_EQ(counters.l2.requests, 1600u);
}

double streaming_fraction(const MemorySystemConfig& c) {
  System s(c);
  constexpr std::uint64_t kLines = 8192;  // 1 MB
  for (std::uint64_t i = 0; i < kLines; ++i) {
    const auto sm = static_cast<std::uint32_t>(i % c.sms);
    s.sms[sm]->push(0, MemRequest::read(i * kLineBytes, kAllSectors, i, sm));
  }
  s.engine.run();
  Cycle end = 0;
  for (const auto& sm : s.sms) {
    EXPECT_EQ(sm->received_at.size(), kLines / c.sms);
    for (const auto& [id, at] : sm->received_at) end = std::max(end, at);
  }
  const MemorySystemCounters counters = s.mem->counters();
  EXPECT_EQ(counters.dram.bytes_read, kLines * kLineBytes);
  const double peak = static_cast<double>(c.dram_geometry.channels) * c.dram.bytes_per_cycle *
                      static_cast<double>(end);
  const double fraction = static_cast<double>(counters.dram.bytes_read) / peak;
  EXPECT_LT(fraction, 1.0);
  return fraction;
}

TEST(MemMemorySystem, StreamingBandwidthDependsOnTheTimingsAndStaysBelowPeak) {
  MemorySystemConfig c = small_system();
  c.dram.read_queue_entries = 16;
  c.dram_geometry.bank_groups = 1;
  c.dram_geometry.banks_per_group = 2;
  c.dram.timing.ccd_l_cycles = 2;
  c.dram.timing.rcd_cycles = 14;
  c.dram.timing.rp_cycles = 14;
  c.dram.timing.ras_cycles = 28;
  const double base = streaming_fraction(c);
  MemorySystemConfig slow = c;
  slow.dram.timing.rcd_cycles = 40;
  slow.dram.timing.rp_cycles = 40;
  const double with_slow_rows = streaming_fraction(slow);
  MemorySystemConfig small_rows = c;
  small_rows.dram_geometry.row_bytes = 256;
  const double with_small_rows = streaming_fraction(small_rows);
  std::printf("streaming fraction of peak: %.4f, slow rows %.4f, 256-byte rows %.4f\n", base,
              with_slow_rows, with_small_rows);
  EXPECT_GT(base, 0.5);
  EXPECT_LT(with_slow_rows, base);
  EXPECT_LT(with_small_rows, base);
}

TEST(MemMemorySystem, WarmStartTurnsMissesIntoHits) {
  System s(small_system());
  s.mem->warm(0, 8 * kLineBytes);
  for (std::uint64_t i = 0; i < 8; ++i)
    s.sms[0]->push(0, MemRequest::read(i * kLineBytes, kAllSectors, i, 0));
  s.sms[0]->push(0, MemRequest::read(8 * kLineBytes, kAllSectors, 8, 0));
  s.engine.run();
  const MemorySystemCounters c = s.mem->counters();
  EXPECT_EQ(c.l2.sectors_hit, 32u);
  EXPECT_EQ(c.l2.sectors_miss, 4u);
  EXPECT_EQ(c.dram.bytes_read, 128u);
}

// A warm start carries the lines still written in part; the entries that complete lines kept
// while the kernel ran (keeps_complete) end with it.
TEST(MemMemorySystem, AWarmStartCarriesOnlyTheLinesStillWrittenInPart) {
  MemorySystemConfig c = small_system();
  c.l2.partial_writes_fetch = false;
  c.l2.partial_lines = {.entries = 8, .ways = 2, .keeps_complete = true};
  System s(c);
  s.sms[0]->push(0, MemRequest::write(0, 0b0001, 16, 0, 0));
  s.sms[0]->push(0, MemRequest::write(0, 0b0001, 16, 1, 0));  // sector 0 now complete
  s.sms[0]->push(0, MemRequest::write(kLineBytes, 0b0001, 4, 2, 0));
  s.engine.run();
  std::uint32_t recorded = 0;
  for (const SliceContents& slice : s.mem->take_cache_state()) recorded += slice.partial.size();
  EXPECT_EQ(recorded, 1u);
}

TEST(MemMemorySystem, TooManySmsOrBadPoliciesAreInputErrors) {
  MemorySystemConfig c = small_system();
  c.sms = 1;
  Engine engine;
  const auto& d = engine.add_clock_domain("l2", 1'000'000);
  MockSm a("a", d);
  MockSm b("b", d);
  engine.add(a);
  engine.add(b);
  MemorySystem mem(engine, c, d, d);
  mem.attach_sm(a);
  EXPECT_THROW(mem.attach_sm(b), InputError);
  c.l2_address_hash = "nope";
  try {
    MemorySystem bad(engine, c, d, d);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("l2_address_hash: unknown address hash 'nope'", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace warpsim::mem
