#include "sim/mem/l2_slice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "arch/error.h"
#include "sim/engine/engine.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::mem {
namespace {

using engine::Cycle;
using engine::Engine;
using testing::MockMemory;
using testing::MockSm;

// 4 KB, 4 ways: 8 sets. SM 0 is near partition 0, SM 1 far.
L2SliceConfig small_config() {
  L2SliceConfig c;
  c.tags = {.size_bytes = 4096, .ways = 4};
  c.hit_latency_near_cycles = 20;
  c.hit_latency_far_cycles = 30;
  c.fill_latency_cycles = 10;
  c.sectors_per_cycle = 4;
  c.mshr = {.entries = 8, .targets_per_entry = 4};
  c.partition = 0;
  c.partitions = 2;
  c.sms = 2;
  return c;
}

struct Bench {
  explicit Bench(const L2SliceConfig& config, Cycle memory_latency = 50)
      : domain(engine.add_clock_domain("l2", 1'000'000)),
        sm("sm", domain),
        slice("l2", domain, config),
        memory("hbm", domain, memory_latency) {
    engine.add(sm);
    engine.add(slice);
    engine.add(memory);
    const engine::PortConfig one{.latency_ps = domain.duration(1), .capacity = 16};
    MemLink up{&engine.connect<MemRequest>(sm, slice, one),
               &engine.connect<MemResponse>(slice, sm, one)};
    MemLink down{&engine.connect<MemRequest>(slice, memory, one),
                 &engine.connect<MemResponse>(memory, slice, one)};
    sm.set_link(up);
    slice.set_upstream(up);
    slice.set_downstream(down);
    memory.set_link(down);
  }
  Engine engine;
  const engine::ClockDomain& domain;
  MockSm sm;
  L2Slice slice;
  MockMemory memory;
};

MemRequest read(std::uint64_t line, std::uint8_t mask, std::uint64_t id, std::uint32_t sm = 0) {
  return MemRequest::read(line, mask, id, sm);
}

// small_config() with partial writes left unfetched and a partial-line record of `entries` lines,
// `ways` to a set.
L2SliceConfig partial_record_config(std::uint32_t entries, std::uint32_t ways) {
  L2SliceConfig c = small_config();
  c.partial_writes_fetch = false;
  c.partial_lines = {.entries = entries, .ways = ways};
  return c;
}

// Reads lines 1024 .. 4096, which share set 0 with line 0 and evict it, at cycles start ..
// start + 3 (their ids the same).
void evict_line_zero(Bench& b, Cycle start) {
  for (std::uint64_t i = 0; i < 4; ++i) b.sm.push(start + i, read((i + 1) * 1024, 1, start + i));
}

TEST(MemL2Slice, HitTakesExactlyTheNearOrFarLatency) {
  Bench b(small_config());
  b.slice.warm(0, kAllSectors);
  b.sm.push(0, read(0, 0b0001, 1, 0));
  b.sm.push(5, read(0, 0b0011, 2, 1));
  b.engine.run();
  // One cycle into the slice, then the hit latency (which includes the way back).
  EXPECT_EQ(b.sm.latency(1), 1u + 20);
  EXPECT_EQ(b.sm.latency(2), 1u + 30);
  EXPECT_EQ(b.slice.counters().sectors_hit, 3u);
  EXPECT_EQ(b.slice.counters().sectors_miss, 0u);
  EXPECT_EQ(b.slice.counters().far_requests, 1u);
  EXPECT_EQ(b.memory.requests.size(), 0u);
  EXPECT_DOUBLE_EQ(b.slice.counters().hit_rate_pct(), 100.0);
}

TEST(MemL2Slice, AnSmPartitionTableDecidesWhichSmsAreNear) {
  L2SliceConfig c = small_config();
  c.sms = 4;
  c.sm_partitions = {1, 0, 1, 0};  // SMs 1 and 3 next to this slice's partition 0
  Bench b(c);
  b.slice.warm(0, kAllSectors);
  for (std::uint32_t sm = 0; sm < 4; ++sm) b.sm.push(10 * sm, read(0, 0b0001, sm + 1, sm));
  b.engine.run();
  EXPECT_EQ(b.sm.latency(1), 1u + 30);
  EXPECT_EQ(b.sm.latency(2), 1u + 20);
  EXPECT_EQ(b.sm.latency(3), 1u + 30);
  EXPECT_EQ(b.sm.latency(4), 1u + 20);
  EXPECT_EQ(b.slice.counters().far_requests, 2u);
}

TEST(MemL2Slice, AnSmPartitionTableOfTheWrongSizeOrPartitionIsAnInputError) {
  Engine engine;
  const auto& domain = engine.add_clock_domain("l2", 1'000'000);
  L2SliceConfig c = small_config();
  c.sm_partitions = {0};  // two SMs
  EXPECT_THROW(L2Slice("l2", domain, c), InputError);
  c.sm_partitions = {0, 2};  // two partitions
  EXPECT_THROW(L2Slice("l2", domain, c), InputError);
}

TEST(MemL2Slice, IdleSliceSleeps) {
  Bench b(small_config());
  b.slice.warm(0, kAllSectors);
  b.sm.push(1000, read(0, 1, 1));
  b.engine.run();
  // Registration tick, the arrival, and the cycle the response leaves.
  EXPECT_EQ(b.slice.tick_count(), 3u);
}

TEST(MemL2Slice, MissAnswersFillLatencyAfterTheData) {
  Bench b(small_config());
  b.sm.push(0, read(0, 0b0110, 1, 0));
  b.sm.push(200, read(128, 0b0001, 2, 1));
  b.engine.run();
  // in 1, to memory 1, memory 50, fill latency 10.
  EXPECT_EQ(b.sm.latency(1), 1u + 1 + 50 + 10);
  EXPECT_EQ(b.sm.latency(2), 1u + 1 + 50 + 10 + 10);  // far adds far - near
  ASSERT_EQ(b.memory.requests.size(), 2u);
  EXPECT_EQ(b.memory.requests[0].second.sector_mask, 0b0110);
  EXPECT_EQ(b.memory.requests[0].second.op, MemOp::kRead);
  EXPECT_EQ(b.slice.counters().sectors_miss, 3u);
  EXPECT_EQ(b.slice.counters().fetched_sectors, 3u);
  EXPECT_DOUBLE_EQ(b.slice.counters().hit_rate_pct(), 0.0);
}

TEST(MemL2Slice, FullSectorWritesAllocateWithoutFetchingPartialOnesFetch) {
  Bench b(small_config());
  b.sm.push(0, MemRequest::write(0, 0b0011, 64, 1, 0));   // two whole sectors
  b.sm.push(1, MemRequest::write(128, 0b0001, 4, 2, 0));  // 4 bytes of one sector
  b.engine.run();
  EXPECT_EQ(b.sm.latency(1), 1u + 20);
  EXPECT_EQ(b.sm.latency(2), 1u + 1 + 50 + 10);
  ASSERT_EQ(b.memory.requests.size(), 1u);
  EXPECT_EQ(b.memory.requests[0].second.line_address, 128u);
  EXPECT_EQ(b.slice.tags().probe(0), (LineState{0, 0b0011, 0b0011}));
  EXPECT_EQ(b.slice.tags().probe(128), (LineState{128, 0b0001, 0b0001}));
  EXPECT_EQ(b.slice.counters().sectors_write, 3u);
}

TEST(MemL2Slice, AtomicsAndReductionsReadModifyWrite) {
  Bench b(small_config());
  MemRequest atom = read(0, 0b0001, 1);
  atom.op = MemOp::kAtomic;
  MemRequest red = read(0, 0b0001, 2);
  red.op = MemOp::kReduction;
  b.sm.push(0, atom);
  b.sm.push(100, red);
  b.engine.run();
  EXPECT_EQ(b.sm.latency(1), 1u + 1 + 50 + 10);
  EXPECT_EQ(b.sm.latency(2), 1u + 20);
  EXPECT_EQ(b.slice.counters().sectors_atom, 1u);
  EXPECT_EQ(b.slice.counters().sectors_red, 1u);
  EXPECT_EQ(b.slice.tags().probe(0).dirty_mask, 0b0001);
}

TEST(MemL2Slice, MissesToOneLineMergeIntoOneFetch) {
  Bench b(small_config());
  b.sm.push(0, read(0, 0b0001, 1));
  b.sm.push(5, read(0, 0b0001, 2));
  b.sm.push(6, read(0, 0b0011, 3));  // needs sector 1 too: fetches it alone
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 2u);
  EXPECT_EQ(b.memory.requests[0].second.sector_mask, 0b0001);
  EXPECT_EQ(b.memory.requests[1].second.sector_mask, 0b0010);
  EXPECT_EQ(b.sm.received_at.at(1), b.sm.received_at.at(2));
  EXPECT_EQ(b.sm.latency(3), 1u + 1 + 50 + 10);
  EXPECT_EQ(b.slice.counters().mshr_merges, 2u);
  // Sector 0 misses once, then its tag is found in flight twice (hits); sector 1 misses.
  EXPECT_EQ(b.slice.counters().sectors_miss, 2u);
  EXPECT_EQ(b.slice.counters().sectors_hit, 2u);
}

