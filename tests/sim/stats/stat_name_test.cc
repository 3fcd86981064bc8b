#include "sim/stats/stat_name.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "arch/error.h"

namespace warpsim::stats {
namespace {

TEST(StatsStatName, ParsesSegmentsAndIndices) {
  std::vector<NameSegment> s = parse_stat_name("gpu.sm[12].l1.hits");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].key, "gpu");
  EXPECT_FALSE(s[0].index.has_value());
  EXPECT_EQ(s[1].key, "sm");
  ASSERT_TRUE(s[1].index.has_value());
  EXPECT_EQ(*s[1].index, 12u);
  EXPECT_EQ(s[2].key, "l1");
  EXPECT_EQ(s[3].key, "hits");
  std::vector<NameSegment> one = parse_stat_name("_x9[0]");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].key, "_x9");
  EXPECT_EQ(*one[0].index, 0u);
}

TEST(StatsStatName, RejectsMalformedNames) {
  for (const char* bad :
       {"", "gpu..x", "gpu.", ".gpu", "1gpu", "gpu.sm[]", "gpu.sm[01]", "gpu.sm[x]", "gpu.s-m",
        "gpu.sm[1]x", "gpu.sm[1", "gpu.[1]", "gpu.sm[12345678901234567890]", "a b"}) {
    EXPECT_THROW(parse_stat_name(bad), InternalError) << bad;
  }
}

TEST(StatsStatName, ReservesDoubleUnderscoreForNcuNames) {
  EXPECT_TRUE(is_ncu_name("smsp__inst_executed.sum"));
  EXPECT_FALSE(is_ncu_name("gpu.sm[1].inst_executed"));
  try {
    parse_stat_name("gpu.l1__hits");
    FAIL() << "expected InternalError";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu.l1__hits"), std::string::npos);
  }
}

TEST(StatsStatName, MatchesInstancePatterns) {
  const char* p = "gpu.sm[*].smsp[*].inst_executed";
  EXPECT_TRUE(matches_pattern(p, "gpu.sm[0].smsp[3].inst_executed"));
  EXPECT_TRUE(matches_pattern(p, "gpu.sm[131].smsp[0].inst_executed"));
  EXPECT_FALSE(matches_pattern(p, "gpu.sm[0].smsp[3].inst_issued"));
  EXPECT_FALSE(matches_pattern(p, "gpu.sm[0].smsp[3].inst_executed.x"));
  EXPECT_FALSE(matches_pattern(p, "gpu.sm[0].l1.smsp[3].inst_executed"));
  EXPECT_TRUE(matches_pattern("gpu.sm[0].l1.hits", "gpu.sm[0].l1.hits"));
  EXPECT_FALSE(matches_pattern("gpu.sm[0].l1.hits", "gpu.sm[0].l1.hit"));
  EXPECT_TRUE(matches_pattern("", ""));
  EXPECT_FALSE(matches_pattern("", "x"));
}

TEST(StatsStatName, SingleStarStopsAtDotsDoubleStarDoesNot) {
  EXPECT_TRUE(matches_pattern("gpu.*", "gpu.cycles"));
  EXPECT_FALSE(matches_pattern("gpu.*", "gpu.sm[0].cycles"));
  EXPECT_TRUE(matches_pattern("gpu.**", "gpu.sm[0].cycles"));
  EXPECT_TRUE(matches_pattern("gpu.sm[*].**", "gpu.sm[7].l1.hits"));
  EXPECT_FALSE(matches_pattern("gpu.sm[*].**", "gpu.l2.hits"));
  EXPECT_TRUE(matches_pattern("**.hits", "gpu.sm[7].l1.hits"));
  EXPECT_TRUE(matches_pattern("*", "gpu"));
  EXPECT_FALSE(matches_pattern("*", "gpu.x"));
}

TEST(StatsStatName, NaturalOrderComparesIndicesAsNumbers) {
  EXPECT_TRUE(natural_less("gpu.sm[2].x", "gpu.sm[10].x"));
  EXPECT_FALSE(natural_less("gpu.sm[10].x", "gpu.sm[2].x"));
  EXPECT_TRUE(natural_less("a", "b"));
  EXPECT_TRUE(natural_less("gpu.l1", "gpu.l1.hits"));
  EXPECT_FALSE(natural_less("gpu.l1", "gpu.l1"));
  std::vector<std::string> names = {"sm[10].a", "sm[9].b", "sm[9].a", "l2", "sm[100].a"};
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  EXPECT_EQ(names, (std::vector<std::string>{"l2", "sm[9].a", "sm[9].b", "sm[10].a", "sm[100].a"}));
}

}  // namespace
}  // namespace warpsim::stats
