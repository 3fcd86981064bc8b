// Near-partition copies of far-partition lines (l2_slice.h, l2_slice_group.h): exact latencies of
// a copy hit, invalidation by a write, the capacity knee they cause, and copies of far writes.
#include "sim/mem/l2_slice_group.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/mem/memory_system.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::mem {
namespace {

using engine::Cycle;
using testing::MockSm;

// Four slices, two per partition ("modulo": line i lives in slice i mod 4, slices 0-1 in
// partition 0), 8 KB each; SMs 0-1 next to partition 0, SMs 2-3 to partition 1.
MemorySystemConfig two_partitions(bool copies) {
  MemorySystemConfig c;
  c.sms = 4;
  c.l2_slices = 4;
  c.l2_partitions = 2;
  c.l2_address_hash = "modulo";
  c.noc = {.latency_cycles = 10, .port_bytes_per_cycle = 64};
  c.l2.tags = {.size_bytes = 8 * 1024, .ways = 4};
  c.l2.hit_latency_near_cycles = 20;
  c.l2.hit_latency_far_cycles = 30;
  c.l2.fill_latency_cycles = 10;
  c.l2.mshr = {.entries = 32, .targets_per_entry = 4};
  c.l2.far_read_copies = copies;
  c.dram_geometry = {.channels = 2, .bank_groups = 2, .banks_per_group = 4, .row_bytes = 1024,
                     .interleave_bytes = 256};
  c.dram.timing = {.rcd_cycles = 7, .rp_cycles = 5, .ras_cycles = 20, .cl_cycles = 9,
                   .cwl_cycles = 3, .ccd_s_cycles = 2, .ccd_l_cycles = 3, .rrd_s_cycles = 2,
                   .rrd_l_cycles = 3, .faw_cycles = 12, .wr_cycles = 6, .wtr_cycles = 4,
                   .rtp_cycles = 3, .rtw_cycles = 8};
  return c;
}

struct System {
  explicit System(const MemorySystemConfig& config, unsigned threads = 1)
      : engine(engine::EngineOptions{.threads = threads, .parallel_threshold = 2}),
        l2(engine.add_clock_domain("l2", 1'000'000)),
        memory(engine.add_clock_domain("memory", 1'000'000)) {
    for (std::uint32_t i = 0; i < config.sms; ++i) {
      sms.push_back(std::make_unique<MockSm>("sm" + std::to_string(i), l2));
      engine.add(*sms.back());
    }
    mem = std::make_unique<MemorySystem>(engine, config, l2, memory);
    for (auto& sm : sms) sm->set_link(mem->attach_sm(*sm));
  }
  engine::Engine engine;
  const engine::ClockDomain& l2;
  const engine::ClockDomain& memory;
  std::vector<std::unique_ptr<MockSm>> sms;
  std::unique_ptr<MemorySystem> mem;
};

TEST(MemL2SliceGroup, FarReadLeavesACopyThatAnswersAtTheNearLatency) {
  const MemorySystemConfig c = two_partitions(true);
  System s(c);
  const std::uint64_t line = 2 * kLineBytes;  // slice 2, partition 1: far from SM 0
  s.mem->warm(line, kLineBytes);
  s.sms[0]->push(0, MemRequest::read(line, 0b0001, 1, 0));
  s.sms[0]->push(1000, MemRequest::read(line, 0b0001, 2, 0));
  s.sms[2]->push(2000, MemRequest::write(line, 0b0001, 32, 3, 2));  // drops the copy
  s.sms[0]->push(3000, MemRequest::read(line, 0b0001, 4, 0));
  s.engine.run();
  EXPECT_EQ(s.sms[0]->latency(1), MemorySystem::hit_round_trip_cycles(c, false));
  EXPECT_EQ(s.sms[0]->latency(2), MemorySystem::hit_round_trip_cycles(c, true));
  EXPECT_EQ(s.sms[0]->latency(4), MemorySystem::hit_round_trip_cycles(c, false));
  const L2Counters k = s.mem->counters().l2;
  EXPECT_EQ(k.copy_hits, 1u);
  EXPECT_EQ(k.copy_fills, 2u);
  EXPECT_EQ(k.copy_invalidations, 1u);
  // The copy lives in partition 0's slice of the column.
  EXPECT_NE(s.mem->slices()[0]->tags().probe(line).valid_mask, 0);
}

TEST(MemL2SliceGroup, FarWriteLeavesACleanCopyWithFarWriteCopies) {
  for (const bool write_copies : {false, true}) {
    MemorySystemConfig c = two_partitions(true);
    c.l2.far_write_copies = write_copies;
    System s(c);
    const std::uint64_t line = 2 * kLineBytes;  // slice 2, partition 1: far from SM 0
    s.sms[0]->push(0, MemRequest::write(line, 0b0011, 64, 1, 0));
    s.sms[0]->push(1000, MemRequest::read(line, 0b0001, 2, 0));
    s.engine.run();
    SCOPED_TRACE(write_copies ? "far write copies" : "no far write copies");
    // The home keeps the dirty line either way.
    EXPECT_EQ(s.mem->slices()[2]->tags().probe(line).dirty_mask, 0b0011);
    if (write_copies) {
      // A clean copy of the written sectors in SM 0's partition answers the read near.
      EXPECT_EQ(s.mem->slices()[0]->tags().probe(line).valid_mask, 0b0011);
      EXPECT_EQ(s.mem->slices()[0]->tags().probe(line).dirty_mask, 0);
      EXPECT_EQ(s.sms[0]->latency(2), MemorySystem::hit_round_trip_cycles(c, true));
      EXPECT_EQ(s.mem->counters().l2.copy_hits, 1u);
    } else {
      // The read goes to the home, and leaves the copy.
      EXPECT_EQ(s.sms[0]->latency(2), MemorySystem::hit_round_trip_cycles(c, false));
      EXPECT_EQ(s.mem->counters().l2.copy_hits, 0u);
      EXPECT_EQ(s.mem->counters().l2.copy_fills, 1u);
    }
  }
  // A write from the home's own partition drops the copy.
  MemorySystemConfig c = two_partitions(true);
  c.l2.far_write_copies = true;
  System s(c);
  const std::uint64_t line = 2 * kLineBytes;
  s.sms[0]->push(0, MemRequest::write(line, 0b0001, 32, 1, 0));
  s.sms[2]->push(1000, MemRequest::write(line, 0b0001, 32, 2, 2));
  s.sms[0]->push(2000, MemRequest::read(line, 0b0001, 3, 0));
  s.engine.run();
  EXPECT_EQ(s.mem->counters().l2.copy_invalidations, 1u);
  EXPECT_EQ(s.sms[0]->latency(3), MemorySystem::hit_round_trip_cycles(c, false));
}

// DRAM bytes written when SM 0 writes 16 KB (lines 0-127, whole lines) and then reads 8 KB of
// other lines (128-191). Each partition holds 16 KB in 16 sets of 4 ways per slice; line i lives
// in slice i mod 4 at set (i / 4) mod 16.
std::uint64_t write_then_read_dram_writes(bool write_copies) {
  MemorySystemConfig c = two_partitions(true);
  c.l2.far_write_copies = write_copies;
  System s(c);
  Cycle at = 0;
  for (std::uint64_t i = 0; i < 128; ++i, at += 100) {
    s.sms[0]->push(at, MemRequest::write(i * kLineBytes, 0b1111, 128, i, 0));
  }
  for (std::uint64_t i = 128; i < 192; ++i, at += 100) {
    s.sms[0]->push(at, MemRequest::read(i * kLineBytes, 0b1111, i, 0));
  }
  s.engine.run();
  return s.mem->counters().dram.bytes_written;
}

TEST(MemL2SliceGroup, CopiesOfFarWritesTakeNearCapacityFromDirtyLines) {
  // Without write copies each set of SM 0's partition holds its 2 dirty home lines, and the
  // reads' home line and copy fill the other 2 ways: nothing is written back. With them the
  // writes' copies fill those ways, so each set's reads evict its oldest 2 lines, one dirty home
  // line and one copy: 32 sets x 1 line x 128 bytes.
  EXPECT_EQ(write_then_read_dram_writes(false), 0u);
  EXPECT_EQ(write_then_read_dram_writes(true), 32u * kLineBytes);
}

// Bytes read from DRAM during the second of two sequential passes of SM 0 over `footprint`.
std::uint64_t second_pass_dram_bytes(bool copies, std::uint64_t footprint) {
  System s(two_partitions(copies));
  Cycle at = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint64_t a = 0; a < footprint; a += kLineBytes) {
      s.sms[0]->push(at, MemRequest::read(a, 0b1111, pass * 1000000 + a, 0));
      at += 100;
    }
  }
  s.engine.run();
  const std::uint64_t read = s.mem->counters().dram.bytes_read;
  EXPECT_EQ(s.sms[0]->received_at.size(), 2 * footprint / kLineBytes);
  return read - footprint;  // the first pass reads every line once
}