TEST(MemL2Slice, ReadsOfALineInFlightJoinItInTheCoalescer) {
  L2SliceConfig c = small_config();
  c.coalescer = {.entries = 16, .followers = 2};
  Bench b(c);
  b.sm.push(0, read(0, 0b0001, 1, 0));
  b.sm.push(5, read(0, 0b0001, 2, 0));  // same partition, sectors in flight: joins read 1
  b.sm.push(6, read(0, 0b0001, 3, 1));  // the other partition: looked up, merges into the MSHR
  b.sm.push(7, read(0, 0b0011, 4, 0));  // needs sector 1 too: looked up
  b.sm.push(8, read(0, 0b0001, 5, 0));  // joins read 1 (its second and last follower)
  b.sm.push(9, read(0, 0b0001, 6, 0));  // no follower slot left: looked up
  b.engine.run();
  EXPECT_EQ(b.sm.latency(1), 1u + 1 + 50 + 10);
  EXPECT_EQ(b.sm.received_at.at(2), b.sm.received_at.at(1));
  EXPECT_EQ(b.sm.received_at.at(5), b.sm.received_at.at(1));
  EXPECT_EQ(b.slice.counters().coalesced_sectors, 2u);
  EXPECT_EQ(b.slice.counters().coalescable_sectors, 7u);
  EXPECT_EQ(b.slice.counters().requests, 4u);  // 1, 3, 4 and 6 were looked up
  EXPECT_EQ(b.slice.counters().sectors, 5u);
  EXPECT_EQ(b.memory.requests.size(), 2u);
}

