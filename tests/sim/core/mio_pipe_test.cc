#include "sim/core/mio_pipe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "tests/sim/core/mock_memory.h"

namespace warpsim::core {
namespace {

using testing::Bench;
using testing::Lanes;
using testing::opcode;
using testing::strided;
using traces::AccessKind;
using traces::MemSpace;

const traces::OpcodeInfo kLds = opcode(MemSpace::kShared, AccessKind::kLoad);
const traces::OpcodeInfo kSts = opcode(MemSpace::kShared, AccessKind::kStore);
const traces::OpcodeInfo kAtoms = opcode(MemSpace::kShared, AccessKind::kAtomic);
const traces::OpcodeInfo kShfl = opcode(MemSpace::kNone, AccessKind::kNone, 0, arch::SHUFFLE);
const traces::OpcodeInfo kLdc = opcode(MemSpace::kConstant, AccessKind::kLoad);

// Column j of float tile[32][width]: lane i reads tile[i][j].
Lanes column(int width, int j = 0) { return strided(0x100 + 4u * j, 4u * width); }

TEST(CoreMioPipe, ConflictFreeColumnOfPaddedTileTakesTheSharedLatency) {
  Bench bench;
  const auto id = bench.add(10, kLds, column(33));
  bench.run();
  EXPECT_EQ(bench.done(id), 10u + 29u);
  EXPECT_EQ(bench.counters().shared_ld_requests, 1u);
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, 1u);
  EXPECT_EQ(bench.counters().shared_ld_bank_conflicts, 0u);
  EXPECT_TRUE(bench.memory().received.empty());
}

TEST(CoreMioPipe, ColumnOfUnpaddedTileIs32WayAndFinishes31CyclesLater) {
  Bench padded;
  const auto fast = padded.add(10, kLds, column(33));
  padded.run();
  Bench unpadded;
  const auto slow = unpadded.add(10, kLds, column(32));
  unpadded.run();
  EXPECT_EQ(unpadded.done(slow), padded.done(fast) + 31);
  EXPECT_EQ(unpadded.counters().shared_ld_wavefronts, 32u);
  EXPECT_EQ(unpadded.counters().shared_ld_bank_conflicts, 31u);
}

TEST(CoreMioPipe, BroadcastIsFree) {
  Bench bench;
  const auto id = bench.add(0, kLds, strided(0x40, 0));
  bench.run();
  EXPECT_EQ(bench.done(id), 29u);
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, 1u);
  EXPECT_EQ(bench.counters().shared_ld_bank_conflicts, 0u);
}

TEST(CoreMioPipe, StoresAndAtomicsCountSeparately) {
  Bench bench;
  bench.add(0, kSts, column(32));
  bench.add(100, kAtoms, column(33));
  bench.run();
  EXPECT_EQ(bench.counters().shared_st_requests, 1u);
  EXPECT_EQ(bench.counters().shared_st_wavefronts, 32u);
  EXPECT_EQ(bench.counters().shared_st_bank_conflicts, 31u);
  EXPECT_EQ(bench.counters().shared_atom_requests, 1u);
  EXPECT_EQ(bench.counters().shared_atom_wavefronts, 1u);
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, 0u);
  EXPECT_EQ(bench.done(0), 29u + 31u);
  EXPECT_EQ(bench.done(1), 129u);
}

TEST(CoreMioPipe, WavefrontsHoldTheDataPath) {
  // Two 32-way accesses from two sub-partitions in the same cycle: the second starts when the
  // first has moved its 32 wavefronts.
  Bench bench;
  const auto first = bench.add(5, kLds, column(32), 0xffffffffu, 0);
  const auto second = bench.add(5, kLds, column(32), 0xffffffffu, 1);
  const auto third = bench.add(6, kLds, column(33), 0xffffffffu, 2);
  bench.run();
  EXPECT_EQ(bench.done(first), 5u + 29u + 31u);
  EXPECT_EQ(bench.done(second), 5u + 32u + 29u + 31u);
  EXPECT_EQ(bench.done(third), 5u + 64u + 29u);
}