TEST(MemL2SliceGroup, FootprintSweepShowsThePartitionCapacityKnee) {
  // Each partition holds 16 KB. With copies, SM 0's near partition must hold the whole
  // footprint: beyond 16 KB its own lines thrash (LRU, cyclic order) and come from DRAM again,
  // while the far lines still hit at their home; beyond 32 KB everything comes from DRAM.
  constexpr std::uint64_t kKb = 1024;
  EXPECT_EQ(second_pass_dram_bytes(true, 8 * kKb), 0u);
  EXPECT_EQ(second_pass_dram_bytes(true, 16 * kKb), 0u);
  EXPECT_EQ(second_pass_dram_bytes(true, 24 * kKb), 12 * kKb);
  EXPECT_EQ(second_pass_dram_bytes(true, 32 * kKb), 16 * kKb);
  EXPECT_EQ(second_pass_dram_bytes(true, 48 * kKb), 48 * kKb);
  // Without copies the two partitions hold disjoint halves: the knee is at the whole 32 KB.
  EXPECT_EQ(second_pass_dram_bytes(false, 24 * kKb), 0u);
  EXPECT_EQ(second_pass_dram_bytes(false, 32 * kKb), 0u);
  EXPECT_EQ(second_pass_dram_bytes(false, 48 * kKb), 48 * kKb);
}

TEST(MemL2SliceGroup, CopiesAreIdenticalOnAnyThreadCount) {
  std::vector<std::map<std::uint64_t, Cycle>> runs;
  for (unsigned threads : {1u, 4u}) {
    System s(two_partitions(true), threads);
    for (std::uint32_t sm = 0; sm < 4; ++sm) {
      for (int i = 0; i < 300; ++i) {
        const std::uint64_t line = ((i * 7 + sm * 13) % 512) * kLineBytes;
        const std::uint64_t id = sm * 100000 + static_cast<std::uint64_t>(i);
        s.sms[sm]->push(static_cast<Cycle>(i * 3),
                        i % 5 == 0 ? MemRequest::write(line, 0b0011, 64, id, sm)
                                   : MemRequest::read(line, 0b0001, id, sm));
      }
    }
    s.engine.run();
    std::map<std::uint64_t, Cycle> all;
    for (const auto& sm : s.sms) {
      EXPECT_EQ(sm->duplicates, 0);
      all.insert(sm->received_at.begin(), sm->received_at.end());
    }
    EXPECT_EQ(all.size(), 1200u);
    runs.push_back(all);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

}  // namespace
}  // namespace warpsim::mem