TEST(MemL2Slice, AReadThatFindsItsSlotFullLeadsTheNextGroup) {
  // validate/reference/h200/lrc_crowd.tsv: K readers of a line in flight coalesce in groups of 4.
  L2SliceConfig c = small_config();
  c.coalescer = {.entries = 16, .followers = 3, .joins_hits = false};
  Bench b(c);
  for (std::uint64_t i = 1; i <= 8; ++i) b.sm.push(i - 1, read(0, 0b0001, i, 0));
  b.engine.run();
  // Reads 2-4 join read 1; read 5 is looked up (merging into the MSHR) and reads 6-8 join it.
  for (std::uint64_t i = 2; i <= 4; ++i) EXPECT_EQ(b.sm.received_at.at(i), b.sm.received_at.at(1));
  for (std::uint64_t i = 6; i <= 8; ++i) EXPECT_EQ(b.sm.received_at.at(i), b.sm.received_at.at(5));
  EXPECT_EQ(b.sm.latency(1), 1u + 1 + 50 + 10);
  EXPECT_EQ(b.slice.counters().coalesced_sectors, 6u);
  EXPECT_EQ(b.slice.counters().requests, 2u);
  EXPECT_EQ(b.slice.counters().mshr_merges, 1u);
  EXPECT_EQ(b.memory.requests.size(), 1u);
}

TEST(MemL2Slice, OnlyReadsOfOneCoalescerSourceJoin) {
  // validate/reference/h200/lrc_gpc.tsv: two SMs next to one partition join each other's reads
  // when they share a GPC, and not otherwise.
  L2SliceConfig c = small_config();
  c.sms = 4;
  c.sm_partitions = {0, 0, 0, 1};
  c.sm_coalescer_sources = {0, 0, 1, 2};  // SMs 0 and 1 share a source, SM 2 has its own
  c.coalescer = {.entries = 16, .followers = 3, .joins_hits = false};
  Bench b(c);
  b.sm.push(0, read(0, 0b0001, 1, 0));
  b.sm.push(1, read(0, 0b0001, 2, 1));  // SM 0's source: joins read 1
  b.sm.push(2, read(0, 0b0001, 3, 2));  // the same partition, another source: looked up
  b.sm.push(3, read(0, 0b0001, 4, 2));  // joins read 3
  b.engine.run();
  EXPECT_EQ(b.sm.received_at.at(2), b.sm.received_at.at(1));
  EXPECT_EQ(b.sm.received_at.at(4), b.sm.received_at.at(3));
  EXPECT_EQ(b.slice.counters().coalesced_sectors, 2u);
  EXPECT_EQ(b.slice.counters().requests, 2u);
  EXPECT_EQ(b.slice.counters().mshr_merges, 1u);
  EXPECT_EQ(b.memory.requests.size(), 1u);
}

TEST(MemL2Slice, CoalescerSourcesOfTheWrongSizeOrAcrossPartitionsAreAnInputError) {
  Engine engine;
  const auto& domain = engine.add_clock_domain("l2", 1'000'000);
  L2SliceConfig c = small_config();
  c.coalescer = {.entries = 16};
  c.sm_coalescer_sources = {0};  // two SMs
  EXPECT_THROW(L2Slice("l2", domain, c), InputError);
  c.sm_coalescer_sources = {0, 0};  // SM 0 is next to partition 0, SM 1 to partition 1
  try {
    L2Slice("l2", domain, c);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("l2.sm_coalescer_sources: source 0 has SMs next to "
                                         "partitions 0 and 1 (SM 1)"),
              std::string::npos)
        << e.what();
  }
  c.sm_coalescer_sources = {0, 1};
  EXPECT_NO_THROW(L2Slice("l2", domain, c));
}

TEST(MemL2Slice, JoinedHitIsAnsweredWithItsLeaderAndWritesCloseTheSlot) {
  L2SliceConfig c = small_config();
  c.coalescer = {.entries = 16, .followers = 4};
  Bench b(c);
  b.slice.warm(0, kAllSectors);
  b.sm.push(0, read(0, 0b0011, 1, 0));
  b.sm.push(4, read(0, 0b0010, 2, 0));   // joins: answered in read 1's cycle
  b.sm.push(30, read(0, 0b0001, 3, 0));  // read 1 has been answered: the slot is free
  b.sm.push(31, MemRequest::write(0, 0b0001, 32, 4, 0));
  b.sm.push(32, read(0, 0b0001, 5, 0));  // read 3's slot is closed by the write
  b.engine.run();
  EXPECT_EQ(b.sm.latency(1), 1u + 20);
  EXPECT_EQ(b.sm.received_at.at(2), b.sm.received_at.at(1));
  EXPECT_EQ(b.sm.latency(3), 1u + 20);
  EXPECT_EQ(b.sm.latency(5), 1u + 20);
  EXPECT_EQ(b.slice.counters().coalesced_sectors, 1u);
  EXPECT_EQ(b.slice.counters().requests, 4u);
}

