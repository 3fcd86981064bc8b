// The chiplet topologies of the memory system: B200-style dies sharing one home per line through a
// die-to-die link, MI300X-style per-die L2s behind links to a memory-side cache.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "arch/error.h"
#include "sim/engine/engine.h"
#include "sim/mem/memory_system.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::mem {
namespace {

using engine::Cycle;
using testing::MockSm;

MemorySystemConfig base() {
  MemorySystemConfig c;
  c.sms = 4;
  c.l2_slices = 4;
  c.l2_partitions = 1;
  c.l2_address_hash = "modulo";
  c.noc = {.latency_cycles = 10, .port_bytes_per_cycle = 64};
  c.l2.tags = {.size_bytes = 64 * 1024, .ways = 8};
  c.l2.hit_latency_near_cycles = 20;
  c.l2.hit_latency_far_cycles = 20;
  c.l2.fill_latency_cycles = 10;
  c.l2.mshr = {.entries = 32, .targets_per_entry = 4};
  c.dram_geometry = {.channels = 2,
                     .bank_groups = 2,
                     .banks_per_group = 4,
                     .row_bytes = 1024,
                     .interleave_bytes = 128};
  c.dram.timing = {.rcd_cycles = 7, .rp_cycles = 5, .ras_cycles = 20, .cl_cycles = 9,
                   .cwl_cycles = 3, .ccd_s_cycles = 2, .ccd_l_cycles = 3, .rrd_s_cycles = 2,
                   .rrd_l_cycles = 3, .faw_cycles = 12, .wr_cycles = 6, .wtr_cycles = 4,
                   .rtp_cycles = 3, .rtw_cycles = 8};
  c.dies = 2;
  c.die_link = {.latency_cycles = 25, .bytes_per_cycle = 64};
  return c;
}

struct System {
  explicit System(const MemorySystemConfig& config)
      : engine(engine::EngineOptions{.threads = 1, .parallel_threshold = 2}),
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

TEST(MemChiplets, FarDieHitCrossesTheLinkBothWays) {
  const MemorySystemConfig c = base();
  System s(c);
  // With 128-byte channel interleave, line 0 lives on channel 0 (die 0), line 128 on die 1.
  ASSERT_EQ(s.mem->slice_for(0, 0) / 2, 0u);
  ASSERT_EQ(s.mem->slice_for(128, 0) / 2, 1u);
  s.mem->warm(0, 256);
  s.sms[0]->push(0, MemRequest::read(0, 0b0001, 1, 0));    // die 0 SM, die 0 line
  s.sms[1]->push(0, MemRequest::read(128, 0b0001, 2, 1));  // die 0 SM, die 1 line
  s.sms[3]->push(0, MemRequest::read(128, 0b0001, 3, 3));  // die 1 SM, die 1 line
  s.engine.run();
  const Cycle near = MemorySystem::hit_round_trip_cycles(c, true);
  EXPECT_EQ(s.sms[0]->latency(1), near);
  EXPECT_EQ(s.sms[3]->latency(3), near);
  // Each way: the link's latency and the other die's crossbar.
  EXPECT_EQ(s.sms[1]->latency(2), near + 2 * (25 + 10));
  const MemorySystemCounters k = s.mem->counters();
  EXPECT_EQ(k.d2d.requests, 1u);
  EXPECT_EQ(k.d2d.responses, 1u);
  EXPECT_EQ(k.d2d.bytes, 32u + 64u);
}

TEST(MemChiplets, FarDieMissStaysOnTheHomeDie) {
  System s(base());
  s.sms[0]->push(0, MemRequest::read(128, 0b0001, 1, 0));
  s.engine.run();
  EXPECT_EQ(s.mem->channels()[1]->counters().reads, 1u);
  EXPECT_EQ(s.mem->channels()[0]->counters().reads, 0u);
  EXPECT_EQ(s.mem->counters().d2d.requests, 1u);
}

TEST(MemChiplets, RejectsSplitsThatDoNotDivide) {
  MemorySystemConfig c = base();
  c.l2_slices = 3;
  EXPECT_THROW(System{c}, InputError);
  c = base();
  c.dies = 4;
  c.sms = 8;
  c.l2_slices = 8;
  c.dram_geometry.channels = 4;
  EXPECT_THROW(System{c}, InputError);  // one home per line: two dies only
}

TEST(MemChiplets, DieInterleavedHomesFillEverySetOfEverySlice) {
  // B200-like geometry at small scale: 2 dies of 6 slices (not a power of two), 8 hashed
  // channels of 2-line chunks. A contiguous footprint of exactly the L2's capacity (12 slices x
  // 32 sets x 4 ways) lands ways lines in every set of every slice, so warming it evicts nothing.
  MemorySystemConfig c = base();
  c.sms = 2;
  c.l2_slices = 12;
  c.l2_address_hash = "rotated";
  c.l2.tags = {.size_bytes = 16 * 1024, .ways = 4};
  c.dram_geometry.channels = 8;
  c.dram_geometry.interleave_bytes = 256;
  c.dram_mapping = "hashed_channel";
  System s(c);
  const std::uint64_t lines = 12 * 32 * 4;
  // Each 2 KB round of the channels gives each die 8 lines: starting at round 24 x 4096, each
  // die's ranks start at a multiple of 6 slices x 32 sets.
  const std::uint64_t base_address = std::uint64_t{24} * 4096 * 2048;
  s.mem->warm(base_address, lines * kLineBytes);
  for (std::uint32_t k = 0; k < 12; ++k) {
    const CacheTags& tags = s.mem->slices()[k]->tags();
    std::vector<std::uint32_t> per_set(tags.sets(), 0);
    for (const LineState& line : tags.contents()) ++per_set[tags.set_of(line.line_address)];
    for (std::uint32_t set = 0; set < tags.sets(); ++set) {
      EXPECT_EQ(per_set[set], 4u) << "slice " << k << " set " << set;
    }
  }
  // Every line is still where a request looks for it: its die's slice, as the crossbars route.
  for (std::uint64_t a = base_address; a < base_address + lines * kLineBytes; a += kLineBytes) {
    const std::uint32_t slice = s.mem->slice_for(a, 0);
    ASSERT_EQ(slice / 6, s.mem->address_mapping().map(a).channel / 4) << a;
    ASSERT_NE(s.mem->slices()[slice]->tags().probe(a).valid_mask, 0) << a;
  }
}

MemorySystemConfig per_die_with_msc() {
  MemorySystemConfig c = base();
  c.l2_per_die = true;
  c.l2.tags = {.size_bytes = 128, .ways = 1};  // one line per slice: easy to evict
  c.memory_side_cache = true;
  c.msc.tags = {.size_bytes = 4 * 1024, .ways = 4};
  c.msc.hit_latency_near_cycles = 15;
  c.msc.hit_latency_far_cycles = 15;
  c.msc.fill_latency_cycles = 15;
  c.msc.partial_writes_fetch = false;
  return c;
}

TEST(MemChiplets, PerDieL2sMissIntoTheMemorySideCache) {
  const MemorySystemConfig c = per_die_with_msc();
  System s(c);
  // Die 0 reads line 0 (misses everywhere, fills the memory-side cache), then die 1 reads it:
  // its own L2 misses, the memory-side cache hits.
  s.sms[0]->push(0, MemRequest::read(0, 0b0001, 1, 0));
  s.sms[2]->push(1000, MemRequest::read(0, 0b0001, 2, 2));
  s.engine.run();
  const MemorySystemCounters k = s.mem->counters();
  EXPECT_EQ(k.l2.sectors_miss, 2u);
  EXPECT_EQ(k.mall.sectors_miss, 1u);
  EXPECT_EQ(k.mall.sectors_hit, 1u);
  EXPECT_EQ(k.dram.reads, 1u);
  // SM port and crossbar (1 + 10); the slice misses: port into the die's crossbar and across it
  // (1 + 1), the link (25, the port into the memory crossbar included), the memory crossbar (2),
  // the memory-side hit (15, its port back included), the memory crossbar back (2), the link
  // (25), the die's crossbar (1), the slice's fill latency (10, its port back included) and the
  // SM crossbar (10).
  EXPECT_EQ(s.sms[2]->latency(2), 1u + 10 + (1 + 1) + 25 + 2 + 15 + 2 + 25 + 1 + 10 + 10);
  EXPECT_GT(s.sms[0]->latency(1), s.sms[2]->latency(2));
}

TEST(MemChiplets, MemorySideCacheHoldsItsCapacity) {
  // Stream twice over a footprint: within the memory-side cache's 8 KB (2 slices x 4 KB) the
  // second pass hits there; at twice the capacity LRU leaves nothing to hit.
  for (const std::uint64_t footprint : {std::uint64_t{4096}, std::uint64_t{16384}}) {
    System s(per_die_with_msc());
    Cycle at = 0;
    for (int pass = 0; pass < 2; ++pass) {
      for (std::uint64_t a = 0; a < footprint; a += kLineBytes) {
        s.sms[0]->push(at, MemRequest::read(a, 0b1111, pass * 100000 + a, 0));
        at += 200;
      }
    }
    s.engine.run();
    const MemorySystemCounters k = s.mem->counters();
    const std::uint64_t lines = footprint / kLineBytes;
    if (footprint == 4096) {
      EXPECT_EQ(k.mall.sectors_hit, lines * 4) << footprint;
      EXPECT_EQ(k.dram.bytes_read, footprint);
    } else {
      EXPECT_EQ(k.mall.sectors_hit, 0u) << footprint;
      EXPECT_EQ(k.dram.bytes_read, 2 * footprint);
    }
  }
}

}  // namespace
}  // namespace warpsim::mem
