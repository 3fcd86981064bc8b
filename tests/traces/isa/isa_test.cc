#include "traces/isa/isa.h"

#include <gtest/gtest.h>

namespace warpsim::traces {
namespace {

TEST(IsaTest, NamesRoundTripThroughParse) {
  for (Isa isa : {Isa::kSm80, Isa::kSm90, Isa::kSm100, Isa::kGfx942}) {
    const auto parsed = parse_isa(isa_name(isa));
    ASSERT_TRUE(parsed.has_value()) << isa_name(isa);
    EXPECT_EQ(*parsed, isa);
  }
  EXPECT_EQ(isa_name(Isa::kSm100), "sm_100");
}

TEST(IsaTest, ParsesAliases) {
  EXPECT_EQ(parse_isa("sm_86"), Isa::kSm80);
  EXPECT_EQ(parse_isa("sm_90a"), Isa::kSm90);
  EXPECT_EQ(parse_isa("blackwell"), Isa::kSm100);
  EXPECT_EQ(parse_isa("mi300x"), Isa::kGfx942);
}

TEST(IsaTest, RejectsUnknownNames) {
  EXPECT_FALSE(parse_isa("sm_75x").has_value());
  EXPECT_FALSE(parse_isa("").has_value());
  EXPECT_FALSE(parse_isa("SM_90").has_value());
}

TEST(IsaTest, WarpSizes) {
  EXPECT_EQ(warp_size(Isa::kSm80), 32u);
  EXPECT_EQ(warp_size(Isa::kSm100), 32u);
  EXPECT_EQ(warp_size(Isa::kGfx942), 64u);
  EXPECT_TRUE(is_nvidia(Isa::kSm90));
  EXPECT_FALSE(is_nvidia(Isa::kGfx942));
}

TEST(IsaTest, BinaryVersionsMapToTables) {
  EXPECT_EQ(isa_from_binary_version(70), Isa::kSm80);
  EXPECT_EQ(isa_from_binary_version(86), Isa::kSm80);
  EXPECT_EQ(isa_from_binary_version(89), Isa::kSm80);
  EXPECT_EQ(isa_from_binary_version(90), Isa::kSm90);
  EXPECT_EQ(isa_from_binary_version(100), Isa::kSm100);
  EXPECT_EQ(isa_from_binary_version(120), Isa::kSm100);
  EXPECT_FALSE(isa_from_binary_version(0).has_value());
  EXPECT_FALSE(isa_from_binary_version(29).has_value());
}

TEST(IsaTest, IsaBitsAreDistinct) {
  EXPECT_EQ(isa_bit(Isa::kSm80), 1);
  EXPECT_EQ(isa_bit(Isa::kSm90), 2);
  EXPECT_EQ(isa_bit(Isa::kSm100), 4);
  EXPECT_EQ(isa_bit(Isa::kGfx942), 8);
  EXPECT_EQ(kAllSass, 7);
}

}  // namespace
}  // namespace warpsim::traces
