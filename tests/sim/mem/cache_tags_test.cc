#include "sim/mem/cache_tags.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

// 2 sets x 2 ways: lines 0, 256, 512 ... share set 0.
CacheTags small() { return CacheTags({.size_bytes = 512, .ways = 2}, "l2"); }

TEST(MemCacheTags, GeometryFromSizeAndWays) {
  const CacheTags tags = small();
  EXPECT_EQ(tags.sets(), 2u);
  EXPECT_EQ(tags.ways(), 2u);
  EXPECT_EQ(tags.set_of(128), 1u);
  EXPECT_EQ(tags.set_of(256), 0u);
}

TEST(MemCacheTags, XorIndexSpreadsPowerOfTwoStrides) {
  // 32 sets x 4 ways. 128 lines 8 KB (64 lines) apart: a modulo index puts them all in set 0,
  // the XOR-folded one spreads them 4 to a set, so a second pass hits every line.
  for (const bool xor_index : {false, true}) {
    CacheTags tags({.size_bytes = 32 * 4 * 128, .ways = 4, .xor_index = xor_index}, "l1");
    int hits = 0;
    for (int pass = 0; pass < 2; ++pass) {
      for (std::uint64_t i = 0; i < 128; ++i) {
        hits += tags.access(i * 8192, 0b0001, 0).line_hit && pass == 1 ? 1 : 0;
      }
    }
    EXPECT_EQ(hits, xor_index ? 128 : 0) << "xor_index " << xor_index;
  }
  const CacheTags tags({.size_bytes = 32 * 4 * 128, .ways = 4, .xor_index = true}, "l1");
  // Line 0x21 = 0b1'00001: fields 00001 and 00001 fold to set 0.
  EXPECT_EQ(tags.set_of(0x21 * 128), 0u);
  EXPECT_EQ(tags.set_of(0x22 * 128), 3u);  // 00010 ^ 00001
  EXPECT_THROW(CacheTags({.size_bytes = 3 * 4 * 128, .ways = 4, .xor_index = true}, "l1"),
               InputError);
}

TEST(MemCacheTags, MissAllocatesAndSectorsAccumulate) {
  CacheTags tags = small();
  TagAccess a = tags.access(0, 0b0001, 0);
  EXPECT_FALSE(a.line_hit);
  EXPECT_EQ(a.hit_mask, 0);
  EXPECT_FALSE(a.evicted);
  a = tags.access(0, 0b0011, 0b0010);
  EXPECT_TRUE(a.line_hit);
  EXPECT_EQ(a.hit_mask, 0b0001);
  EXPECT_EQ(tags.probe(0), (LineState{0, 0b0011, 0b0010}));
  EXPECT_EQ(tags.probe(256).valid_mask, 0);
}

TEST(MemCacheTags, EvictionReportsTheVictimWithItsDirtySectors) {
  CacheTags tags = small();
  tags.access(0, 0b1111, 0b0100);
  tags.access(256, 0b0001, 0);
  tags.access(0, 0b0001, 0);  // 256 is now least recently used
  const TagAccess a = tags.access(512, 0b0010, 0b0010);
  ASSERT_TRUE(a.evicted);
  EXPECT_EQ(a.victim, (LineState{256, 0b0001, 0}));
  const TagAccess b = tags.access(768, 0b0010, 0);
  ASSERT_TRUE(b.evicted);
  EXPECT_EQ(b.victim, (LineState{0, 0b1111, 0b0100}));
  EXPECT_EQ(tags.contents(), (std::vector<LineState>{{768, 0b0010, 0}, {512, 0b0010, 0b0010}}));
  tags.invalidate_all();
  EXPECT_TRUE(tags.contents().empty());
}

TEST(MemCacheTags, CleanMarksTheGivenSectorsClean) {
  CacheTags tags = small();
  tags.access(0, 0b1111, 0b0110);
  EXPECT_EQ(tags.clean(0, 0b0011), (LineState{0, 0b1111, 0b0010}));  // what it wrote back
  EXPECT_EQ(tags.probe(0), (LineState{0, 0b1111, 0b0100}));
  EXPECT_EQ(tags.clean(0), (LineState{0, 0b1111, 0b0100}));
  EXPECT_EQ(tags.probe(0), (LineState{0, 0b1111, 0}));
  EXPECT_EQ(tags.clean(256).valid_mask, 0);  // absent
}

TEST(MemCacheTags, EmptyWaysFillFirst) {
  CacheTags tags = small();
  EXPECT_FALSE(tags.access(0, 1, 0).evicted);
  EXPECT_FALSE(tags.access(128, 1, 0).evicted);  // other set
  EXPECT_FALSE(tags.access(256, 1, 0).evicted);
  EXPECT_TRUE(tags.access(512, 1, 0).evicted);
}