TEST(MemL2Slice, WithoutJoinsHitsOnlyReadsWaitingOnAFetchTakeJoins) {
  // validate/reference/h200/lrc_pair.tsv: two SMs' reads of lines in flight from DRAM join, of
  // lines that hit almost never.
  L2SliceConfig c = small_config();
  c.coalescer = {.entries = 16, .followers = 4, .joins_hits = false};
  Bench b(c);
  b.slice.warm(0, kAllSectors);
  b.sm.push(0, read(0, 0b0011, 1, 0));           // hit: answered at once, leads nothing
  b.sm.push(4, read(0, 0b0010, 2, 0));           // looked up: a hit of its own
  b.sm.push(0, read(kLineBytes, 0b0001, 3, 0));  // miss
  b.sm.push(5, read(kLineBytes, 0b0001, 4, 0));  // joins the miss
  b.engine.run();
  EXPECT_EQ(b.sm.latency(1), 1u + 20);
  EXPECT_EQ(b.sm.latency(2), 1u + 20);
  EXPECT_EQ(b.sm.received_at.at(4), b.sm.received_at.at(3));
  EXPECT_EQ(b.slice.counters().coalesced_sectors, 1u);
  EXPECT_EQ(b.slice.counters().requests, 3u);  // 1, 2 and 3 were looked up
}

TEST(MemL2Slice, FullMshrTableBackPressures) {
  L2SliceConfig c = small_config();
  c.mshr = {.entries = 2, .targets_per_entry = 1};
  Bench b(c);
  for (int i = 0; i < 4; ++i) b.sm.push(0, read(static_cast<std::uint64_t>(i) * kLineBytes, 1, i));
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 4u);
  EXPECT_EQ(b.memory.requests[1].first, 2u);
  EXPECT_EQ(b.memory.requests[2].first, 2u + 50 + 1);  // after the first fills freed entries
  EXPECT_GT(b.slice.counters().stall_cycles, 0u);
  EXPECT_EQ(b.sm.received_at.size(), 4u);
}

TEST(MemL2Slice, LookupBandwidthSpacesRequests) {
  L2SliceConfig c = small_config();
  c.sectors_per_cycle = 2;
  Bench b(c);
  b.slice.warm(0, kAllSectors);
  for (int i = 0; i < 4; ++i) b.sm.push(0, read(0, kAllSectors, i));
  b.engine.run();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.sm.received_at.at(i), 1u + 20 + 2 * i) << i;
}

// Request i (ids 0, 1, ...) answered as a hit `after[i]` cycles after the first one started
// (pushed at 0, at the slice from cycle 1, hit latency 20).
void expect_hits_after(const Bench& b, std::initializer_list<Cycle> after) {
  std::uint64_t id = 0;
  for (const Cycle a : after) {
    EXPECT_EQ(b.sm.received_at.at(id), 1u + a + 20) << "request " << id;
    ++id;
  }
}

TEST(MemL2Slice, APartialWriteHoldsTheLookupForItsSetupAndEachPartialSector) {
  L2SliceConfig c = small_config();
  c.sectors_per_cycle = 2;
  c.partial_writes_fetch = false;
  c.partial_write_cycles = 1;
  c.partial_write_request_cycles = 3;
  Bench b(c);
  b.slice.warm(512, kAllSectors);
  b.sm.push(0, MemRequest::write(0, 0b0001, 4, 0, 0));     // 3 + 1 cycles
  b.sm.push(0, MemRequest::write(128, 0b0011, 8, 1, 0));   // 3 + 2 cycles
  b.sm.push(0, MemRequest::write(256, 0b0001, 32, 2, 0));  // a whole sector: half a cycle
  b.sm.push(0, read(512, kAllSectors, 3));
  b.engine.run();
  expect_hits_after(b, {0, 4, 4 + 5, 4 + 5});  // the last two together: a sector is half a cycle
}

TEST(MemL2Slice, WriteCostsTakeHalfCyclesAndWholeSectorsTheirOwnRate) {
  L2SliceConfig c = small_config();
  c.sectors_per_cycle = 2;  // a token is half a cycle
  c.partial_writes_fetch = false;
  c.partial_write_cycles = 1;
  c.partial_write_request_cycles = 1.5;
  c.write_sector_cycles = 1;
  Bench b(c);
  b.slice.warm(512, kAllSectors);
  b.sm.push(0, MemRequest::write(0, 0b0001, 4, 0, 0));     // 1.5 + 1 cycles: 5 tokens
  b.sm.push(0, MemRequest::write(256, 0b0011, 64, 1, 0));  // two whole sectors, 1 cycle each
  b.sm.push(0, read(512, kAllSectors, 2));                 // four read sectors: 2 cycles
  b.sm.push(0, read(512, 0b0001, 3));
  b.engine.run();
  // Each request starts once the budget (2 tokens a cycle) is positive again: 2 - 5 = -3 takes
  // two cycles (1), 1 - 4 = -3 two more (1), 1 - 4 two more.
  expect_hits_after(b, {0, 2, 4, 6});
}

