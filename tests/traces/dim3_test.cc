#include "traces/dim3.h"

#include <gtest/gtest.h>

#include "arch/error.h"
#include "traces/lane_mask.h"

namespace warpsim::traces {
namespace {

TEST(TracesDim3Test, LinearOrderIsAccelSimOrder) {
  const Dim3 grid{4, 3, 2};
  EXPECT_EQ(linear_index({0, 0, 0}, grid), 0u);
  EXPECT_EQ(linear_index({1, 0, 0}, grid), 1u);
  EXPECT_EQ(linear_index({0, 1, 0}, grid), 4u);
  EXPECT_EQ(linear_index({0, 0, 1}, grid), 12u);
  EXPECT_EQ(linear_index({3, 2, 1}, grid), 23u);  // z*gx*gy + y*gx + x = 12 + 8 + 3
}

TEST(TracesDim3Test, InverseOfLinearIndex) {
  const Dim3 grid{5, 3, 7};
  for (uint64_t i = 0; i < grid.volume(); ++i) {
    const Dim3 index = index_from_linear(i, grid);
    EXPECT_TRUE(contains(grid, index));
    EXPECT_EQ(linear_index(index, grid), i);
  }
  EXPECT_EQ(index_from_linear(23, {4, 3, 2}), (Dim3{3, 2, 1}));
}

TEST(TracesDim3Test, LargeGridsDoNotOverflow) {
  const Dim3 grid{2147483647u, 65535u, 65535u};
  EXPECT_EQ(grid.volume(), 2147483647ull * 65535ull * 65535ull);
  const Dim3 last{grid.x - 1, grid.y - 1, grid.z - 1};
  EXPECT_EQ(linear_index(last, grid), grid.volume() - 1);
  EXPECT_EQ(index_from_linear(grid.volume() - 1, grid), last);
}

TEST(TracesDim3Test, OutOfRangeIsAnError) {
  EXPECT_THROW(index_from_linear(24, {4, 3, 2}), InternalError);
  EXPECT_THROW(index_from_linear(0, {0, 1, 1}), InternalError);
}

TEST(TracesDim3Test, WarpsPerCta) {
  EXPECT_EQ(warps_per_cta({256, 1, 1}, 32), 8u);
  EXPECT_EQ(warps_per_cta({33, 1, 1}, 32), 2u);
  EXPECT_EQ(warps_per_cta({16, 16, 1}, 64), 4u);
  EXPECT_EQ(warps_per_cta({1, 1, 1}, 32), 1u);
  EXPECT_EQ(warps_per_cta({7, 3, 5}, 32), 4u);  // 105 threads
  EXPECT_EQ(warps_per_cta({32, 1, 1}, 0), 0u);
}

TEST(TracesDim3Test, ContainsAndFormat) {
  EXPECT_TRUE(contains({2, 2, 2}, {1, 1, 1}));
  EXPECT_FALSE(contains({2, 2, 2}, {2, 0, 0}));
  EXPECT_FALSE(contains({2, 2, 2}, {0, 0, 2}));
  EXPECT_EQ(to_string(Dim3{3, 2, 1}), "(3,2,1)");
  EXPECT_EQ(Dim3{}.volume(), 1u);
}

TEST(TracesLaneMaskTest, CountsAndVisitsLanes) {
  EXPECT_EQ(popcount(0), 0u);
  EXPECT_EQ(popcount(0xFFFFFFFFull), 32u);
  EXPECT_EQ(popcount(~0ull), 64u);
  EXPECT_EQ(full_mask(32), 0xFFFFFFFFull);
  EXPECT_EQ(full_mask(64), ~0ull);
  EXPECT_EQ(full_mask(1), 1ull);
  EXPECT_TRUE(lane_active(0x80000000ull, 31));
  EXPECT_FALSE(lane_active(0x80000000ull, 30));
  EXPECT_FALSE(lane_active(~0ull, 64));
  std::vector<uint32_t> lanes;
  for_each_lane(0x8000000000000005ull, [&](uint32_t lane) { lanes.push_back(lane); });
  EXPECT_EQ(lanes, (std::vector<uint32_t>{0, 2, 63}));
}

}  // namespace
}  // namespace warpsim::traces