TEST(MemCacheTags, InvalidateDropsOneLineWithoutWriteBack) {
  CacheTags tags = small();
  tags.access(0, 0b0011, 0b0001);
  tags.access(512, 0b0001, 0);
  const LineState dropped = tags.invalidate(0);
  EXPECT_EQ(dropped.valid_mask, 0b0011);
  EXPECT_EQ(dropped.dirty_mask, 0b0001);
  EXPECT_EQ(tags.probe(0).valid_mask, 0);
  EXPECT_EQ(tags.probe(512).valid_mask, 0b0001);
  EXPECT_EQ(tags.invalidate(0).valid_mask, 0);  // absent: nothing to drop
  EXPECT_FALSE(tags.access(1024, 1, 0).evicted);  // the freed way fills first
}

TEST(MemCacheTags, IndexDivisorSkipsTheBitsThatChoseTheSlice) {
  // A slice of a 4-slice "modulo" L2 holds lines 0, 4, 8, ...: with the divisor they use every
  // set instead of one in four.
  CacheTags tags({.size_bytes = 1024, .ways = 2, .index_divisor = 4}, "l2");
  EXPECT_EQ(tags.sets(), 4u);
  for (std::uint32_t k = 0; k < 4; ++k) EXPECT_EQ(tags.set_of(4 * k * 128), k);
  EXPECT_THROW(CacheTags({.size_bytes = 1024, .ways = 2, .index_divisor = 0}, "l2"), InputError);
}

TEST(MemCacheTags, RotatedIndexSpreadsAStrideThatSharesFactorsWithTheIndex) {
  // An H200 slice: 160 sets of 32 ways, one line in 96. Lines 256 apart (the rows of a matrix of
  // 8192 floats a row) reach sets (256 k / 96) mod 160, which repeat every 60 lines (256 x 60 =
  // 96 x 160): the modulo index uses 60 sets of 160; the rotated one moves each run of 160
  // indices by a hash of the run, so over 2048 rows it reaches every set.
  std::set<std::uint32_t> used[2];
  for (const bool rotated : {false, true}) {
    const CacheTags tags(
        {.size_bytes = 160 * 32 * 128, .ways = 32, .index_divisor = 96, .rotated_index = rotated},
        "l2");
    for (std::uint64_t row = 0; row < 2048; ++row) used[rotated].insert(tags.set_of(row * 256 * 128));
  }
  EXPECT_EQ(used[0].size(), 60u);
  EXPECT_EQ(used[1].size(), 160u);
  // Each aligned run of 160 consecutive indices still visits every set once.
  const CacheTags tags(
      {.size_bytes = 160 * 32 * 128, .ways = 32, .index_divisor = 96, .rotated_index = true}, "l2");
  for (const std::uint64_t run : {0, 1, 77}) {
    std::set<std::uint32_t> seen;
    for (std::uint64_t q = 0; q < 160; ++q) seen.insert(tags.set_of((run * 160 + q) * 96 * 128));
    EXPECT_EQ(seen.size(), 160u) << "run " << run;
  }
  // The first run is not rotated away from the modulo index's sets by construction, only by the
  // hash: run 0's rotation is h(0) = 0.
  EXPECT_EQ(tags.set_of(5 * 96 * 128), 5u);
}

TEST(MemCacheTags, SetLineReplacesTheLineNumber) {
  // The set comes from set_line(address) / index_divisor: here lines 0, 2, 4, ... rank 0, 1, 2.
  CacheTags tags({.size_bytes = 1024,
                  .ways = 2,
                  .index_divisor = 1,
                  .set_line = [](std::uint64_t a) { return (a >> 7) / 2; }},
                 "l2");
  for (std::uint32_t k = 0; k < 8; ++k) EXPECT_EQ(tags.set_of(2 * k * 128), k % 4);
  // Eight even lines fill the four sets' eight ways without an eviction.
  for (std::uint32_t k = 0; k < 8; ++k) EXPECT_FALSE(tags.access(2 * k * 128, 1, 0).evicted);
  EXPECT_EQ(tags.contents().size(), 8u);
  EXPECT_TRUE(tags.access(16 * 128, 1, 0).evicted);
}

