#include "sim/core/coalescer.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "arch/error.h"

namespace warpsim::core {
namespace {

using Addresses = std::array<std::uint64_t, kWarpLanes>;
constexpr std::uint32_t kAllLanes = 0xffffffffu;

struct Reference {
  std::set<std::uint64_t> sectors;               // sector byte addresses
  std::map<std::uint64_t, std::uint32_t> lines;  // line byte address -> sector mask
};

// Independent reference: every byte of every active lane, bucketed into sectors and lines.
Reference reference(std::uint32_t mask, const Addresses& addresses, int width, int line = 128,
                    int sector = 32) {
  Reference result;
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    if (((mask >> lane) & 1u) == 0) continue;
    for (int byte = 0; byte < width; ++byte) {
      const std::uint64_t address = addresses[lane] + byte;
      result.sectors.insert(address / sector * sector);
      result.lines[address / line * line] |= 1u << (address % line / sector);
    }
  }
  return result;
}

void expect_matches(const CoalescedAccess& access, const Reference& expected) {
  ASSERT_EQ(access.sector_count, static_cast<int>(expected.sectors.size()));
  ASSERT_EQ(access.line_count, static_cast<int>(expected.lines.size()));
  const std::vector<std::uint64_t> sectors(access.sector_addresses().begin(),
                                           access.sector_addresses().end());
  EXPECT_EQ(sectors, std::vector<std::uint64_t>(expected.sectors.begin(), expected.sectors.end()));
  int i = 0;
  for (const auto& [line, sector_mask] : expected.lines) {
    EXPECT_EQ(access.line_accesses()[i].line_address, line);
    EXPECT_EQ(access.line_accesses()[i].sector_mask, sector_mask);
    ++i;
  }
}

Addresses strided(std::uint64_t base, std::uint64_t stride_bytes) {
  Addresses addresses{};
  for (int lane = 0; lane < kWarpLanes; ++lane) addresses[lane] = base + lane * stride_bytes;
  return addresses;
}

TEST(CoreCoalescer, CoalescedFloatsTouchOneLine) {
  const Coalescer coalescer({});
  CoalescedAccess access;
  coalescer.coalesce(kAllLanes, strided(0x1000, 4), 4, access);
  EXPECT_EQ(access.requests, 1);
  EXPECT_EQ(access.sector_count, 4);
  EXPECT_EQ(access.line_count, 1);
  EXPECT_EQ(access.lines[0].line_address, 0x1000u);
  EXPECT_EQ(access.lines[0].sector_mask, 0xfu);
  EXPECT_EQ(access.sectors[0], 0x1000u);
  EXPECT_EQ(access.sectors[3], 0x1060u);
}

TEST(CoreCoalescer, StridedFloats) {
  // Stride s floats spans 32 x 4 s bytes: sectors = min(32, 4 s), lines = 32 x 4 s / 128.
  const Coalescer coalescer({});
  CoalescedAccess access;
  for (auto [stride, sectors, lines] :
       {std::tuple{1, 4, 1}, std::tuple{2, 8, 2}, std::tuple{4, 16, 4}, std::tuple{8, 32, 8},
        std::tuple{32, 32, 32}}) {
    const Addresses addresses = strided(0x10000, 4 * stride);
    coalescer.coalesce(kAllLanes, addresses, 4, access);
    EXPECT_EQ(access.sector_count, sectors) << "stride " << stride;
    EXPECT_EQ(access.line_count, lines) << "stride " << stride;
    expect_matches(access, reference(kAllLanes, addresses, 4));
  }
}

TEST(CoreCoalescer, StraddlingAccessesTouchBothSectorsAndLines) {
  const Coalescer coalescer({});
  CoalescedAccess access;
  Addresses addresses{};
  addresses[0] = 28;  // 8 bytes: sectors 0 and 32 of line 0
  coalescer.coalesce(0x1u, addresses, 8, access);
  EXPECT_EQ(access.sector_count, 2);
  EXPECT_EQ(access.line_count, 1);
  EXPECT_EQ(access.lines[0].sector_mask, 0x3u);
  addresses[0] = 120;  // 16 bytes: sector 96 of line 0 and sector 128 of line 128
  coalescer.coalesce(0x1u, addresses, 16, access);
  EXPECT_EQ(access.sector_count, 2);
  EXPECT_EQ(access.line_count, 2);
  EXPECT_EQ(access.sectors[0], 96u);
  EXPECT_EQ(access.sectors[1], 128u);
  EXPECT_EQ(access.lines[0].sector_mask, 0x8u);
  EXPECT_EQ(access.lines[1].line_address, 128u);
  EXPECT_EQ(access.lines[1].sector_mask, 0x1u);
  addresses[0] = 24;  // 8 bytes ending exactly at the boundary: one sector
  coalescer.coalesce(0x1u, addresses, 8, access);
  EXPECT_EQ(access.sector_count, 1);
}

TEST(CoreCoalescer, InactiveLanesAreIgnored) {
  const Coalescer coalescer({});
  CoalescedAccess access;
  coalescer.coalesce(0, strided(0, 4), 4, access);
  EXPECT_EQ(access.requests, 0);
  EXPECT_EQ(access.sector_count, 0);
  EXPECT_EQ(access.line_count, 0);
  // Every other lane of a strided-by-32-floats access: 16 lines.
  coalescer.coalesce(0x55555555u, strided(0, 128), 4, access);
  EXPECT_EQ(access.requests, 1);
  EXPECT_EQ(access.sector_count, 16);
  EXPECT_EQ(access.line_count, 16);
}

TEST(CoreCoalescer, MatchesReferenceOnRandomPatterns) {
  const Coalescer coalescer({});
  CoalescedAccess access;
  std::mt19937_64 rng(2024);
  int checked = 0;
  for (int width : {1, 2, 4, 8, 16}) {
    for (int trial = 0; trial < 1000; ++trial) {
      const std::uint64_t span = std::uint64_t{128} << (trial % 14);
      const bool aligned = trial % 3 != 0;
      const std::uint64_t base = rng() % (std::uint64_t{1} << 40);
      Addresses addresses{};
      for (auto& address : addresses) {
        address = base + rng() % span;
        if (aligned) address -= address % width;
      }
      const std::uint32_t mask = trial % 2 == 0 ? kAllLanes : static_cast<std::uint32_t>(rng());
      SCOPED_TRACE("width " + std::to_string(width) + " trial " + std::to_string(trial));
      coalescer.coalesce(mask, addresses, width, access);
      EXPECT_EQ(access.requests, mask != 0 ? 1 : 0);
      expect_matches(access, reference(mask, addresses, width));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 5000);
}

TEST(CoreCoalescer, UnitStrideFullWarpsMatchReferenceAtEveryOffset) {
  for (auto [line, sector] : {std::pair{128, 32}, std::pair{64, 32}, std::pair{128, 16},
                              std::pair{512, 16}}) {
    const Coalescer coalescer({line, sector});
    CoalescedAccess access;
    for (int width : {1, 2, 4, 8, 16}) {
      for (std::uint64_t base = 1024; base < 1024 + 2 * 512; base += 5) {
        const Addresses addresses = strided(base, static_cast<std::uint64_t>(width));
        SCOPED_TRACE("line " + std::to_string(line) + " width " + std::to_string(width) +
                     " base " + std::to_string(base));
        coalescer.coalesce(kAllLanes, addresses, width, access);
        EXPECT_EQ(access.requests, 1);
        expect_matches(access, reference(kAllLanes, addresses, width, line, sector));
      }
    }
  }
}

TEST(CoreCoalescer, MatchesReferenceForOtherGeometries) {
  std::mt19937_64 rng(99);
  CoalescedAccess access;
  for (auto [line, sector] : {std::pair{64, 32}, std::pair{128, 16}, std::pair{256, 32},
                              std::pair{32, 32}, std::pair{512, 16}}) {
    const Coalescer coalescer({line, sector});
    for (int width : {1, 4, 8, 16}) {
      for (int trial = 0; trial < 300; ++trial) {
        Addresses addresses{};
        for (auto& address : addresses) address = rng() % (std::uint64_t{256} << (trial % 8));
        const auto mask = static_cast<std::uint32_t>(rng());
        SCOPED_TRACE("line " + std::to_string(line) + " sector " + std::to_string(sector));
        coalescer.coalesce(mask, addresses, width, access);
        expect_matches(access, reference(mask, addresses, width, line, sector));
      }
    }
  }
}

TEST(CoreCoalescer, RejectsInvalidWidthsAndGeometries) {
  const Coalescer coalescer({});
  CoalescedAccess access;
  for (int width : {0, 3, 32}) {
    try {
      coalescer.coalesce(kAllLanes, strided(0, 4), width, access);
      FAIL() << "width " << width << " accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("width " + std::to_string(width)), std::string::npos)
          << error.what();
    }
  }
  for (auto [line, sector, field] :
       {std::tuple{128, 8, "'sector_bytes'"}, std::tuple{128, 48, "'sector_bytes'"},
        std::tuple{100, 32, "'line_bytes'"}, std::tuple{16, 32, "'line_bytes'"},
        std::tuple{1024, 16, "'line_bytes'"}}) {
    try {
      Coalescer bad({line, sector});
      FAIL() << "geometry " << line << "/" << sector << " accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(field), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace warpsim::core