TEST(MemL2Slice, WriteCostsOutsideTheirRangeAreRejected) {
  L2SliceConfig c = small_config();
  c.partial_write_request_cycles = -1;
  EXPECT_THROW(Bench{c}, InputError);
  c.partial_write_request_cycles = 0;
  c.write_sector_cycles = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(Bench{c}, InputError);
}

TEST(MemL2Slice, AtomicSectorsHoldTheLookupForTheAtomicUnitsCycles) {
  L2SliceConfig c = small_config();
  c.sectors_per_cycle = 2;
  c.atomic_sector_cycles = 1;
  Bench b(c);
  b.slice.warm(0, kAllSectors);
  b.slice.warm(128, kAllSectors);
  MemRequest red = read(0, 0b0011, 0);  // two sectors: two cycles
  red.op = MemOp::kReduction;
  MemRequest atom = read(128, 0b0001, 1);  // one sector: one cycle
  atom.op = MemOp::kAtomic;
  b.sm.push(0, red);
  b.sm.push(0, atom);
  b.sm.push(0, read(0, kAllSectors, 2));  // four read sectors: two cycles
  b.sm.push(0, read(0, 0b0001, 3));
  b.engine.run();
  expect_hits_after(b, {0, 2, 3, 5});
}

TEST(MemL2Slice, FarTrafficWaitsForItsShareOfThePartitionLink) {
  L2SliceConfig c = small_config();
  c.partition_link_bytes_per_cycle = 64;
  c.slices = 2;  // this slice's share: 32 bytes per cycle
  Bench b(c);
  b.slice.warm(0, kAllSectors);
  b.slice.warm(128, kAllSectors);
  for (int i = 0; i < 3; ++i) b.sm.push(0, read(0, kAllSectors, i, 1));  // 128 bytes across
  b.sm.push(0, read(128, kAllSectors, 3, 0));              // near: the link does not hold it
  b.sm.push(0, MemRequest::write(128, 0b0001, 16, 4, 1));  // far: 16 bytes across
  b.sm.push(0, read(0, 0b0001, 5, 1));
  b.engine.run();
  EXPECT_EQ(b.sm.received_at.at(0), 1u + 30);
  EXPECT_EQ(b.sm.received_at.at(1), 5u + 30);
  EXPECT_EQ(b.sm.received_at.at(2), 9u + 30);
  EXPECT_EQ(b.sm.received_at.at(3), 10u + 20);
  EXPECT_EQ(b.sm.received_at.at(4), 13u + 30);
  EXPECT_EQ(b.sm.received_at.at(5), 13u + 30);  // 16 + 2 bytes leave the share positive
}

TEST(MemL2Slice, DirtyEvictionsAreWrittenBack) {
  Bench b(small_config());
  // Lines 0, 1024, 2048, ... share set 0 (8 sets of 128 bytes).
  b.sm.push(0, MemRequest::write(0, 0b1010, 64, 0, 0));
  for (int i = 1; i <= 4; ++i)
    b.sm.push(static_cast<Cycle>(i), read(static_cast<std::uint64_t>(i) * 1024, 1, i));
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 5u);
  const MemRequest& wb = b.memory.requests[4].second;
  EXPECT_EQ(wb.op, MemOp::kWrite);
  EXPECT_EQ(wb.line_address, 0u);
  EXPECT_EQ(wb.sector_mask, 0b1010);
  EXPECT_EQ(wb.full_write_mask, 0b1010);
  EXPECT_EQ(b.slice.counters().evictions, 1u);
  EXPECT_EQ(b.slice.counters().dirty_evictions, 1u);
  EXPECT_EQ(b.slice.counters().writeback_sectors, 2u);
}

TEST(MemL2Slice, TheDirtyLimitWritesBackWithoutEvicting) {
  L2SliceConfig c = small_config();
  c.tags.max_dirty_ways = 1;
  Bench b(c);
  // Lines 0 and 1024 share set 0; the second full-line write cleans the first.
  b.sm.push(0, MemRequest::write(0, 0b1111, 128, 0, 0));
  b.sm.push(1, MemRequest::write(1024, 0b1111, 128, 1, 0));
  b.sm.push(2, read(0, 0b1111, 2));
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 1u);  // the write-back; the read hits the kept line
  const MemRequest& wb = b.memory.requests[0].second;
  EXPECT_EQ(wb.op, MemOp::kWrite);
  EXPECT_EQ(wb.line_address, 0u);
  EXPECT_EQ(wb.sector_mask, 0b1111);
  EXPECT_EQ(b.slice.counters().dirty_cleanings, 1u);
  EXPECT_EQ(b.slice.counters().evictions, 0u);
  EXPECT_EQ(b.slice.counters().writeback_sectors, 4u);
  EXPECT_EQ(b.slice.counters().sectors_hit, 4u + 4u + 4u);  // full writes count as hits
}

