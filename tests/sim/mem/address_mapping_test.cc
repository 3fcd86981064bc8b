#include "sim/mem/address_mapping.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

const DramGeometry kGeometry{.channels = 3,
                             .bank_groups = 2,
                             .banks_per_group = 4,
                             .row_bytes = 1024,
                             .interleave_bytes = 256};

TEST(MemAddressMapping, RowBankGroupColumnChannelFromTheTop) {
  const auto m = make_address_mapping("ro_ba_bg_co_ch", kGeometry);
  DramAddress a = m->map(0);
  EXPECT_EQ(a.channel, 0u);
  EXPECT_EQ(a.row, 0u);
  a = m->map(256 + 40);  // next chunk: next channel
  EXPECT_EQ(a.channel, 1u);
  EXPECT_EQ(a.column, 40u);
  a = m->map(3 * 256 + 8);  // back to channel 0, second chunk of the row
  EXPECT_EQ(a.channel, 0u);
  EXPECT_EQ(a.column, 256u + 8);
  EXPECT_EQ(a.bank_group, 0u);
  // 4 chunks fill a row: then the bank group, the bank, the row change.
  a = m->map(3 * 1024);
  EXPECT_EQ(a.channel, 0u);
  EXPECT_EQ(a.bank_group, 1u);
  EXPECT_EQ(a.bank, 0u);
  a = m->map(3 * 1024 * 2);
  EXPECT_EQ(a.bank_group, 0u);
  EXPECT_EQ(a.bank, 1u);
  a = m->map(3 * 1024 * 8);
  EXPECT_EQ(a.bank, 0u);
  EXPECT_EQ(a.row, 1u);
  EXPECT_EQ(m->banks(), 8u);
}

TEST(MemAddressMapping, PermutedBankRotatesBanksByRow) {
  const auto plain = make_address_mapping("ro_ba_bg_co_ch", kGeometry);
  const auto permuted = make_address_mapping("permuted_bank", kGeometry);
  const std::uint64_t row_stride = 3 * 1024 * 8;  // same bank, next row in the plain mapping
  EXPECT_EQ(plain->map(row_stride).bank_group, 0u);
  EXPECT_EQ(plain->map(row_stride).bank, 0u);
  const DramAddress a = permuted->map(row_stride);
  EXPECT_EQ(a.row, 1u);
  EXPECT_EQ(a.bank_group, 1u);
  EXPECT_EQ(a.bank, 0u);
  const DramAddress b = permuted->map(2 * row_stride);
  EXPECT_EQ(b.bank_group, 0u);
  EXPECT_EQ(b.bank, 1u);
  EXPECT_EQ(permuted->map(0).bank, 0u);
}

TEST(MemAddressMapping, HashedChannelKeepsStreamsEvenAndLocationsDistinct) {
  const DramGeometry g{.channels = 192, .bank_groups = 4, .banks_per_group = 4,
                       .row_bytes = 1024, .interleave_bytes = 256};
  const auto hashed = make_address_mapping("hashed_channel", g);
  const auto permuted = make_address_mapping("permuted_bank", g);
  // A stream of 64 rounds over the channels: every channel gets exactly 64 chunks, and each chunk
  // keeps the permuted mapping's bank, row and column (only the channel rotates).
  std::vector<int> per_channel(g.channels, 0);
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t>>
      seen;
  for (std::uint64_t chunk = 0; chunk < 64ull * g.channels; ++chunk) {
    const DramAddress a = hashed->map(chunk * 256);
    const DramAddress p = permuted->map(chunk * 256);
    ++per_channel[a.channel];
    EXPECT_EQ(a.bank_group, p.bank_group);
    EXPECT_EQ(a.bank, p.bank);
    EXPECT_EQ(a.row, p.row);
    EXPECT_EQ(a.column, p.column);
    EXPECT_TRUE(seen.insert({a.channel, a.bank_group, a.bank, a.row, a.column}).second);
  }
  for (const int n : per_channel) EXPECT_EQ(n, 64);
  // 32 lines 16 KB apart (a column of a 4096-wide float matrix): the plain mapping uses 3
  // channels, the hashed one many.
  std::set<std::uint32_t> plain_channels, hashed_channels;
  for (std::uint64_t i = 0; i < 32; ++i) {
    plain_channels.insert(permuted->map(i * 16384).channel);
    hashed_channels.insert(hashed->map(i * 16384).channel);
  }
  EXPECT_EQ(plain_channels.size(), 3u);
  EXPECT_GE(hashed_channels.size(), 16u);
  // Bytes of one chunk stay together.
  EXPECT_EQ(hashed->map(5 * 256).channel, hashed->map(5 * 256 + 255).channel);
}

