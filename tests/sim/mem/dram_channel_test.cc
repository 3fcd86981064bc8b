#include "sim/mem/dram_channel.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <vector>

#include "arch/error.h"
#include "sim/engine/engine.h"
#include "tests/sim/mem/mem_test_bench.h"

namespace warpsim::mem {
namespace {

using engine::Cycle;
using engine::Engine;
using testing::MockSm;

// One channel, 2 bank groups x 4 banks, 1 KB rows: address k x 1024 lies in bank group k % 2,
// bank (k / 2) % 4, row k / 8.
DramGeometry geometry(std::uint32_t row_bytes = 1024, std::uint32_t bank_groups = 2,
                      std::uint32_t banks_per_group = 4) {
  return {.channels = 1,
          .bank_groups = bank_groups,
          .banks_per_group = banks_per_group,
          .row_bytes = row_bytes,
          .interleave_bytes = 256};
}

DramChannelConfig test_config() {
  DramChannelConfig c;
  c.timing = {.rcd_cycles = 7,
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
  c.bytes_per_cycle = 16;
  c.burst_length = 4;  // 2 cycles per 32-byte burst
  return c;
}

struct Bench {
  explicit Bench(const DramChannelConfig& config, const DramGeometry& g = geometry(),
                 std::size_t port_capacity = 64)
      : domain(engine.add_clock_domain("memory", 1'000'000)),
        mapping(make_address_mapping("ro_ba_bg_co_ch", g)),
        sm("sm", domain),
        channel("dram", domain, config, *mapping, 0) {
    engine.add(sm);
    engine.add(channel, engine::Start::kAsleep);
    const engine::PortConfig one{.latency_ps = domain.duration(1), .capacity = port_capacity};
    MemLink link{&engine.connect<MemRequest>(sm, channel, one),
                 &engine.connect<MemResponse>(channel, sm, one)};
    sm.set_link(link);
    channel.set_upstream(link);
  }
  Engine engine;
  const engine::ClockDomain& domain;
  std::unique_ptr<AddressMapping> mapping;
  MockSm sm;
  DramChannel channel;
};

MemRequest read(std::uint64_t address, std::uint64_t id) {
  return MemRequest::read(address, 0b0001, id, 0);
}

TEST(MemDramChannel, RowHitClosedAndConflictDifferByTheCoreTimings) {
  Bench b(test_config());
  b.sm.push(0, read(0, 1));       // bank closed: ACT, RD
  b.sm.push(100, read(128, 2));   // same row: RD
  b.sm.push(200, read(8192, 3));  // same bank, other row: PRE, ACT, RD
  b.engine.run();
  const Cycle hit = b.sm.latency(2);
  EXPECT_EQ(hit, 1u + 9 + 2);                 // in, CL, burst
  EXPECT_EQ(b.sm.latency(1) - hit, 7u);       // tRCD
  EXPECT_EQ(b.sm.latency(3) - hit, 5u + 7u);  // tRP + tRCD
  const DramCounters& c = b.channel.counters();
  EXPECT_EQ(c.row_hits, 1u);
  EXPECT_EQ(c.row_misses, 1u);
  EXPECT_EQ(c.row_conflicts, 1u);
  EXPECT_EQ(c.activates, 2u);
  EXPECT_EQ(c.precharges, 1u);
  EXPECT_EQ(c.bytes_read, 96u);
  EXPECT_EQ(c.reads, 3u);
}

TEST(MemDramChannel, ASectorMaskCostsOneBurstPerSector) {
  Bench b(test_config());
  b.sm.push(0, MemRequest::read(0, 0b1011, 1, 0));
  b.engine.run();
  // ACT at 1, RDs at 8, 11, 14 (tCCD_L), last data ends 14 + 9 + 2.
  EXPECT_EQ(b.sm.latency(1), 25u);
  EXPECT_EQ(b.channel.counters().bytes_read, 96u);
  EXPECT_EQ(b.channel.counters().bus_busy_cycles, 6u);
}

TEST(MemDramChannel, RequestGapIdlesTheBusBetweenRequestsOnly) {
  DramChannelConfig c = test_config();
  c.timing.ccd_l_cycles = 2;  // the bus (2 cycles a burst) bounds back-to-back reads of one bank
  const auto run = [&](std::uint32_t gap) {
    c.timing.request_gap_cycles = gap;
    Bench b(c);
    b.sm.push(0, read(0, 1));                            // opens row 0
    b.sm.push(100, read(128, 2));                        // row hits, one sector each
    b.sm.push(100, read(256, 3));
    b.sm.push(200, MemRequest::read(512, 0b0011, 4, 0));  // one request, two sectors
    b.engine.run();
    EXPECT_EQ(b.channel.counters().bus_busy_cycles, 10u);
    return std::array<Cycle, 3>{b.sm.received_at.at(2), b.sm.received_at.at(3), b.sm.latency(4)};
  };
  const auto none = run(0);
  const auto gap = run(3);
  EXPECT_EQ(none[1] - none[0], 2u);  // the second burst follows the first
  EXPECT_EQ(gap[0], none[0]);
  EXPECT_EQ(gap[1] - gap[0], 2u + 3u);  // the bus idles 3 cycles between the requests
  EXPECT_EQ(gap[2], none[2]);           // but not between one request's bursts
  EXPECT_EQ(none[2], 1u + 9 + 2 + 2);   // in, CL, two bursts
}

void row_hit_after_conflict(const std::string& scheduler, Cycle expect_hit, Cycle expect_conflict) {
  DramChannelConfig c = test_config();
  c.scheduler = scheduler;
  Bench b(c);
  b.sm.push(0, read(0, 1));      // opens row 0 of bank 0
  b.sm.push(50, read(8192, 2));  // older: row 1 of bank 0
  b.sm.push(50, read(256, 3));   // younger: hits row 0
  b.engine.run();
  EXPECT_EQ(b.sm.received_at.at(3), expect_hit) << scheduler;
  EXPECT_EQ(b.sm.received_at.at(2), expect_conflict) << scheduler;
}

TEST(MemDramChannel, FrFcfsServesRowHitsBeforeOlderConflicts) {
  // RD of the hit at 51; PRE at 54 (tRTP), ACT 59, RD 66.
  row_hit_after_conflict("frfcfs", 51 + 11, 66 + 11);
  // In order: PRE 51, ACT 56, RD 63; then PRE 76 (tRAS), ACT 81, RD 88.
  row_hit_after_conflict("fcfs", 88 + 11, 63 + 11);
}

TEST(MemDramChannel, ActivatesRespectRrdAndFaw) {
  std::vector<Cycle> with_faw;
  for (std::uint32_t faw : {12u, 0u}) {
    DramChannelConfig c = test_config();
    c.timing.faw_cycles = faw;
    Bench b(c);
    for (int k = 0; k < 5; ++k) b.sm.push(0, read(static_cast<std::uint64_t>(k) * 1024, k));
    b.engine.run();
    std::vector<Cycle> got;
    for (int k = 0; k < 5; ++k) got.push_back(b.sm.received_at.at(k));
    if (faw != 0) {
      // ACTs at 1, 3, 5, 7 (tRRD_S), the fifth at 13 (tFAW); RDs at 8, 10, 12, 14, 20.
      EXPECT_EQ(got, (std::vector<Cycle>{19, 21, 23, 25, 31}));
    } else {
      EXPECT_EQ(got, (std::vector<Cycle>{19, 21, 23, 25, 27}));
    }
  }
}

TEST(MemDramChannel, WritesArePostedAndCounted) {
  Bench b(test_config());
  b.sm.expect_responses = false;
  for (int i = 0; i < 4; ++i) {
    b.sm.push(0, MemRequest::write(static_cast<std::uint64_t>(i) * 128, 0b0011, 64, i, 0));
  }
  b.engine.run();
  EXPECT_TRUE(b.sm.responses.empty());
  EXPECT_EQ(b.channel.counters().bytes_written, 256u);
  EXPECT_EQ(b.channel.counters().writes, 4u);
  EXPECT_EQ(b.channel.counters().bytes_read, 0u);
  EXPECT_FALSE(b.channel.busy());
}

TEST(MemDramChannel, ReadsWaitForTheWriteDrainWatermark) {
  DramChannelConfig c = test_config();
  c.write_drain_high = 4;
  c.write_drain_low = 1;
  Bench b(c);
  b.sm.expect_responses = false;  // writes are posted
  b.sm.push(0, read(0, 100));
  for (int i = 0; i < 4; ++i) {
    b.sm.push(0, MemRequest::write(1024 + static_cast<std::uint64_t>(i) * 128, 1, 32, i, 0));
  }
  b.sm.push(0, read(128, 101));
  b.engine.run();
  EXPECT_EQ(b.channel.counters().writes, 4u);
  // At the high watermark the channel drains writes to the low one before reading again.
  EXPECT_GT(b.sm.latency(100), 30u);
  EXPECT_EQ(b.sm.responses.size(), 2u);
}

// Four deferrable writes (the write-backs of lines that stay in the L2) ahead of a read: they would
// reach the drain watermark as plain writes, but wait aside, and a read lets only
// `deferred_write_share` of them join the write queue.
std::uint64_t read_after_deferred_writes(double share, std::uint64_t* writes) {
  DramChannelConfig c = test_config();
  c.write_drain_high = 1;
  c.write_drain_low = 0;
  c.deferred_write_share = share;
  Bench b(c);
  b.sm.expect_responses = false;
  for (int i = 0; i < 4; ++i) {
    MemRequest w = MemRequest::write(1024 + static_cast<std::uint64_t>(i) * 128, 1, 32, i, 0);
    w.deferrable = true;
    b.sm.push(0, w);
  }
  b.sm.push(0, read(128, 100));
  b.engine.run();
  *writes = b.channel.counters().writes;
  EXPECT_FALSE(b.channel.busy());
  return b.sm.latency(100);
}

TEST(MemDramChannel, DeferredWritesWaitWhileReadsWait) {
  Bench alone(test_config());
  alone.sm.push(0, read(128, 100));
  alone.engine.run();
  const std::uint64_t solo = alone.sm.latency(100);
  std::uint64_t writes = 0;
  // A read gives half a write's credit: none joins, the read goes first as if alone, and the
  // writes all follow once no read waits.
  EXPECT_EQ(read_after_deferred_writes(0.5, &writes), solo);
  EXPECT_EQ(writes, 4u);
  // A whole write's credit: one joins, reaches the watermark of one and drains first.
  EXPECT_GT(read_after_deferred_writes(1.0, &writes), solo);
  EXPECT_EQ(writes, 4u);
  // Without a share they are plain writes: all drain before the read.
  const std::uint64_t plain = read_after_deferred_writes(0.0, &writes);
  EXPECT_GT(plain, read_after_deferred_writes(1.0, &writes));
  EXPECT_EQ(writes, 4u);
}

TEST(MemDramChannel, StreamingBandwidthEmergesFromTheTimings) {
  const auto fraction = [](const DramChannelConfig& c, const DramGeometry& g) {
    Bench b(c, g, 8);
    constexpr int kLines = 2048;
    for (int i = 0; i < kLines; ++i) {
      b.sm.push(0, MemRequest::read(static_cast<std::uint64_t>(i) * 128, kAllSectors, i, 0));
    }
    b.engine.run();
    const Cycle end = b.sm.received_at.at(kLines - 1);
    EXPECT_EQ(b.channel.counters().bytes_read, kLines * 128u);
    const double peak = 16.0 * static_cast<double>(end);
    const double got = static_cast<double>(b.channel.counters().bytes_read);
    EXPECT_LE(got, peak);
    return got / peak;
  };
  // One bank group of two banks and a short queue, so row changes cannot hide behind other
  // banks; tCCD_L equal to a burst so the data bus could be kept busy.
  DramChannelConfig base = test_config();
  base.read_queue_entries = 4;
  base.timing.ccd_l_cycles = 2;
  base.timing.rcd_cycles = 14;
  base.timing.rp_cycles = 14;
  base.timing.ras_cycles = 28;
  const double f = fraction(base, geometry(1024, 1, 2));
  DramChannelConfig slow = base;
  slow.timing.rcd_cycles = 40;
  slow.timing.rp_cycles = 40;
  const double f_slow = fraction(slow, geometry(1024, 1, 2));
  const double f_small_rows = fraction(base, geometry(256, 1, 2));
  std::printf("streaming fraction of peak: %.4f, slow rows %.4f, 256-byte rows %.4f\n", f, f_slow,
              f_small_rows);
  EXPECT_GT(f, 0.5);
  EXPECT_LT(f, 1.0);
  EXPECT_LT(f_slow, f);
  EXPECT_LT(f_small_rows, f);
}

TEST(MemDramChannel, RefreshBlocksActivatesForTrfc) {
  DramChannelConfig c = test_config();
  c.timing.refi_cycles = 100;
  c.timing.rfc_cycles = 30;
  Bench b(c);
  b.sm.push(0, read(0, 1));     // row 0 open at the refresh due at 100
  b.sm.push(100, read(32, 2));  // visible at 101, during the refresh (100 .. 130)
  b.sm.push(340, read(64, 3));  // the refreshes at 200 and 300 are over: bank closed
  b.sm.push(399, read(96, 4));  // visible at 400: due now
  b.engine.run();
  EXPECT_EQ(b.sm.latency(1), 19u);
  // The refresh started at 100 (row 0 was closable since cycle 21): ACT at 130, RD at 137.
  EXPECT_EQ(b.sm.latency(2), 137u + 11 - 100);
  EXPECT_EQ(b.sm.latency(3), 19u);
  EXPECT_EQ(b.sm.latency(4), 430u + 7 + 11 - 399);
  EXPECT_EQ(b.channel.counters().refreshes, 4u);
  EXPECT_EQ(b.channel.counters().row_hits, 0u);
}

TEST(MemDramChannel, RefreshDuringAStreamCostsBandwidth) {
  const auto run = [](std::uint32_t refi) {
    DramChannelConfig c = test_config();
    c.timing.refi_cycles = refi;
    c.timing.rfc_cycles = refi == 0 ? 0 : 40;
    Bench b(c, geometry(), 8);
    for (int i = 0; i < 1024; ++i) {
      b.sm.push(0, MemRequest::read(static_cast<std::uint64_t>(i) * 128, kAllSectors, i, 0));
    }
    b.engine.run();
    return std::pair{b.sm.received_at.at(1023), b.channel.counters().refreshes};
  };
  const auto [plain_end, plain_refreshes] = run(0);
  const auto [end, refreshes] = run(400);
  EXPECT_EQ(plain_refreshes, 0u);
  // Every refresh that fell due before the last command ran (the last few cycles are data).
  EXPECT_LE(refreshes, end / 400);
  EXPECT_GE(refreshes + 1, end / 400);
  EXPECT_GT(refreshes, 2u);
  EXPECT_GT(end, plain_end + refreshes * 40 / 2);
}

TEST(MemDramChannel, PerBankRefreshLetsTheOtherBanksWork) {
  const auto run = [](std::uint32_t rfc, std::uint32_t rfcpb) {
    DramChannelConfig c = test_config();
    c.timing.refi_cycles = rfc == 0 && rfcpb == 0 ? 0 : 400;
    c.timing.rfc_cycles = 40;
    c.timing.rfcpb_cycles = rfcpb;
    Bench b(c, geometry(), 8);
    for (int i = 0; i < 1024; ++i) {
      b.sm.push(0, MemRequest::read(static_cast<std::uint64_t>(i) * 128, kAllSectors, i, 0));
    }
    b.engine.run();
    return std::pair{b.sm.received_at.at(1023), b.channel.counters().refreshes};
  };
  const auto [plain_end, plain_refreshes] = run(0, 0);
  const auto [all_bank_end, all_bank_refreshes] = run(40, 0);
  const auto [per_bank_end, per_bank_refreshes] = run(40, 40);
  EXPECT_EQ(plain_refreshes, 0u);
  // One bank every tREFI / banks: as many refreshes per bank as all-bank refreshes per channel.
  const std::uint64_t banks = std::uint64_t{geometry().bank_groups} * geometry().banks_per_group;
  EXPECT_GE(per_bank_refreshes + 1, per_bank_end / (400 / banks));
  EXPECT_LE(per_bank_refreshes, per_bank_end / (400 / banks));
  EXPECT_GT(all_bank_refreshes, 2u);
  // The stream loses less to per-bank refreshes than to all-bank ones.
  EXPECT_LT(per_bank_end, all_bank_end);
  EXPECT_GE(per_bank_end, plain_end);
}

TEST(MemDramChannel, IdleChannelNeverTicks) {
  Bench b(test_config());
  b.sm.push(0, read(0, 1));
  b.engine.run();
  // Arrival (ACT), the cycle after it, the RD, the cycle after it, and the response: never the
  // idle cycles between.
  EXPECT_EQ(b.channel.tick_count(), 5u);
}

TEST(MemDramChannel, BadConfigNamesTheField) {
  Engine engine;
  const auto& d = engine.add_clock_domain("memory", 1'000'000);
  const auto m = make_address_mapping("ro_ba_bg_co_ch", geometry());
  const auto expect_named = [&](const DramChannelConfig& config, const std::string& field) {
    try {
      DramChannel ch("dram", d, config, *m, 0);
      FAIL() << "no throw";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  DramChannelConfig c = test_config();
  c.burst_length = 8;
  expect_named(c, "dram.burst_length");
  c = test_config();
  c.write_drain_low = c.write_drain_high;
  EXPECT_THROW(DramChannel("dram", d, c, *m, 0), InputError);
  c = test_config();
  c.read_queue_entries = 0;
  EXPECT_THROW(DramChannel("dram", d, c, *m, 0), InputError);
  c = test_config();
  c.timing.ccd_s_cycles = 1;
  EXPECT_THROW(DramChannel("dram", d, c, *m, 0), InputError);
  c = test_config();
  c.deferred_write_share = 1.5;
  expect_named(c, "hbm.deferred_write_share");
  c = test_config();
  c.scheduler = "nope";
  EXPECT_THROW(DramChannel("dram", d, c, *m, 0), InputError);
  EXPECT_THROW(DramChannel("dram", d, test_config(), *m, 1), InputError);
  c = test_config();
  c.timing.refi_cycles = 100;
  try {
    DramChannel ch("dram", d, c, *m, 0);
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "dram.timing.rfc_cycles: expected 0 < tRFC < tREFI (100), got 0");
  }
}

}  // namespace
}  // namespace warpsim::mem
