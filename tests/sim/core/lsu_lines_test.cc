#include "sim/core/lsu_lines.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>

#include "arch/error.h"

namespace warpsim::core {
namespace {

using Lanes = std::array<std::uint64_t, kWarpLanes>;

struct ReferenceLine {
  std::uint8_t sectors = 0;
  std::set<std::uint64_t> bytes;
};

// Every byte of every active lane, bucketed into lines.
std::map<std::uint64_t, ReferenceLine> reference(std::uint32_t mask, const Lanes& lanes,
                                                 int width) {
  std::map<std::uint64_t, ReferenceLine> lines;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if ((mask >> lane & 1u) == 0) continue;
    for (int byte = 0; byte < width; ++byte) {
      const std::uint64_t address = lanes[static_cast<std::size_t>(lane)] + byte;
      ReferenceLine& line = lines[address / 128 * 128];
      line.sectors = static_cast<std::uint8_t>(line.sectors | 1u << (address % 128 / 32));
      line.bytes.insert(address);
    }
  }
  return lines;
}

void expect_matches(const LsuLines& out, std::uint32_t mask, const Lanes& lanes, int width) {
  const auto expected = reference(mask, lanes, width);
  ASSERT_EQ(out.count, static_cast<int>(expected.size()));
  int i = 0;
  for (const auto& [address, line] : expected) {
    const LsuLine& got = out.lines[static_cast<std::size_t>(i++)];
    EXPECT_EQ(got.line_address, address);
    EXPECT_EQ(got.sectors, line.sectors);
    EXPECT_EQ(got.bytes, line.bytes.size());
    std::uint8_t full = 0;
    for (int s = 0; s < 4; ++s) {
      bool all = true;
      for (int b = 0; b < 32 && all; ++b) all = line.bytes.count(address + 32u * s + b) != 0;
      if (all) full = static_cast<std::uint8_t>(full | 1u << s);
    }
    EXPECT_EQ(got.full, full);
  }
}

TEST(CoreLsuLines, RandomAccessesMatchByteLevelReference) {
  LsuLineBuilder builder({});
  LsuLines out;
  std::mt19937_64 rng(17);
  for (int width : {1, 2, 4, 8, 16, 32, 64, 128}) {
    for (int trial = 0; trial < 60; ++trial) {
      Lanes lanes{};
      const std::uint64_t base = (rng() % 64) * 64;
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        lanes[static_cast<std::size_t>(lane)] =
            trial % 2 == 0 ? base + static_cast<std::uint64_t>(lane) * width
                           : (rng() % 4096) / width * width;
      }
      const auto mask = static_cast<std::uint32_t>(rng());
      builder.build(WarpAccess{mask, lanes.data(), width}, true, out);
      expect_matches(out, mask, lanes, width);
    }
  }
}

TEST(CoreLsuLines, UnitStrideFullWarpsMatchByteLevelReferenceAtEveryOffset) {
  LsuLineBuilder builder({});
  LsuLines out;
  for (int width : {1, 2, 4, 8, 16, 32, 64, 128}) {
    for (std::uint64_t base = 4096; base < 4096 + 160; base += width == 1 ? 1 : 3) {
      Lanes lanes{};
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        lanes[static_cast<std::size_t>(lane)] = base + static_cast<std::uint64_t>(lane) * width;
      }
      SCOPED_TRACE("width " + std::to_string(width) + " base " + std::to_string(base));
      builder.build(WarpAccess{0xffffffffu, lanes.data(), width}, true, out);
      expect_matches(out, 0xffffffffu, lanes, width);
    }
  }
}

TEST(CoreLsuLines, LoadsSkipByteCountsAndMissingAddressesGiveNoLines) {
  LsuLineBuilder builder({});
  LsuLines out;
  Lanes lanes{};
  for (int lane = 0; lane < kWarpLanes; ++lane) lanes[static_cast<std::size_t>(lane)] = 4u * lane;
  builder.build(WarpAccess{0xffffffffu, lanes.data(), 4}, false, out);
  ASSERT_EQ(out.count, 1);
  EXPECT_EQ(out.lines[0].sectors, 0xfu);
  EXPECT_EQ(out.lines[0].bytes, 0u);
  builder.build(WarpAccess{0xffffffffu, nullptr, 4}, true, out);
  EXPECT_EQ(out.count, 0);
}

TEST(CoreLsuLines, UnsupportedWidthsAreInputErrors) {
  LsuLineBuilder builder({});
  LsuLines out;
  Lanes lanes{};
  for (int width : {0, 3, 24, 144}) {
    EXPECT_THROW(builder.build(WarpAccess{1u, lanes.data(), width}, false, out), InputError)
        << width;
  }
}

}  // namespace
}  // namespace warpsim::core