// Lines written in part (4 bytes into a sector never fetched) stay in the L2 only while the
// partial-line record holds them; a displaced one is read, then written back, and kept clean.
TEST(MemL2Slice, PartialLinesAreReadBeforeTheirWriteBack) {
  Bench b(partial_record_config(1, 1));
  b.sm.push(0, MemRequest::write(0, 0b0001, 4, 0, 0));
  b.sm.push(1, MemRequest::write(128, 0b0001, 4, 1, 0));  // displaces line 0
  b.sm.push(2, read(0, 0b0001, 2));                       // hits the kept line
  for (int i = 0; i < 7; ++i) {                           // completes line 128's sector
    b.sm.push(static_cast<Cycle>(3 + i), MemRequest::write(128, 0b0001, 4, 3 + i, 0));
  }
  b.sm.push(10, MemRequest::write(256, 0b0001, 4, 10, 0));  // finds room: no write-back
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 2u);
  const MemRequest& fetch = b.memory.requests[0].second;
  EXPECT_EQ(fetch.op, MemOp::kRead);
  EXPECT_EQ(fetch.line_address, 0u);
  EXPECT_EQ(fetch.sector_mask, 0b0001);
  const MemRequest& wb = b.memory.requests[1].second;
  EXPECT_EQ(wb.op, MemOp::kWrite);
  EXPECT_EQ(wb.line_address, 0u);
  EXPECT_EQ(wb.sector_mask, 0b0001);
  EXPECT_EQ(b.slice.counters().partial_writebacks, 1u);
  EXPECT_EQ(b.slice.counters().partial_reads, 1u);
  EXPECT_EQ(b.slice.counters().writeback_sectors, 1u);
  EXPECT_EQ(b.slice.counters().evictions, 0u);
  EXPECT_EQ(b.sm.responses.size(), 11u);  // every request answered; the read's data dropped
}

// A displaced line writes back its partial sectors only; a sector the stores completed stays
// dirty until the line leaves.
TEST(MemL2Slice, DisplacedLineKeepsItsCompleteSectorsDirty) {
  Bench b(partial_record_config(1, 1));
  // Line 0: sector 0 written whole by 8 four-byte stores, sector 1 by one.
  for (int i = 0; i < 8; ++i) {
    b.sm.push(static_cast<Cycle>(i), MemRequest::write(0, 0b0001, 4, i, 0));
  }
  b.sm.push(8, MemRequest::write(0, 0b0010, 4, 8, 0));
  b.sm.push(9, MemRequest::write(128, 0b0001, 4, 9, 0));  // displaces line 0
  evict_line_zero(b, 10);                                 // sector 0 leaves then
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 7u);  // read, write-back, four fetches, write-back
  EXPECT_EQ(b.memory.requests[0].second.op, MemOp::kRead);
  EXPECT_EQ(b.memory.requests[0].second.line_address, 0u);
  EXPECT_EQ(b.memory.requests[0].second.sector_mask, 0b0010);
  EXPECT_EQ(b.memory.requests[1].second.op, MemOp::kWrite);
  EXPECT_EQ(b.memory.requests[1].second.sector_mask, 0b0010);
  const MemRequest& last = b.memory.requests[6].second;
  EXPECT_EQ(last.op, MemOp::kWrite);
  EXPECT_EQ(last.line_address, 0u);
  EXPECT_EQ(last.sector_mask, 0b0001);
  EXPECT_EQ(b.slice.counters().partial_reads, 1u);
  EXPECT_EQ(b.slice.counters().writeback_sectors, 2u);
}

// With a 64-byte merge unit the displaced line's partial sector takes its unit's other sector
// along: both are read and written back, so the complete one leaves clean with it.
TEST(MemL2Slice, APartialSectorIsMergedInItsWholeAccessUnit) {
  L2SliceConfig c = partial_record_config(1, 1);
  c.merge_sectors = 2;
  Bench b(c);
  for (int i = 0; i < 8; ++i) {  // sector 0 written whole by 8 four-byte stores
    b.sm.push(static_cast<Cycle>(i), MemRequest::write(0, 0b0001, 4, i, 0));
  }
  b.sm.push(8, MemRequest::write(0, 0b0010, 4, 8, 0));    // sector 1 in part
  b.sm.push(9, MemRequest::write(128, 0b0001, 4, 9, 0));  // displaces line 0
  evict_line_zero(b, 10);                                 // nothing dirty is left to leave
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 6u);  // read, write-back, four fetches
  EXPECT_EQ(b.memory.requests[0].second.op, MemOp::kRead);
  EXPECT_EQ(b.memory.requests[0].second.sector_mask, 0b0011);
  EXPECT_EQ(b.memory.requests[1].second.op, MemOp::kWrite);
  EXPECT_EQ(b.memory.requests[1].second.sector_mask, 0b0011);
  EXPECT_EQ(b.memory.requests[1].second.write_bytes, 64u);
  EXPECT_TRUE(b.memory.requests[1].second.deferrable);  // the line stays: the DRAM may hold it
  for (std::size_t i = 2; i < 6; ++i) EXPECT_EQ(b.memory.requests[i].second.op, MemOp::kRead);
  EXPECT_EQ(b.slice.counters().partial_reads, 2u);
  EXPECT_EQ(b.slice.counters().writeback_sectors, 2u);
}

