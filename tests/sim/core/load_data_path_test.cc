// Loads' data on the shared-memory data path (SmMemoryConfig::l1_load_data_uses_shared_path,
// MioPipe::return_load_data): exact completion cycles of global loads beside shared accesses.
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

const traces::OpcodeInfo kLdg = opcode(MemSpace::kGlobal, AccessKind::kLoad);
const traces::OpcodeInfo kLds = opcode(MemSpace::kShared, AccessKind::kLoad);

constexpr engine::Cycle kMemory = 100;         // mock latency
constexpr engine::Cycle kMiss = 1 + kMemory + 1;  // ports + memory, fill 0
constexpr engine::Cycle kHit = 40;             // SmMemoryConfig's default l1_hit_latency_cycles
constexpr engine::Cycle kShared = 29;          // its shared_latency_cycles

SmMemoryConfig shared_path(bool on) {
  SmMemoryConfig config;
  config.l1_load_data_uses_shared_path = on;
  return config;
}

// Lane i reads float tile[i][0] of a 32 x 32 tile: 32 wavefronts.
testing::Lanes column32() { return strided(0x100, 128); }

TEST(CoreLoadDataPath, AnUnloadedLoadCompletesAsWithoutThePath) {
  for (const bool on : {false, true}) {
    Bench bench(shared_path(on));
    const auto miss = bench.add(0, kLdg, strided(0x1000, 4));
    const auto hit = bench.add(500, kLdg, strided(0x1000, 4));
    // A 16-byte load over four lines: four wavefronts, still done when its last line is ready.
    const auto wide = bench.add(1000, kLdg, strided(0x4000, 16));
    const auto wide_hit = bench.add(2000, kLdg, strided(0x4000, 16));
    bench.run();
    EXPECT_EQ(bench.done(miss), kMiss) << on;
    EXPECT_EQ(bench.done(hit), 500 + kHit) << on;
    EXPECT_EQ(bench.done(wide), 1000 + 3 + kMiss) << on;  // the fourth line is looked up 3 later
    EXPECT_EQ(bench.done(wide_hit), 2000 + 3 + kHit) << on;
  }
}

TEST(CoreLoadDataPath, LoadDataWaitsInLineWithItsSubPartitionsAccesses) {
  // Sub-partition 1's 32-way shared load holds the path from 500 to 531. Sub-partition 0 issued
  // an L1 hit at 500 (data ready at 540) and 32-way shared loads at 520 and 550: the first takes
  // the path at 532; at 564 the load's data, ready before the second load was issued, moves
  // first, and the second load follows at 565.
  for (const bool on : {false, true}) {
    Bench bench(shared_path(on));
    bench.add(0, kLdg, strided(0x1000, 4));
    const auto other = bench.add(500, kLds, column32(), 0xffffffffu, 1);
    const auto hit = bench.add(500, kLdg, strided(0x1000, 4), 0xffffffffu, 0);
    const auto early = bench.add(520, kLds, column32(), 0xffffffffu, 0);
    const auto late = bench.add(550, kLds, column32(), 0xffffffffu, 0);
    bench.run();
    EXPECT_EQ(bench.done(other), 500 + kShared + 31);
    EXPECT_EQ(bench.done(early), 532 + kShared + 31);
    EXPECT_EQ(bench.done(hit), on ? 564u : 500 + kHit);
    EXPECT_EQ(bench.done(late), (on ? 565u : 564u) + kShared + 31);
  }
}

TEST(CoreLoadDataPath, LoadDataTakesItsSubPartitionsTurn) {
  // Sub-partition 1's 32-way shared load holds the path from 500 to 531, then sub-partition 3's
  // (issued at 510) from 532 to 563. Sub-partition 2's L1 hit has its data ready at 540, and
  // sub-partition 0 issued a 32-way shared load at 510: at 564 the round robin comes to
  // sub-partition 0 before 2, so the load's data moves after that load, at 596.
  Bench bench(shared_path(true));
  bench.add(0, kLdg, strided(0x1000, 4));
  bench.add(500, kLds, column32(), 0xffffffffu, 1);
  const auto hit = bench.add(500, kLdg, strided(0x1000, 4), 0xffffffffu, 2);
  const auto third = bench.add(510, kLds, column32(), 0xffffffffu, 3);
  const auto zeroth = bench.add(510, kLds, column32(), 0xffffffffu, 0);
  bench.run();
  EXPECT_EQ(bench.done(third), 532 + kShared + 31);
  EXPECT_EQ(bench.done(zeroth), 564 + kShared + 31);
  EXPECT_EQ(bench.done(hit), 596u);
}

TEST(CoreLoadDataPath, LoadDataWaitsForTheTurnsBeforeIts) {
  // A 16-byte load's four lines fill at kMiss to kMiss + 3. A 32-way shared load from
  // sub-partition 1 took the path at kMiss; at kMiss + 32 sub-partition 2's, issued at kMiss + 10,
  // comes before the load's data in the round robin, which then moves its four wavefronts.
  Bench bench(shared_path(true));
  const auto wide = bench.add(0, kLdg, strided(0x4000, 16));
  const auto before = bench.add(kMiss, kLds, column32(), 0xffffffffu, 1);
  const auto after = bench.add(kMiss + 10, kLds, column32(), 0xffffffffu, 2);
  bench.run();
  EXPECT_EQ(bench.done(before), kMiss + kShared + 31);
  EXPECT_EQ(bench.done(after), kMiss + 32 + kShared + 31);
  EXPECT_EQ(bench.done(wide), kMiss + 64 + 3);
}

}  // namespace
}  // namespace warpsim::core