TEST(CoreMioPipe, ConflictedLoadsHoldThePathLonger) {
  // The H200's conflicted loads take their wavefronts + about 2 cycles of the data path
  // (validate/reference/h200/lds_rate.tsv); conflict-free loads and conflicted stores do not.
  SmMemoryConfig config;
  config.shared_conflict_extra_cycles = 2;
  Bench bench(config);
  const auto first = bench.add(5, kLds, column(32), 0xffffffffu, 0);
  const auto second = bench.add(5, kLds, column(32), 0xffffffffu, 1);
  const auto third = bench.add(6, kLds, column(33), 0xffffffffu, 2);
  const auto fourth = bench.add(6, kSts, column(32), 0xffffffffu, 3);
  const auto fifth = bench.add(6, kLds, column(33), 0xffffffffu, 0);
  bench.run();
  EXPECT_EQ(bench.done(first), 5u + 29u + 33u);
  EXPECT_EQ(bench.done(second), 5u + 34u + 29u + 33u);
  EXPECT_EQ(bench.done(third), 5u + 68u + 29u);
  EXPECT_EQ(bench.done(fourth), 5u + 69u + 29u + 31u);
  EXPECT_EQ(bench.done(fifth), 5u + 101u + 29u);
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, 66u);  // the counters keep the wavefronts
}

TEST(CoreMioPipe, FullQueueRefusesWithMioBackpressure) {
  SmMemoryConfig config;
  config.mio_queue_depth_per_smsp = 1;
  config.mio_queue_depth_per_sm = 1;
  Bench bench(config);
  const auto a = bench.add(0, kLds, column(32));  // starts at once, holds the path 32 cycles
  const auto b = bench.add(1, kLds, column(32));  // waits in the queue
  const auto c = bench.add(1, kLds, column(33));  // refused until b starts at cycle 32
  bench.run();
  ASSERT_FALSE(bench.sm().refusals.empty());
  EXPECT_EQ(bench.sm().refusals.front().first, 1u);
  EXPECT_EQ(bench.sm().refusals.front().second, PipelineBackpressure::kMio);
  EXPECT_EQ(bench.sm().issued_at[2], 32u);
  EXPECT_EQ(bench.done(a), 60u);
  EXPECT_EQ(bench.done(b), 32u + 60u);
  EXPECT_EQ(bench.done(c), 64u + 29u);
}

TEST(CoreMioPipe, ShufflesAndConstantLoads) {
  Bench bench;
  const auto shfl = bench.add(0, kShfl, strided(0, 0), 0xffffffffu, 0, false);
  Lanes three = strided(0x10, 0);
  three[3] = 0x20;
  three[9] = 0x30;
  three[20] = 0x20;
  const auto ldc = bench.add(1, kLdc, three, 0xffffffffu, 1);
  bench.run();
  EXPECT_EQ(bench.done(shfl), 23u);
  // Starts at 1, three distinct addresses: 3 data-path cycles, latency 23 + 2.
  EXPECT_EQ(bench.done(ldc), 1u + 23u + 2u);
  EXPECT_EQ(bench.counters().shuffle_ops, 1u);
  EXPECT_EQ(bench.counters().constant_requests, 1u);
  EXPECT_EQ(bench.counters().constant_wavefronts, 3u);
}

TEST(CoreMioPipe, GenericAccessInsideTheSharedWindowUsesSharedMemory) {
  const traces::OpcodeInfo ld = opcode(MemSpace::kGeneric, AccessKind::kLoad);
  Bench bench;
  bench.pipeline().begin_kernel({.shared_carveout_bytes = 0,
                                 .shared_window_base = 0x1000000,
                                 .shared_window_bytes = 0x10000});
  const auto shared = bench.add(0, ld, strided(0x1000000, 4 * 32));
  const auto global = bench.add(100, ld, strided(0x2000000, 4));
  bench.run();
  EXPECT_EQ(bench.done(shared), 29u + 31u);
  EXPECT_EQ(bench.counters().shared_ld_bank_conflicts, 31u);
  EXPECT_EQ(bench.counters().global_ld.requests, 1u);
  EXPECT_EQ(bench.memory().received.size(), 1u);
  EXPECT_GT(bench.done(global), 200u);
}

TEST(CoreMioPipe, MissingAddressesAreTheIdealPattern) {
  Bench bench;
  const traces::OpcodeInfo lds128 = opcode(MemSpace::kShared, AccessKind::kLoad, 16);
  const auto id = bench.add(0, lds128, column(32), 0xffffffffu, 0, false);
  bench.run();
  // 16-byte accesses: four quarter-warp phases, no conflicts.
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, 4u);
  EXPECT_EQ(bench.done(id), 29u + 3u);
}

TEST(CoreMioPipe, WideAccessesSplitIntoSixteenBytePieces) {
  Bench bench;
  const traces::OpcodeInfo lds256 = opcode(MemSpace::kShared, AccessKind::kLoad, 32);
  bench.add(0, lds256, strided(0, 32));
  bench.run();
  // Each 16-byte piece: 4 phases of 8 lanes whose 16-byte words cover all 32 banks twice.
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, 2u * 4u * 2u);
}

