// When a store has left the SM (SmMemoryConfig::l1_store_complete_cycles,
// l1_store_data_uses_shared_path): exact completion cycles of global stores and reductions, alone
// and behind shared accesses on the data path.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/core/sm_memory_config.h"
#include "tests/sim/core/mock_memory.h"

namespace warpsim::core {
namespace {

using testing::Bench;
using testing::opcode;
using testing::strided;
using traces::AccessKind;
using traces::MemSpace;

const traces::OpcodeInfo kStg = opcode(MemSpace::kGlobal, AccessKind::kStore);
const traces::OpcodeInfo kRedg = opcode(MemSpace::kGlobal, AccessKind::kReduction);
const traces::OpcodeInfo kLds = opcode(MemSpace::kShared, AccessKind::kLoad);

constexpr engine::Cycle kShared = 29;  // SmMemoryConfig's default shared_latency_cycles

SmMemoryConfig leaving(int cycles, bool data_path) {
  SmMemoryConfig config;
  config.l1_store_complete_cycles = cycles;
  config.l1_store_data_uses_shared_path = data_path;
  return config;
}

// Lane i reads float tile[i][0] of a 32 x 32 tile: 32 wavefronts.
testing::Lanes column32() { return strided(0x100, 128); }

TEST(CoreStoreDataPath, AStoreLeavesItsCompleteCyclesAfterItsLastRequest) {
  for (const bool data_path : {false, true}) {
    Bench bench(leaving(20, data_path));
    const auto one = bench.add(3, kStg, strided(0x1000, 4));
    // Two lines: the second is looked up a cycle after the first.
    const auto two = bench.add(100, kStg, strided(0x4000, 8));
    const auto red = bench.add(200, kRedg, strided(0x8000, 4));
    bench.run();
    EXPECT_EQ(bench.done(one), 3u + 20) << data_path;
    EXPECT_EQ(bench.done(two), 101u + 20) << data_path;
    EXPECT_EQ(bench.done(red), 200u + 20) << data_path;
    EXPECT_EQ(bench.memory().received.size(), 4u);  // the stores' requests leave at once
  }
}

TEST(CoreStoreDataPath, TheDefaultLeavesTheNextCycle) {
  const SmMemoryConfig config;
  EXPECT_EQ(config.l1_store_complete_cycles, 1);
  EXPECT_FALSE(config.l1_store_data_uses_shared_path);
  Bench bench(config);
  const auto store = bench.add(3, kStg, strided(0x1000, 4));
  bench.run();
  EXPECT_EQ(bench.done(store), 4u);
}

TEST(CoreStoreDataPath, StoreDataWaitsInLineWithItsSubPartitionsAccesses) {
  // Sub-partition 0's 32-way shared load holds the path from 500 to 531. Its store issued at 501
  // has its data ready at 502; with the data path it moves at 532, the cycle the path frees, and
  // a two-line store ready at 503 and 504 moves its wavefronts at 533 and 534.
  for (const bool data_path : {false, true}) {
    Bench bench(leaving(1, data_path));
    const auto shared = bench.add(500, kLds, column32(), 0xffffffffu, 0);
    const auto store = bench.add(501, kStg, strided(0x1000, 4), 0xffffffffu, 0);
    const auto wide = bench.add(502, kStg, strided(0x4000, 8), 0xffffffffu, 0);
    bench.run();
    EXPECT_EQ(bench.done(shared), 500 + kShared + 31);
    EXPECT_EQ(bench.done(store), data_path ? 532u : 502u);
    EXPECT_EQ(bench.done(wide), data_path ? 534u : 504u);
  }
}

TEST(CoreStoreDataPath, AnotherSubPartitionsStoreTakesItsTurn) {
  // Sub-partition 1's 32-way shared load holds the path from 500 to 531, sub-partition 2's
  // (issued at 505) from 532 to 563. Sub-partition 3's store, ready at 502, comes after both in
  // the round robin that follows sub-partition 1.
  Bench bench(leaving(1, true));
  bench.add(500, kLds, column32(), 0xffffffffu, 1);
  const auto second = bench.add(505, kLds, column32(), 0xffffffffu, 2);
  const auto store = bench.add(501, kStg, strided(0x1000, 4), 0xffffffffu, 3);
  bench.run();
  EXPECT_EQ(bench.done(second), 532 + kShared + 31);
  EXPECT_EQ(bench.done(store), 564u);
}

}  // namespace
}  // namespace warpsim::core
