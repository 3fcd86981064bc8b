#include "sim/mem/dram_background.h"

#include <gtest/gtest.h>

namespace warpsim::mem {
namespace {

// Three idle-kernel lengths: 10 ms, 50 ms and 100 ms.
DramBackground three_points() {
  return DramBackground({{0.010, 8000, 0}, {0.050, 150000, 1048576}, {0.100, 200000, 2097152}});
}

TEST(DramBackground, EmptyMeansNoTraffic) {
  const DramBackground none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.read_bytes(1.0), 0);
  EXPECT_EQ(none.write_bytes(1.0), 0);
}

TEST(DramBackground, AtTheMeasuredLengthsGivesTheMedians) {
  const DramBackground b = three_points();
  EXPECT_DOUBLE_EQ(b.read_bytes(0.010), 8000);
  EXPECT_DOUBLE_EQ(b.read_bytes(0.050), 150000);
  EXPECT_DOUBLE_EQ(b.write_bytes(0.100), 2097152);
}

TEST(DramBackground, BelowTheFirstLengthInProportion) {
  const DramBackground b = three_points();
  EXPECT_DOUBLE_EQ(b.read_bytes(0.005), 4000);
  EXPECT_DOUBLE_EQ(b.read_bytes(0), 0);
  EXPECT_DOUBLE_EQ(b.read_bytes(-1), 0);
}

TEST(DramBackground, LinearBetweenLengths) {
  const DramBackground b = three_points();
  EXPECT_DOUBLE_EQ(b.read_bytes(0.030), 8000 + 142000 * 0.5);
  EXPECT_DOUBLE_EQ(b.write_bytes(0.075), 1048576 * 1.5);
}

TEST(DramBackground, BeyondTheLastAtTheLastSegmentsRate) {
  const DramBackground b = three_points();
  EXPECT_DOUBLE_EQ(b.read_bytes(0.200), 200000 + 100000);
  EXPECT_DOUBLE_EQ(b.write_bytes(0.200), 2097152 * 2);
}

TEST(DramBackground, NeverFallsBeyondTheLastWhereTheMediansDip) {
  const DramBackground b({{0.05, 200000, 0}, {0.5, 150000, 0}});
  EXPECT_DOUBLE_EQ(b.read_bytes(1.0), 150000);
  EXPECT_DOUBLE_EQ(b.read_bytes(0.275), 175000);
}

TEST(DramBackground, OnePointScalesInProportionEitherSide) {
  const DramBackground b({{0.1, 100000, 1000000}});
  EXPECT_DOUBLE_EQ(b.read_bytes(0.05), 50000);
  EXPECT_DOUBLE_EQ(b.write_bytes(0.2), 2000000);
}

}  // namespace
}  // namespace warpsim::mem
