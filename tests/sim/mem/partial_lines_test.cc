#include "sim/mem/partial_lines.h"

#include <gtest/gtest.h>

#include <vector>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

TEST(MemPartialLines, AbsentRecordKeepsNothing) {
  PartialLines p({}, "l2.partial_lines");
  EXPECT_FALSE(p.enabled());
  EXPECT_FALSE(p.write(0, 0b0001, 4, 0, 0).displaced);
  EXPECT_EQ(p.take(0), 0);
  EXPECT_EQ(p.size(), 0u);
}

TEST(MemPartialLines, SectorCompletesAtThirtyTwoBytes) {
  PartialLines p({.entries = 4, .ways = 2}, "l2.partial_lines");
  // Eight 4-byte stores fill sector 1 of line 0; the line then leaves the record.
  for (int i = 0; i < 7; ++i) {
    EXPECT_FALSE(p.write(0, 0b0010, 4, 0, i == 0 ? 0 : 0b0010).displaced);
    EXPECT_EQ(p.size(), 1u) << "store " << i;
  }
  EXPECT_FALSE(p.write(0, 0b0010, 4, 0, 0b0010).displaced);
  EXPECT_EQ(p.size(), 0u);
  EXPECT_EQ(p.take(0), 0);
  // A whole-sector store completes a sector at once.
  p.write(128, 0b0011, 16, 0, 0);
  EXPECT_EQ(p.size(), 1u);
  p.write(128, 0, 0, 0b0001, 0b0011);
  EXPECT_EQ(p.take(128), 0b0010);
  EXPECT_EQ(p.size(), 0u);
}

TEST(MemPartialLines, StoreIntoAValidSectorKeepsItWhole) {
  PartialLines p({.entries = 4, .ways = 2}, "l2.partial_lines");
  EXPECT_FALSE(p.write(0, 0b0001, 4, 0, 0b0001).displaced);  // fetched or written whole before
  EXPECT_EQ(p.size(), 0u);
}

TEST(MemPartialLines, FullSetDisplacesTheLeastRecentlyWritten) {
  PartialLines p({.entries = 1, .ways = 1}, "l2.partial_lines");
  EXPECT_FALSE(p.write(0, 0b0101, 4, 0, 0).displaced);
  const PartialDisplaced d = p.write(128, 0b0001, 4, 0, 0);
  ASSERT_TRUE(d.displaced);
  EXPECT_EQ(d.line_address, 0u);
  EXPECT_EQ(d.partial_sectors, 0b0101);
  EXPECT_EQ(p.take(0), 0);
  EXPECT_EQ(p.take(128), 0b0001);
  // Two ways: a new line displaces the one written longest ago, whichever came first.
  PartialLines q({.entries = 2, .ways = 2}, "l2.partial_lines");
  q.write(0, 0b0001, 4, 0, 0);
  q.write(128, 0b0001, 4, 0, 0);
  q.write(0, 0b0001, 4, 0, 0b0001);  // line 0 written again: now the most recent
  const PartialDisplaced e = q.write(256, 0b0001, 4, 0, 0);
  ASSERT_TRUE(e.displaced);
  EXPECT_EQ(e.line_address, 128u);
}

TEST(MemPartialLines, ACompleteLineKeepsItsEntryOnlyWhenConfigured) {
  for (const bool keeps : {false, true}) {
    PartialLines p({.entries = 1, .ways = 1, .keeps_complete = keeps}, "l2.partial_lines");
    p.write(0, 0b0001, 16, 0, 0);
    p.write(0, 0b0001, 16, 0, 0b0001);  // sector 0 complete: the line is whole
    EXPECT_EQ(p.size(), keeps ? 1u : 0u) << keeps;
    // A new line takes the entry; displacing a complete line gives nothing up.
    EXPECT_FALSE(p.write(128, 0b0010, 4, 0, 0).displaced) << keeps;
    EXPECT_EQ(p.size(), 1u);
    EXPECT_EQ(p.take(0), 0) << keeps;
    EXPECT_EQ(p.take(128), 0b0010) << keeps;
  }
  // Kept, the complete line holds its entry until taken (it left the slice or was written back).
  PartialLines p({.entries = 2, .ways = 2, .keeps_complete = true}, "l2.partial_lines");
  p.write(0, 0b0001, 32, 0, 0);
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.take(0), 0);
  EXPECT_EQ(p.size(), 0u);
}

