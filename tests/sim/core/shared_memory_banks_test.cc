#include "sim/core/shared_memory_banks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "arch/error.h"

namespace warpsim::core {
namespace {

using Addresses = std::array<std::uint64_t, kWarpLanes>;
constexpr std::uint32_t kAllLanes = 0xffffffffu;

// Independent reference: split the warp into phases of (banks x bank width) / width lanes, and in
// each phase enumerate the distinct (bank, word) pairs the active lanes' bytes touch; a phase
// costs the largest number of words any one bank holds.
SharedAccessCost reference_cost(std::uint32_t mask, const Addresses& addresses, int width,
                                int banks = 32, int bank_width = 4) {
  const int lanes_per_phase = std::max(1, std::min(32, banks * bank_width / width));
  SharedAccessCost cost;
  for (int first = 0; first < 32; first += lanes_per_phase) {
    std::set<std::pair<std::uint64_t, std::uint64_t>> pairs;  // (bank, word)
    for (int lane = first; lane < std::min(32, first + lanes_per_phase); ++lane) {
      if (((mask >> lane) & 1u) == 0) continue;
      for (int byte = 0; byte < width; ++byte) {
        const std::uint64_t word = (addresses[lane] + byte) / bank_width;
        pairs.insert({word % banks, word});
      }
    }
    if (pairs.empty()) continue;
    std::map<std::uint64_t, int> words_per_bank;
    int ways = 0;
    for (const auto& [bank, word] : pairs) ways = std::max(ways, ++words_per_bank[bank]);
    cost.wavefronts += ways;
    cost.ideal_wavefronts += 1;
    cost.max_ways = std::max(cost.max_ways, ways);
  }
  cost.bank_conflicts = cost.wavefronts - cost.ideal_wavefronts;
  return cost;
}

void expect_cost(const SharedAccessCost& actual, const SharedAccessCost& expected) {
  EXPECT_EQ(actual.wavefronts, expected.wavefronts);
  EXPECT_EQ(actual.ideal_wavefronts, expected.ideal_wavefronts);
  EXPECT_EQ(actual.bank_conflicts, expected.bank_conflicts);
  EXPECT_EQ(actual.max_ways, expected.max_ways);
}

Addresses strided(std::uint64_t base, std::uint64_t stride_bytes) {
  Addresses addresses{};
  for (int lane = 0; lane < kWarpLanes; ++lane) addresses[lane] = base + lane * stride_bytes;
  return addresses;
}

TEST(CoreSharedMemoryBanks, SeedTileColumnReadIs32WayConflict) {
  // float tile[32][32]; lane i reads tile[i][c]: address (32 i + c) x 4, all in bank c.
  const SharedMemoryBanks banks({});
  for (int c : {0, 5, 31}) {
    const SharedAccessCost cost = banks.access(kAllLanes, strided(4 * c, 32 * 4), 4);
    EXPECT_EQ(cost.wavefronts, 32);
    EXPECT_EQ(cost.bank_conflicts, 31);
    EXPECT_EQ(cost.max_ways, 32);
  }
}

TEST(CoreSharedMemoryBanks, SeedPaddedTileColumnReadIsConflictFree) {
  // float tile[32][33]; lane i reads tile[i][c]: address (33 i + c) x 4, bank (i + c) mod 32.
  const SharedMemoryBanks banks({});
  for (int c : {0, 5, 32}) {
    const SharedAccessCost cost = banks.access(kAllLanes, strided(4 * c, 33 * 4), 4);
    EXPECT_EQ(cost.wavefronts, 1);
    EXPECT_EQ(cost.bank_conflicts, 0);
    EXPECT_EQ(cost.max_ways, 1);
  }
}

TEST(CoreSharedMemoryBanks, ExactCostsOfCommonPatterns) {
  const SharedMemoryBanks banks({});
  // Broadcast: every lane reads one word.
  expect_cost(banks.access(kAllLanes, strided(64, 0), 4), {1, 1, 0, 1});
  // Stride of two floats: banks 0, 2, ..., 30, two words each.
  expect_cost(banks.access(kAllLanes, strided(0, 8), 4), {2, 1, 1, 2});
  // Consecutive doubles: two half-warp phases of 128 B each, conflict-free.
  expect_cost(banks.access(kAllLanes, strided(0, 8), 8), {2, 2, 0, 1});
  // Doubles 16 B apart: each half-warp spans 256 B, two words per bank.
  expect_cost(banks.access(kAllLanes, strided(0, 16), 8), {4, 2, 2, 2});
  // Consecutive float4: four quarter-warp phases, conflict-free.
  expect_cost(banks.access(kAllLanes, strided(0, 16), 16), {4, 4, 0, 1});
  // Consecutive bytes: 32 bytes in 8 words, conflict-free.
  expect_cost(banks.access(kAllLanes, strided(0, 1), 1), {1, 1, 0, 1});
  // Only lanes 0 and 1 active, same bank, different words.
  expect_cost(banks.access(0x3u, strided(0, 128), 4), {2, 1, 1, 2});
  // Only the second half-warp active in an 8-byte access: one phase.
  expect_cost(banks.access(0xffff0000u, strided(0, 8), 8), {1, 1, 0, 1});
  // No active lane: nothing happens.
  expect_cost(banks.access(0, strided(0, 128), 4), {0, 0, 0, 0});
}

TEST(CoreSharedMemoryBanks, MisalignedAccessTouchesEveryCoveredWord) {
  const SharedMemoryBanks banks({});
  // One lane, 8 bytes at address 2: words 0, 1 and 2 in banks 0, 1, 2 -> 1 wavefront.
  Addresses addresses{};
  addresses[0] = 2;
  expect_cost(banks.access(0x1u, addresses, 8), {1, 1, 0, 1});
  // Two lanes in one phase: 4 bytes at 126 (words 31, 32) and at 0 (word 0, bank 0 like 32).
  addresses[1] = 126;
  addresses[0] = 0;
  expect_cost(banks.access(0x3u, addresses, 4), {2, 1, 1, 2});
}

TEST(CoreSharedMemoryBanks, MatchesReferenceOnRandomPatterns) {
  const SharedMemoryBanks banks({});
  std::mt19937_64 rng(12345);
  int checked = 0;
  for (int width : {1, 2, 4, 8, 16}) {
    for (int trial = 0; trial < 1500; ++trial) {
      // Small spans make broadcasts and conflicts common; large spans make them rare.
      const std::uint64_t span = std::uint64_t{64} << (trial % 10);
      const bool aligned = trial % 4 != 0;
      Addresses addresses{};
      for (auto& address : addresses) {
        address = rng() % span;
        if (aligned) address -= address % width;
      }
      const std::uint32_t mask = trial % 3 == 0 ? kAllLanes : static_cast<std::uint32_t>(rng());
      SCOPED_TRACE("width " + std::to_string(width) + " trial " + std::to_string(trial));
      expect_cost(banks.access(mask, addresses, width), reference_cost(mask, addresses, width));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 7500);
}

TEST(CoreSharedMemoryBanks, MatchesReferenceForOtherGeometries) {
  std::mt19937_64 rng(777);
  for (auto [bank_count, bank_width] :
       {std::pair{16, 4}, std::pair{32, 8}, std::pair{64, 4}, std::pair{24, 4}, std::pair{1, 16}}) {
    const SharedMemoryBanks banks({bank_count, bank_width});
    for (int width : {1, 2, 4, 8, 16}) {
      for (int trial = 0; trial < 200; ++trial) {
        Addresses addresses{};
        for (auto& address : addresses) address = rng() % (std::uint64_t{32} << (trial % 8));
        const auto mask = static_cast<std::uint32_t>(rng());
        SCOPED_TRACE("banks " + std::to_string(bank_count) + "x" + std::to_string(bank_width) +
                     " width " + std::to_string(width));
        expect_cost(banks.access(mask, addresses, width),
                    reference_cost(mask, addresses, width, bank_count, bank_width));
      }
    }
  }
}

TEST(CoreSharedMemoryBanks, RejectsInvalidWidthsAndGeometries) {
  const SharedMemoryBanks banks({});
  for (int width : {0, 3, 32, -4}) {
    try {
      banks.access(kAllLanes, strided(0, 4), width);
      FAIL() << "width " << width << " accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("width " + std::to_string(width)), std::string::npos)
          << error.what();
    }
  }
  for (auto [bank_count, bank_width, field] :
       {std::tuple{0, 4, "'banks'"}, std::tuple{65, 4, "'banks'"},
        std::tuple{32, 2, "'bank_width_bytes'"}, std::tuple{32, 12, "'bank_width_bytes'"}}) {
    try {
      SharedMemoryBanks bad({bank_count, bank_width});
      FAIL() << "geometry " << bank_count << "x" << bank_width << " accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(field), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace warpsim::core