TEST(MemCacheTags, DirtyLimitWritesBackTheLeastRecentlyUsedDirtyLineAndKeepsIt) {
  // 1 set x 4 ways, at most 2 dirty lines.
  CacheTags tags({.size_bytes = 512, .ways = 4, .max_dirty_ways = 2}, "l2");
  EXPECT_FALSE(tags.access(0, 0b0001, 0b0001).cleaned);
  EXPECT_FALSE(tags.access(128, 0b1111, 0).cleaned);   // clean line: no limit applies
  EXPECT_FALSE(tags.access(256, 0b0011, 0b0011).cleaned);
  tags.access(0, 0b0001, 0);  // 0 is now more recent than 256
  TagAccess a = tags.access(384, 0b0100, 0b0100);  // a third dirty line
  EXPECT_FALSE(a.evicted);
  ASSERT_TRUE(a.cleaned);
  EXPECT_EQ(a.written_back, (LineState{256, 0b0011, 0b0011}));
  EXPECT_EQ(tags.probe(256), (LineState{256, 0b0011, 0}));  // kept, clean
  // A write hit that makes the clean line 128 dirty cleans the least recent other dirty line.
  a = tags.access(128, 0b0001, 0b0001);
  ASSERT_TRUE(a.cleaned);
  EXPECT_EQ(a.written_back, (LineState{0, 0b0001, 0b0001}));
  // Writing more sectors of a line that is already dirty changes nothing.
  EXPECT_FALSE(tags.access(384, 0b1000, 0b1000).cleaned);
  // A dirty fill that evicts a clean line makes a third dirty one.
  a = tags.access(512, 0b0001, 0b0001);  // evicts 256 (least recently used, clean)
  ASSERT_TRUE(a.evicted);
  EXPECT_EQ(a.victim, (LineState{256, 0b0011, 0}));
  ASSERT_TRUE(a.cleaned);  // 3 dirty now (128, 384, 512): the least recent other, 128
  EXPECT_EQ(a.written_back, (LineState{128, 0b1111, 0b0001}));
  EXPECT_THROW(CacheTags({.size_bytes = 512, .ways = 4, .max_dirty_ways = 4}, "l2"), InputError);
  EXPECT_THROW(CacheTags({.size_bytes = 512, .ways = 4, .replacement = "random_lru",
                          .replacement_candidates = 5},
                         "l2"),
               InputError);
}

// 1 set x 4 ways whose least recently used line (0) is dirty and the other three clean.
void fill_dirty_first(CacheTags& tags) {
  tags.access(0, 0b0001, 0b0001);
  for (std::uint64_t line = 128; line <= 384; line += 128) tags.access(line, 0b0001, 0);
}

TEST(MemCacheTags, DirtyVictimSkipPassesOverADirtyVictimByChance) {
  CacheTags lru({.size_bytes = 512, .ways = 4}, "l2");
  fill_dirty_first(lru);
  EXPECT_EQ(lru.access(512, 0b0001, 0).victim, (LineState{0, 0b0001, 0b0001}));  // plain LRU
  // With a skip chance of 0.75 the dirty line goes in a quarter of the runs, else the next
  // least recently used (128, clean, always taken).
  int dirty = 0;
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    CacheTags tags({.size_bytes = 512, .ways = 4, .seed = seed, .dirty_victim_skip = 0.75}, "l2");
    fill_dirty_first(tags);
    const TagAccess a = tags.access(512, 0b0001, 0);
    ASSERT_TRUE(a.evicted);
    ASSERT_TRUE(a.victim.line_address == 0 || a.victim.line_address == 128) << seed;
    dirty += a.victim.line_address == 0 ? 1 : 0;
  }
  EXPECT_NEAR(dirty, 250, 45);  // binomial(1000, 0.25): standard deviation 13.7
}

TEST(MemCacheTags, DirtyVictimSkipTakesThePolicysPickWhenEveryWayIsPassedOver) {
  // Every way dirty; each is passed over with chance 1 - 1e-9, so all four are, and the least
  // recently used line (128) goes.
  CacheTags tags({.size_bytes = 512, .ways = 4, .dirty_victim_skip = 1.0 - 1e-9}, "l2");
  for (std::uint64_t line = 0; line <= 384; line += 128) tags.access(line, 0b0001, 0b0001);
  tags.access(0, 0b0001, 0);
  EXPECT_EQ(tags.access(512, 0b0001, 0).victim, (LineState{128, 0b0001, 0b0001}));
  for (const double bad : {1.0, -0.1}) {
    try {
      CacheTags({.size_bytes = 512, .ways = 4, .dirty_victim_skip = bad}, "gpu.l2");
      FAIL() << "no throw for " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("gpu.l2.dirty_victim_skip"), std::string::npos);
    }
  }
}

TEST(MemCacheTags, BadGeometryNamesTheField) {
  try {
    CacheTags({.size_bytes = 1000, .ways = 2}, "gpu.l2");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu.l2.size_bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(CacheTags({.size_bytes = 1024, .ways = 0}, "l2"), InputError);
  EXPECT_THROW(CacheTags({.size_bytes = 0, .ways = 2}, "l2"), InputError);
  EXPECT_THROW(CacheTags({.size_bytes = 1024, .ways = 2, .replacement = "mru"}, "l2"), InputError);
  try {
    CacheTags({.size_bytes = 3 * 128 * 4, .ways = 3, .replacement = "tree_plru"}, "gpu.l2");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gpu.l2.ways: the tree_plru replacement needs a power-of-two number of ways, got 3");
  }
}

}  // namespace
}  // namespace warpsim::mem
