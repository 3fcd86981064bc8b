#include "sim/mem/address_mapping.h"

#include <gtest/gtest.h>

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
