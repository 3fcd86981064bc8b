#include "sim/core/tma_unit.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/sim/core/mock_memory.h"

namespace warpsim::core {
namespace {

using testing::Bench;
using testing::opcode;
using traces::AccessKind;
using traces::MemSpace;

traces::OpcodeInfo copy_opcode(MemSpace space, AccessKind access) {
  traces::OpcodeInfo info = opcode(space, access, 0);
  info.flags = traces::kOpAsync | traces::kOpTma | traces::kOpUniform;
  return info;
}

const traces::OpcodeInfo kTmaLoad = copy_opcode(MemSpace::kGlobalToShared, AccessKind::kLoad);
const traces::OpcodeInfo kTmaStore = copy_opcode(MemSpace::kSharedToGlobal, AccessKind::kStore);

// A 4 KB load copy: 32 whole-line reads around the L1, one a cycle (the shared-memory banks take
// 128 B a cycle), each reaching the memory a port cycle after it leaves; the copy completes for
// its warp the cycle after its last read has left.
TEST(CoreTmaUnit, LoadCopySendsOneWholeLineACycleAroundTheL1) {
  Bench bench;
  const auto id = bench.add_copy(10, kTmaLoad, {0x10000}, 4096);
  bench.run();
  const auto& received = bench.memory().received;
  ASSERT_EQ(received.size(), 32u);
  for (std::size_t i = 0; i < received.size(); ++i) {
    EXPECT_EQ(received[i].request.line_address, 0x10000u + 128 * i);
    EXPECT_EQ(received[i].request.sector_mask, 0xFu);
    EXPECT_EQ(received[i].request.op, mem::MemOp::kRead);
    EXPECT_EQ(received[i].arrived, 11u + i);
  }
  EXPECT_EQ(bench.done(id), 10u + 31 + 1);
  EXPECT_EQ(bench.counters().tma_ld_bytes, 4096u);
  EXPECT_EQ(bench.counters().read_requests, 32u);
  EXPECT_EQ(bench.counters().read_sectors, 128u);
  EXPECT_EQ(bench.counters().global_ld.requests, 0u);  // not an LSU access
  EXPECT_EQ(bench.pipeline().lsu().l1().valid_sectors(0x10000), 0u);
  EXPECT_TRUE(bench.pipeline().idle());
}

// A store copy of two 96-byte rows, one unaligned: each row's lines with the sectors it touches,
// the completely written ones marked full, and the bytes it writes.
TEST(CoreTmaUnit, StoreCopyWritesEachRowsSectors) {
  Bench bench;
  const auto id = bench.add_copy(0, kTmaStore, {0x1010, 0x2000}, 192);
  bench.run();
  const auto& received = bench.memory().received;
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].request.line_address, 0x1000u);
  EXPECT_EQ(received[0].request.op, mem::MemOp::kWrite);
  EXPECT_EQ(received[0].request.sector_mask, 0xFu);
  EXPECT_EQ(received[0].request.full_write_mask, 0x6u);
  EXPECT_EQ(received[0].request.write_bytes, 96u);
  EXPECT_EQ(received[1].request.line_address, 0x2000u);
  EXPECT_EQ(received[1].request.sector_mask, 0x7u);
  EXPECT_EQ(received[1].request.full_write_mask, 0x7u);
  EXPECT_EQ(bench.done(id), 2u);
  EXPECT_EQ(bench.counters().tma_st_bytes, 192u);
  EXPECT_EQ(bench.counters().write_sectors, 7u);
}

// Copies go in order: a second copy issued with the first sends its lines after the first's.
TEST(CoreTmaUnit, CopiesAreSentInOrder) {
  Bench bench;
  const auto first = bench.add_copy(0, kTmaLoad, {0x40000}, 1024);
  const auto second = bench.add_copy(0, kTmaLoad, {0x80000}, 512);
  bench.run();
  const auto& received = bench.memory().received;
  ASSERT_EQ(received.size(), 12u);
  EXPECT_EQ(received[7].request.line_address, 0x40000u + 7 * 128);
  EXPECT_EQ(received[8].request.line_address, 0x80000u);
  EXPECT_EQ(bench.done(first), 8u);
  EXPECT_EQ(bench.done(second), 12u);
}

// A copy without TMA fields (a trace that did not record them) moves nothing and still
// completes; one whose bytes are all out of bounds too.
TEST(CoreTmaUnit, CopiesWithoutBytesMoveNothing) {
  Bench bench;
  const auto none = bench.add_copy(5, kTmaLoad, {}, 0);
  bench.run();
  EXPECT_TRUE(bench.memory().received.empty());
  EXPECT_EQ(bench.done(none), 6u);
}

}  // namespace
}  // namespace warpsim::core