TEST(MemAddressMapping, HashedBankGroupSpreadsAChannelsChunksOverItsBanksBeforeARow) {
  const DramGeometry g{.channels = 192, .bank_groups = 4, .banks_per_group = 4,
                       .row_bytes = 1024, .interleave_bytes = 256};
  const auto mapping = make_address_mapping("hashed_bank_group", g);
  // Round q of a stream (one chunk per channel): every channel gets one chunk, in bank group
  // q mod 4, bank q / 4 mod 4, column chunk q / 16 mod 4, row q / 64. So a channel's successive
  // chunks change bank group each time and reach the same row again only after 16 rounds.
  std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t>>
      seen;
  for (std::uint64_t q = 0; q < 130; ++q) {
    std::vector<int> per_channel(g.channels, 0);
    for (std::uint64_t c = 0; c < g.channels; ++c) {
      const std::uint64_t address = (q * g.channels + c) * 256 + 128;
      const DramAddress a = mapping->map(address);
      ++per_channel[a.channel];
      EXPECT_EQ(a.bank_group, q % 4);
      EXPECT_EQ(a.bank, q / 4 % 4);
      EXPECT_EQ(a.column, q / 16 % 4 * 256 + 128);
      EXPECT_EQ(a.row, q / 64);
      EXPECT_EQ(mapping->map(address - 128).channel, a.channel);  // a chunk stays together
      EXPECT_TRUE(seen.insert({a.channel, a.bank_group, a.bank, a.row, a.column}).second);
    }
    for (const int n : per_channel) ASSERT_EQ(n, 1) << "round " << q;
  }
  // Strided lines spread over channels as with hashed_channel.
  std::set<std::uint32_t> channels;
  for (std::uint64_t i = 0; i < 32; ++i) channels.insert(mapping->map(i * 16384).channel);
  EXPECT_GE(channels.size(), 16u);
}

TEST(MemAddressMapping, DieLineIndexRanksEachDiesLinesDensely) {
  // 8 channels of 2-line chunks on 2 dies (channels 0-3 and 4-7): over 64 rounds each die holds
  // 512 lines, and their ranks are exactly 0 .. 511, for the plain and the hashed mapping.
  const DramGeometry g{.channels = 8, .bank_groups = 2, .banks_per_group = 2,
                       .row_bytes = 1024, .interleave_bytes = 256};
  for (const char* name : {"ro_ba_bg_co_ch", "hashed_channel", "hashed_bank_group"}) {
    const auto mapping = make_address_mapping(name, g);
    std::set<std::uint64_t> ranks[2];
    for (std::uint64_t line = 0; line < 64 * 16; ++line) {
      const std::uint32_t die = mapping->map(line * 128).channel / 4;
      EXPECT_TRUE(ranks[die].insert(mapping->die_line_index(line * 128, 2)).second) << name;
    }
    for (const auto& r : ranks) {
      ASSERT_EQ(r.size(), 512u) << name;
      EXPECT_EQ(*r.begin(), 0u) << name;
      EXPECT_EQ(*r.rbegin(), 511u) << name;
    }
  }
  // Plain mapping: line 9 is the second line of chunk 4 (channel 4, die 1, rank 0 of round 0).
  const auto plain = make_address_mapping("ro_ba_bg_co_ch", g);
  EXPECT_EQ(plain->die_line_index(9 * 128 + 5, 2), 1u);
  EXPECT_EQ(plain->die_line_index(16 * 128, 2), 8u);  // round 1 starts at rank 4 chunks x 2
  EXPECT_EQ(plain->die_line_index(9 * 128, 1), 9u);   // one die: the line number
}

TEST(MemAddressMapping, BadGeometryNamesTheField) {
  try {
    make_address_mapping("ro_ba_bg_co_ch", {.channels = 1, .interleave_bytes = 100});
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "dram.interleave_bytes: expected a positive multiple of 128, got 100");
  }
  EXPECT_THROW(make_address_mapping("ro_ba_bg_co_ch", {.channels = 0}), InputError);
  EXPECT_THROW(make_address_mapping("ro_ba_bg_co_ch", {.bank_groups = 0}), InputError);
  EXPECT_THROW(make_address_mapping("ro_ba_bg_co_ch", {.banks_per_group = 0}), InputError);
  EXPECT_THROW(make_address_mapping("ro_ba_bg_co_ch", {.row_bytes = 384}), InputError);
  EXPECT_THROW(make_address_mapping("bank_xor", kGeometry), InputError);
}

}  // namespace
}  // namespace warpsim::mem
