#include "sim/mem/address_hash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

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

// Runs of `slices` lines starting at a multiple of `slices` visit every slice exactly once.
void expect_every_slice_once_per_aligned_run(const AddressHash& hash, std::uint64_t slices) {
  for (std::uint64_t base : {std::uint64_t{0}, slices * 1000, slices * 77777}) {
    std::set<std::uint32_t> seen;
    for (std::uint64_t i = 0; i < slices; ++i) seen.insert(hash.locate((base + i) * 128).slice);
    EXPECT_EQ(seen.size(), slices) << "base " << base;
  }
}

TEST(MemAddressHash, XorFoldVisitsEverySliceOncePerAlignedRun) {
  const auto hash = make_address_hash("xor_fold", {.slices = 16, .partitions = 2, .sms = 8});
  expect_every_slice_once_per_aligned_run(*hash, 16);
  // A stride of 16 lines, which modulo sends to one slice, spreads.
  std::set<std::uint32_t> strided;
  for (std::uint64_t i = 0; i < 16; ++i) strided.insert(hash->locate(i * 16 * 128).slice);
  EXPECT_EQ(strided.size(), 16u);
  // Line 0x11 folds as 1 ^ 1 = 0.
  EXPECT_EQ(hash->locate(0x11 * 128).slice, 0u);
  EXPECT_EQ(hash->locate(0x12 * 128).slice, 3u);
}