TEST(MemPartialLines, AKernelsEndFreesTheEntriesOfCompleteLinesOnly) {
  PartialLines p({.entries = 4, .ways = 4, .keeps_complete = true}, "l2.partial_lines");
  p.write(0, 0b0001, 32, 0, 0);      // complete at once
  p.write(128, 0b0011, 4, 0, 0);     // two sectors written in part
  p.write(256, 0b1111, 32, 0, 0);    // complete
  EXPECT_EQ(p.size(), 3u);
  p.end_kernel();
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.take(0), 0);
  EXPECT_EQ(p.take(256), 0);
  EXPECT_EQ(p.take(128), 0b0011);
  EXPECT_EQ(p.size(), 0u);
}

TEST(MemPartialLines, RandomVictimsRepeatAndReachEveryWay) {
  auto victims = [] {
    PartialLines p({.entries = 4, .ways = 4, .random_victim = true}, "l2.partial_lines");
    std::vector<std::uint64_t> out;
    for (std::uint64_t line = 0; line < 64; ++line) {
      const PartialDisplaced d = p.write(line * 128, 0b0001, 4, 0, 0);
      EXPECT_EQ(d.displaced, line >= 4) << line;
      if (d.displaced) out.push_back(d.line_address);
    }
    return out;
  };
  const std::vector<std::uint64_t> first = victims();
  EXPECT_EQ(first, victims());
  // Under least-recently-written order each victim would be the line written 4 lines before;
  // random draws displace younger ones too.
  int younger = 0;
  for (std::size_t i = 0; i < first.size(); ++i) younger += first[i] != i * 128 ? 1 : 0;
  EXPECT_GT(younger, 10);
}

TEST(MemPartialLines, LineIndexSetsLinesApartBySetsCollide) {
  // Four sets of one way: with the line index, lines 0 and 4 share set 0, lines 0-3 do not.
  PartialLines p({.entries = 4, .ways = 1, .line_index = true}, "l2.partial_lines");
  for (std::uint64_t line = 0; line < 4; ++line) {
    EXPECT_FALSE(p.write(line * 128, 0b0001, 4, 0, 0).displaced) << "line " << line;
  }
  EXPECT_EQ(p.size(), 4u);
  const PartialDisplaced d = p.write(4 * 128, 0b0001, 4, 0, 0);
  ASSERT_TRUE(d.displaced);
  EXPECT_EQ(d.line_address, 0u);
  EXPECT_EQ(d.partial_sectors, 0b0001);
  EXPECT_EQ(p.size(), 4u);
}

TEST(MemPartialLines, SliceIndexNumbersTheSlicesOwnLines) {
  // A slice taking chunks of 2 lines, one chunk in every run of 8 lines: its lines 0, 1, 8, 9
  // are its lines 0-3 and fill the four sets; line 16, its fifth, shares line 0's set.
  PartialLines p({.entries = 4, .ways = 1, .line_index = true, .run_lines = 8, .chunk_lines = 2},
                 "l2.partial_lines");
  for (std::uint64_t line : {0, 1, 8, 9}) {
    EXPECT_FALSE(p.write(line * 128, 0b0001, 4, 0, 0).displaced) << "line " << line;
  }
  const PartialDisplaced d = p.write(16 * 128, 0b0001, 4, 0, 0);
  ASSERT_TRUE(d.displaced);
  EXPECT_EQ(d.line_address, 0u);
}

TEST(MemPartialLines, BadGeometryNamesTheField) {
  try {
    PartialLines p({.entries = 6, .ways = 4}, "l2.partial_lines");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("l2.partial_lines.ways"), std::string::npos);
  }
  EXPECT_THROW(PartialLines({.entries = 4, .ways = 0}, "l2.partial_lines"), InputError);
}

}  // namespace
}  // namespace warpsim::mem