TEST(MemL2Slice, AGivenUpLineKeepsItsMergedUnitOnlyWhenConfigured) {
  for (const bool keeps : {false, true}) {
    L2SliceConfig c = partial_record_config(1, 1);
    c.merge_sectors = 2;
    c.merge_keeps_unit = keeps;
    Bench b(c);
    b.sm.push(0, MemRequest::write(0, 0b0001, 4, 0, 0));    // line 0, sector 0 in part
    b.sm.push(1, MemRequest::write(128, 0b0001, 4, 1, 0));  // displaces line 0: sectors 0-1 merged
    b.sm.push(2, MemRequest::write(0, 0b0010, 4, 2, 0));    // line 0, sector 1 in part
    b.engine.run();
    // Kept, sector 1 came with the unit's read and the store leaves nothing partial; otherwise
    // line 0 enters the record again and displaces line 128.
    EXPECT_EQ(b.slice.counters().partial_writebacks, keeps ? 1u : 2u) << "keeps " << keeps;
  }
}

TEST(MemL2Slice, AWarmStartCarriesTheRecordOfPartlyWrittenLines) {
  const L2SliceConfig c = partial_record_config(1, 1);
  Bench first(c);
  first.sm.push(0, MemRequest::write(0, 0b0001, 4, 0, 0));  // line 0, sector 0 in part
  first.engine.run();
  SliceContents carried(c, "carried");
  first.slice.exchange_contents(carried);
  for (const bool warm : {false, true}) {
    Bench next(c);
    if (warm) next.slice.exchange_contents(carried);
    next.sm.push(0, MemRequest::write(128, 0b0001, 4, 0, 0));  // needs line 0's entry
    next.engine.run();
    EXPECT_EQ(next.slice.counters().partial_writebacks, warm ? 1u : 0u) << "warm " << warm;
  }
}

TEST(MemL2Slice, EvictedPartialLineIsReadFirst) {
  Bench b(partial_record_config(8, 8));
  b.sm.push(0, MemRequest::write(0, 0b0110, 8, 0, 0));
  evict_line_zero(b, 1);
  b.engine.run();
  ASSERT_EQ(b.memory.requests.size(), 6u);  // four fetches, then the read and the write-back
  const MemRequest& fetch = b.memory.requests[4].second;
  EXPECT_EQ(fetch.op, MemOp::kRead);
  EXPECT_EQ(fetch.line_address, 0u);
  EXPECT_EQ(fetch.sector_mask, 0b0110);
  EXPECT_EQ(b.memory.requests[5].second.op, MemOp::kWrite);
  EXPECT_EQ(b.memory.requests[5].second.sector_mask, 0b0110);
  EXPECT_FALSE(b.memory.requests[5].second.deferrable);  // an eviction's: its slot is needed
  EXPECT_EQ(b.slice.counters().partial_reads, 2u);
  EXPECT_EQ(b.slice.counters().partial_writebacks, 0u);
}

// A std::map-based set-associative LRU cache of the same geometry.
class ReferenceCache {
 public:
  ReferenceCache(std::uint32_t sets, std::uint32_t ways) : sets_(sets), ways_(ways) {}
  void access(const MemRequest& r) {
    auto& set = sets_map_[(r.line_address / kLineBytes) % sets_];
    auto it = std::find_if(set.begin(), set.end(),
                           [&](const LineState& l) { return l.line_address == r.line_address; });
    LineState line{r.line_address, 0, 0};
    if (it != set.end()) {
      line = *it;
      set.erase(it);
    } else if (set.size() == ways_) {
      const LineState& victim = set.front();
      ++evictions;
      writeback_sectors += sector_count(victim.dirty_mask);
      set.pop_front();
    }
    line.valid_mask |= r.sector_mask;
    if (r.op != MemOp::kRead) line.dirty_mask |= r.sector_mask;
    set.push_back(line);
  }
  std::map<std::uint64_t, LineState> contents() const {
    std::map<std::uint64_t, LineState> out;
    for (const auto& [set, lines] : sets_map_) {
      for (const LineState& l : lines) out[l.line_address] = l;
    }
    return out;
  }
  std::uint64_t evictions = 0;
  std::uint64_t writeback_sectors = 0;

 private:
  std::uint32_t sets_;
  std::uint32_t ways_;
  std::map<std::uint64_t, std::list<LineState>> sets_map_;  // LRU first
};

