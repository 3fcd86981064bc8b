#include "sim/mem/address_hash.h"

#include <gtest/gtest.h>

#include <set>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

TEST(MemAddressHash, ModuloMapsLineNumbersRoundRobin) {
  const auto hash = make_address_hash("modulo", {.slices = 6, .partitions = 2, .sms = 4});
  EXPECT_EQ(hash->locate(0).slice, 0u);
  EXPECT_EQ(hash->locate(127).slice, 0u);
  EXPECT_EQ(hash->locate(128).slice, 1u);
  EXPECT_EQ(hash->locate(5 * 128).slice, 5u);
  EXPECT_EQ(hash->locate(6 * 128).slice, 0u);
  EXPECT_EQ(hash->locate(2 * 128).partition, 0u);
  EXPECT_EQ(hash->locate(3 * 128).partition, 1u);
}

TEST(MemAddressHash, XorFoldVisitsEverySliceOncePerAlignedRun) {
  const auto hash = make_address_hash("xor_fold", {.slices = 16, .partitions = 2, .sms = 8});
  for (std::uint64_t base : {0ull, 16ull * 1000, 16ull * 77777}) {
    std::set<std::uint32_t> seen;
    for (std::uint64_t i = 0; i < 16; ++i) seen.insert(hash->locate((base + i) * 128).slice);
    EXPECT_EQ(seen.size(), 16u) << "base " << base;
  }
  // A stride of 16 lines, which modulo sends to one slice, spreads.
  std::set<std::uint32_t> strided;
  for (std::uint64_t i = 0; i < 16; ++i) strided.insert(hash->locate(i * 16 * 128).slice);
  EXPECT_EQ(strided.size(), 16u);
  // Line 0x11 folds as 1 ^ 1 = 0.
  EXPECT_EQ(hash->locate(0x11 * 128).slice, 0u);
  EXPECT_EQ(hash->locate(0x12 * 128).slice, 3u);
}

TEST(MemAddressHash, SmsSplitIntoHalvesByIndex) {
  const auto hash = make_address_hash("modulo", {.slices = 4, .partitions = 2, .sms = 5});
  EXPECT_EQ(hash->sm_partition(0), 0u);
  EXPECT_EQ(hash->sm_partition(2), 0u);
  EXPECT_EQ(hash->sm_partition(3), 1u);
  EXPECT_EQ(hash->sm_partition(4), 1u);
  EXPECT_EQ(hash->slice_partition(1), 0u);
  EXPECT_EQ(hash->slice_partition(2), 1u);
  EXPECT_EQ(sm_partition(131, 132, 2), 1u);
  EXPECT_EQ(sm_partition(65, 132, 2), 0u);
  EXPECT_EQ(sm_partition(66, 132, 2), 1u);
}

TEST(MemAddressHash, RejectsBadGeometryNamingTheField) {
  try {
    make_address_hash("modulo", {.slices = 5, .partitions = 2, .sms = 4});
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("l2.slices"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_address_hash("modulo", {.slices = 0, .partitions = 1, .sms = 4}), InputError);
  EXPECT_THROW(make_address_hash("modulo", {.slices = 4, .partitions = 0, .sms = 4}), InputError);
  EXPECT_THROW(make_address_hash("modulo", {.slices = 4, .partitions = 2, .sms = 0}), InputError);
}

TEST(MemAddressHash, UnknownNameListsTheKnownOnes) {
  try {
    make_address_hash("crc", {.slices = 4, .partitions = 2, .sms = 4}, "arch.l2.hash");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "arch.l2.hash: unknown address hash 'crc'; expected one of: modulo, xor_fold");
  }
}

class FirstSlice final : public AddressHash {
 public:
  using AddressHash::AddressHash;

 protected:
  std::uint32_t slice_of_line(std::uint64_t) const override { return 0; }
};

TEST(MemAddressHash, RegistryAcceptsNewPoliciesOnceByName) {
  auto& registry = address_hash_registry();
  if (!registry.contains("test_first")) {
    registry.add("test_first",
                 [](const AddressHashConfig& c) { return std::make_unique<FirstSlice>(c); });
  }
  const auto hash = make_address_hash("test_first", {.slices = 4, .partitions = 2, .sms = 2});
  EXPECT_EQ(hash->locate(12345 * 128).slice, 0u);
  EXPECT_THROW(registry.add("modulo", nullptr), InternalError);
}

}  // namespace
}  // namespace warpsim::mem