TEST(CoreMioPipe, MatrixLoadMovesOnlyTheRowsOfItsAddressLanes) {
  // LDSM.16.MT88.2: lanes 0-15 give the two matrices' 16 row addresses (256 bytes, 2
  // wavefronts), as Nsight Compute counts it on the H200 (validate/reference/h200/source_sass.csv,
  // flash_attention); the other lanes' addresses are ignored.
  traces::OpcodeInfo ldsm = opcode(MemSpace::kShared, AccessKind::kLoad, 16);
  ldsm.address_lanes = 16;
  Bench bench;
  const auto id = bench.add(0, ldsm, strided(0, 16));
  bench.run();
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, 2u);
  EXPECT_EQ(bench.done(id), 29u + 1u);
}

TEST(CoreMioPipe, UnsupportedWidthIsAnInputError) {
  Bench bench;
  const traces::OpcodeInfo lds96 = opcode(MemSpace::kShared, AccessKind::kLoad, 12);
  bench.add(0, lds96, column(33));
  EXPECT_THROW(bench.run(), InputError);
}

// Brute force: 4-byte accesses, one phase; wavefronts = most distinct words in one bank.
int reference_wavefronts(std::uint32_t mask, const Lanes& lanes) {
  std::vector<std::set<std::uint64_t>> banks(32);
  for (int lane = 0; lane < 32; ++lane) {
    if ((mask >> lane & 1u) == 0) continue;
    const std::uint64_t word = lanes[static_cast<std::size_t>(lane)] / 4;
    banks[word % 32].insert(word);
  }
  std::size_t most = 0;
  for (const auto& bank : banks) most = std::max(most, bank.size());
  return static_cast<int>(most);
}

TEST(CoreMioPipe, RandomPatternsMatchBruteForce) {
  std::mt19937_64 rng(7);
  Bench bench;
  std::uint64_t wavefronts = 0;
  std::uint64_t conflicts = 0;
  std::vector<std::uint32_t> ids;
  std::vector<int> expected_ways;
  for (int i = 0; i < 200; ++i) {
    Lanes lanes{};
    const std::uint64_t range = i % 3 == 0 ? 256 : 8192;
    for (auto& address : lanes) address = (rng() % range) * 4;
    const auto mask = static_cast<std::uint32_t>(rng()) | 1u;
    const int ways = reference_wavefronts(mask, lanes);
    wavefronts += static_cast<std::uint64_t>(ways);
    conflicts += static_cast<std::uint64_t>(ways - 1);
    ids.push_back(bench.add(static_cast<engine::Cycle>(i) * 100, kLds, lanes, mask));
    expected_ways.push_back(ways);
  }
  bench.run();
  EXPECT_EQ(bench.counters().shared_ld_wavefronts, wavefronts);
  EXPECT_EQ(bench.counters().shared_ld_bank_conflicts, conflicts);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(bench.done(ids[i]), i * 100 + 29 + static_cast<std::uint64_t>(expected_ways[i] - 1));
  }
}

// wgmma operand reads: an m64n128k16 bf16 HGMMA with both inputs in shared memory reads 6 KB,
// 48 wavefronts of 128 bytes.
TEST(CoreMioPipe, OperandReadsShareTheDataPathEvenlyWithAStore) {
  Bench alone;
  const auto a = alone.add(10, kSts, column(32));  // 32-way: 32 wavefronts
  alone.run();
  Bench shared;
  EXPECT_EQ(shared.pipeline().read_shared_operands(6144, 0), 48u);
  const auto s = shared.add(10, kSts, column(32));
  shared.run();
  // By cycle 10 the idle path has read 10 of the 48; the store then alternates with the other
  // 38, one for each of its 32 wavefronts.
  EXPECT_EQ(shared.done(s), alone.done(a) + 32);
  EXPECT_EQ(shared.counters().shared_tensor_wavefronts, 48u);
  EXPECT_EQ(shared.counters().shared_st_wavefronts, 32u);
}

TEST(CoreMioPipe, OperandReadsAnIdlePathFinishedDelayNothing) {
  Bench alone;
  const auto a = alone.add(60, kSts, column(32));
  alone.run();
  Bench shared;
  shared.pipeline().read_shared_operands(6144, 0);
  const auto s = shared.add(60, kSts, column(32));
  shared.run();
  EXPECT_EQ(shared.done(s), alone.done(a));
}

TEST(CoreMioPipe, OperandReadsQueueBehindAnAccessHoldingThePath) {
  Bench bench;
  bench.add(0, kSts, column(32));
  bench.run();
  // The store held the path for cycles 0-31: reads of 4 KB (B only: A from registers) end at 64.
  EXPECT_EQ(bench.pipeline().read_shared_operands(4096, 5), 32u + 32u);
  EXPECT_EQ(bench.counters().shared_tensor_wavefronts, 32u);
}

}  // namespace
}  // namespace warpsim::core