TEST(MemAddressHash, RotatedLoadsEverySliceWithinOneLineOverAContiguousRange) {
  const auto hash = make_address_hash("rotated", {.slices = 120, .partitions = 2, .sms = 132});
  // Every aligned run of 120 lines visits every slice once.
  expect_every_slice_once_per_aligned_run(*hash, 120);
  // Any range starting on a run boundary loads every slice within one line of the others (any
  // range within two); xor_fold over 120 slices loads slices 0-7 twice as much as the rest.
  const auto xor_fold = make_address_hash("xor_fold", {.slices = 120, .partitions = 2, .sms = 132});
  const auto spread = [](const AddressHash& h, std::uint64_t first, std::uint64_t lines) {
    std::vector<std::uint64_t> per_slice(120, 0);
    for (std::uint64_t l = first; l < first + lines; ++l) ++per_slice[h.locate(l * 128).slice];
    const auto [lo, hi] = std::minmax_element(per_slice.begin(), per_slice.end());
    return *hi - *lo;
  };
  EXPECT_LE(spread(*hash, 120 * 5, 245'761), 1u);
  EXPECT_LE(spread(*hash, 120 * 9 + 37, 245'760), 2u);
  EXPECT_EQ(spread(*xor_fold, 0, 245'760), 1920u);  // 3840 lines on slices 0-7, 1920 elsewhere
  // A stride of 120 lines, which modulo sends to one slice, spreads.
  std::set<std::uint32_t> strided;
  for (std::uint64_t i = 0; i < 120; ++i) strided.insert(hash->locate(i * 120 * 128).slice);
  EXPECT_EQ(strided.size(), 68u);
  EXPECT_EQ(hash->locate(130 * 128).partition, hash->locate(130 * 128).slice / 60);
}

TEST(MemAddressHash, XorFoldEvenGivesEverySliceTheSameShare) {
  const auto even = make_address_hash("xor_fold_even", {.slices = 120, .partitions = 2, .sms = 132});
  const auto xor_fold = make_address_hash("xor_fold", {.slices = 120, .partitions = 2, .sms = 132});
  std::vector<std::uint64_t> per_slice(120, 0);
  constexpr std::uint64_t kLines = 245'760;  // 30 MB
  for (std::uint64_t l = 0; l < kLines; ++l) {
    const std::uint32_t slice = even->locate(l * 128).slice;
    ++per_slice[slice];
    // Folds below 120 keep xor_fold's slice.
    const std::uint32_t folded = xor_fold->locate(l * 128).slice;
    if (slice != folded) {
      EXPECT_LT(folded, 8u) << l;
    }
  }
  const auto [lo, hi] = std::minmax_element(per_slice.begin(), per_slice.end());
  // 2048 lines each on average (xor_fold: 3840 on slices 0-7, 1920 elsewhere).
  EXPECT_GT(*lo, 2048u * 9 / 10);
  EXPECT_LT(*hi, 2048u * 11 / 10);
  // A power-of-two slice count folds as xor_fold.
  const auto even16 = make_address_hash("xor_fold_even", {.slices = 16, .partitions = 2, .sms = 8});
  expect_every_slice_once_per_aligned_run(*even16, 16);
  EXPECT_EQ(even16->locate(0x12 * 128).slice, 3u);
}

TEST(MemAddressHash, CrcEvenSpreadsAPaddedRowPitch) {
  const AddressHashConfig h200{.slices = 96, .partitions = 2, .sms = 132};
  const auto crc = make_address_hash("crc_even", h200);
  const auto xor_even = make_address_hash("xor_fold_even", h200);
  // A warp's 32 stores one padded row apart (4128 floats = 129 lines; 8256 = 258 lines).
  const auto slices_hit = [](const AddressHash& h, std::uint64_t first, std::uint64_t stride) {
    std::set<std::uint32_t> hit;
    for (std::uint64_t k = 0; k < 32; ++k) hit.insert(h.locate((first + k * stride) * 128).slice);
    return hit.size();
  };
  EXPECT_EQ(slices_hit(*xor_even, 0, 129), 1u);  // bits 0 and 7 cancel: every store on slice 0
  EXPECT_EQ(slices_hit(*crc, 0, 129), 30u);
  EXPECT_EQ(slices_hit(*crc, 0, 258), 27u);
  // A power-of-two stride takes 32 distinct folds; those at 96 and above are sent on by the mix.
  EXPECT_EQ(slices_hit(*crc, 0, 128), 29u);
  // Every aligned run of 128 lines takes each fold once, so each slice takes the same share.
  std::vector<std::uint64_t> per_slice(96, 0);
  constexpr std::uint64_t kLines = 196'608;  // 24 MB
  for (std::uint64_t l = 0; l < kLines; ++l) ++per_slice[crc->locate(l * 128).slice];
  const auto [lo, hi] = std::minmax_element(per_slice.begin(), per_slice.end());
  EXPECT_GT(*lo, 2048u * 9 / 10);
  EXPECT_LT(*hi, 2048u * 11 / 10);
  // A power-of-two slice count maps every aligned run one to one.
  const auto crc16 = make_address_hash("crc_even", {.slices = 16, .partitions = 2, .sms = 8});
  expect_every_slice_once_per_aligned_run(*crc16, 16);
  // x^4 + x + 1: line 0x10 = x^4 leaves x + 1.
  EXPECT_EQ(crc16->locate(0x10 * 128).slice, 3u);
}

TEST(MemAddressHash, CrcBlockPlacesABlocksLeftoverFoldsOnDistinctSlices) {
  const AddressHashConfig h200{.slices = 96, .partitions = 2, .sms = 132};
  const auto block = make_address_hash("crc_block", h200);
  const auto crc = make_address_hash("crc_even", h200);
  const auto spread = [](const AddressHash& h, std::uint64_t lines) {
    std::vector<std::uint64_t> per_slice(96, 0);
    for (std::uint64_t l = 0; l < lines; ++l) ++per_slice[h.locate(l * 128).slice];
    const auto [lo, hi] = std::minmax_element(per_slice.begin(), per_slice.end());
    return *hi - *lo;
  };
  for (std::uint64_t b = 0; b < 64; ++b) {
    // Every aligned run of 128 lines: each slice once from the folds below 96, and the 32 folds
    // above them on 32 distinct slices, one run of consecutive slices from an offset drawn per run.
    std::vector<int> per_slice(96, 0);
    int moved = 0;
    for (std::uint64_t l = b * 128; l < (b + 1) * 128; ++l) {
      const std::uint32_t slice = block->locate(l * 128).slice;
      ++per_slice[slice];
      if (slice != crc->locate(l * 128).slice) ++moved;
    }
    EXPECT_EQ(std::count(per_slice.begin(), per_slice.end(), 2), 32) << b;
    EXPECT_EQ(std::count(per_slice.begin(), per_slice.end(), 1), 64) << b;
    EXPECT_LE(moved, 32) << b;
  }
  // Over 24 MB (2048 lines a slice) the slices' loads lie closer than with a slice drawn per
  // leftover line: most to least loaded 74 lines apart against 96.
  EXPECT_EQ(spread(*block, 196'608), 74u);
  EXPECT_EQ(spread(*crc, 196'608), 96u);
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

// With chunks of four lines (the GH100's 512 bytes), a slice takes four neighbouring lines
// together and the hash moves on per chunk: modulo sends chunk k to slice k mod slices.
TEST(MemAddressHash, AChunkOfLinesSharesItsSlice) {
  const auto hash =
      make_address_hash("modulo", {.slices = 6, .partitions = 2, .sms = 4, .chunk_lines = 4});
  for (std::uint64_t line = 0; line < 4; ++line) EXPECT_EQ(hash->locate(line * 128).slice, 0u);
  EXPECT_EQ(hash->locate(4 * 128).slice, 1u);
  EXPECT_EQ(hash->locate(23 * 128 + 127).slice, 5u);
  EXPECT_EQ(hash->locate(24 * 128).slice, 0u);
  // crc_even keeps its one-to-one runs, now of chunks.
  const auto crc =
      make_address_hash("crc_even", {.slices = 16, .partitions = 2, .sms = 8, .chunk_lines = 4});
  std::set<std::uint32_t> seen;
  for (std::uint64_t line = 0; line < 64; line += 4) {
    EXPECT_EQ(crc->locate((line + 3) * 128).slice, crc->locate(line * 128).slice);
    seen.insert(crc->locate(line * 128).slice);
  }
  EXPECT_EQ(seen.size(), 16u);
  EXPECT_THROW(
      make_address_hash("modulo", {.slices = 4, .partitions = 2, .sms = 4, .chunk_lines = 3}),
      InputError);
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
              "arch.l2.hash: unknown address hash 'crc'; expected one of: crc_block, crc_even, "
              "modulo, "
              "rotated, xor_fold, xor_fold_even");
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