std::vector<MemRequest> random_traffic(std::uint32_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::vector<MemRequest> out;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t line = (rng() % 96) * kLineBytes;
    const auto mask = static_cast<std::uint8_t>(1 + rng() % 15);
    const auto sm = static_cast<std::uint32_t>(rng() % 2);
    MemRequest r;
    switch (rng() % 5) {
      case 0:
      case 1:
        r = MemRequest::read(line, mask, i, sm);
        break;
      case 2:
        r = MemRequest::write(line, mask, static_cast<std::uint16_t>(32 * sector_count(mask)), i,
                              sm);
        break;
      case 3:
        r = MemRequest::write(line, mask, 7, i, sm);
        break;
      default:
        r = MemRequest::read(line, mask, i, sm);
        r.op = rng() % 2 ? MemOp::kAtomic : MemOp::kReduction;
    }
    out.push_back(r);
  }
  return out;
}

struct RandomRun {
  std::map<std::uint64_t, Cycle> received_at;
  std::vector<LineState> contents;
};

RandomRun run_random(const std::vector<MemRequest>& traffic, Bench& b) {
  Cycle at = 0;
  std::mt19937 gaps(7);
  for (const MemRequest& r : traffic) {
    b.sm.push(at, r);
    at += gaps() % 3;
  }
  b.engine.run();
  return {b.sm.received_at, b.slice.tags().contents()};
}

TEST(MemL2Slice, RandomTrafficMatchesAFunctionalReference) {
  const std::vector<MemRequest> traffic = random_traffic(11, 3000);
  L2SliceConfig c = small_config();
  c.mshr = {.entries = 4, .targets_per_entry = 2};
  Bench b(c, 37);
  const RandomRun run = run_random(traffic, b);

  ReferenceCache reference(8, 4);
  for (const MemRequest& r : traffic) reference.access(r);
  std::map<std::uint64_t, LineState> simulated;
  for (const LineState& l : run.contents) simulated[l.line_address] = l;
  EXPECT_EQ(simulated, reference.contents());
  EXPECT_EQ(b.slice.counters().evictions, reference.evictions);
  EXPECT_GT(reference.evictions, 100u);
  EXPECT_EQ(b.slice.counters().writeback_sectors, reference.writeback_sectors);
  std::uint64_t written = 0;
  for (const auto& [cycle, r] : b.memory.requests) {
    if (r.op == MemOp::kWrite) written += sector_count(r.sector_mask);
  }
  EXPECT_EQ(written, reference.writeback_sectors);
  // Every request answered exactly once.
  EXPECT_EQ(b.sm.duplicates, 0);
  EXPECT_EQ(b.sm.responses.size(), traffic.size());
  EXPECT_EQ(run.received_at.size(), traffic.size());
  EXPECT_EQ(b.slice.counters().requests, traffic.size());
  EXPECT_FALSE(b.slice.busy());
}

TEST(MemL2Slice, SameTrafficTwiceGivesIdenticalTimes) {
  const std::vector<MemRequest> traffic = random_traffic(5, 1000);
  Bench a(small_config());
  Bench b(small_config());
  const RandomRun ra = run_random(traffic, a);
  const RandomRun rb = run_random(traffic, b);
  EXPECT_EQ(ra.received_at, rb.received_at);
  EXPECT_EQ(ra.contents, rb.contents);
}

TEST(MemL2Slice, BadConfigNamesTheField) {
  Engine engine;
  const auto& d = engine.add_clock_domain("l2", 1'000'000);
  const auto expect_message = [&d](const L2SliceConfig& config, const std::string& message) {
    try {
      L2Slice s("gpu.l2[0]", d, config);
      FAIL() << "no throw";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  };
  L2SliceConfig c = small_config();
  c.sectors_per_cycle = 0;
  expect_message(c, "gpu.l2[0].sectors_per_cycle: expected at least 1 sector per cycle, got 0");
  c = small_config();
  c.hit_latency_far_cycles = 10;
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c = small_config();
  c.partition = 2;
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c = small_config();
  c.outbound_queue_entries = 1;
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c = small_config();
  c.response_queue_entries = 0;
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c = small_config();
  c.sms = 0;
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c = small_config();
  c.tags.ways = 3;
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c = small_config();
  c.coalescer = {.entries = 8, .followers = 0};
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c.coalescer = {.entries = 1u << 20, .followers = 4};
  EXPECT_THROW(L2Slice("s", d, c), InputError);
  c = small_config();
  c.merge_sectors = 3;
  expect_message(c, "gpu.l2[0].partial_merge_bytes: expected 32, 64 or 128 bytes, got 96");
}

TEST(MemL2Slice, LatencyShorterThanTheResponsePortIsRejected) {
  L2SliceConfig c = small_config();
  c.hit_latency_near_cycles = 2;
  c.hit_latency_far_cycles = 2;
  Engine engine;
  const auto& d = engine.add_clock_domain("l2", 1'000'000);
  MockSm sm("sm", d);
  L2Slice slice("gpu.l2[0]", d, c);
  engine.add(sm);
  engine.add(slice);
  const engine::PortConfig three{.latency_ps = d.duration(3), .capacity = 4};
  MemLink up{&engine.connect<MemRequest>(sm, slice, three),
             &engine.connect<MemResponse>(slice, sm, three)};
  try {
    slice.set_upstream(up);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gpu.l2[0].hit_latency_near_cycles: expected at least the response port's 3 "
              "cycle(s), got 2");
  }
}

}  // namespace
}  // namespace warpsim::mem
