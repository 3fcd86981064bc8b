#include "traces/registers.h"

#include <gtest/gtest.h>

namespace warpsim::traces {
namespace {

TEST(TracesRegistersTest, KindsAndIndices) {
  EXPECT_EQ(gpr(12).kind(), RegKind::kGeneral);
  EXPECT_EQ(gpr(12).index(), 12);
  EXPECT_EQ(ureg(4).kind(), RegKind::kUniform);
  EXPECT_EQ(pred(3).kind(), RegKind::kPredicate);
  EXPECT_EQ(upred(1).kind(), RegKind::kUniformPredicate);
  EXPECT_EQ(vgpr(300).kind(), RegKind::kVector);
  EXPECT_EQ(vgpr(300).index(), 300);
  EXPECT_EQ(sgpr(101).kind(), RegKind::kScalar);
  EXPECT_EQ(agpr(255).kind(), RegKind::kAccumulator);
  EXPECT_FALSE(Reg{}.valid());
  EXPECT_TRUE(gpr(0).valid());
  EXPECT_NE(gpr(3), ureg(3));
  EXPECT_EQ(sizeof(Reg), 2u);
}

TEST(TracesRegistersTest, ZeroRegisters) {
  EXPECT_TRUE(kRZ.is_zero());
  EXPECT_TRUE(kURZ.is_zero());
  EXPECT_TRUE(kPT.is_zero());
  EXPECT_TRUE(kUPT.is_zero());
  EXPECT_FALSE(gpr(254).is_zero());
  EXPECT_FALSE(ureg(62).is_zero());
  EXPECT_FALSE(pred(6).is_zero());
  EXPECT_FALSE(vgpr(255).is_zero());  // AMD has no zero register
  EXPECT_FALSE(Reg{}.is_zero());
}

TEST(TracesRegistersTest, PerLaneKinds) {
  EXPECT_TRUE(is_per_lane(RegKind::kGeneral));
  EXPECT_TRUE(is_per_lane(RegKind::kPredicate));
  EXPECT_TRUE(is_per_lane(RegKind::kVector));
  EXPECT_TRUE(is_per_lane(RegKind::kAccumulator));
  EXPECT_FALSE(is_per_lane(RegKind::kUniform));
  EXPECT_FALSE(is_per_lane(RegKind::kUniformPredicate));
  EXPECT_FALSE(is_per_lane(RegKind::kScalar));
}

TEST(TracesRegistersTest, ParsesSassAndAmdNames) {
  EXPECT_EQ(parse_register("R0"), gpr(0));
  EXPECT_EQ(parse_register("R254"), gpr(254));
  EXPECT_EQ(parse_register("R255"), kRZ);
  EXPECT_EQ(parse_register("RZ"), kRZ);
  EXPECT_EQ(parse_register("UR5"), ureg(5));
  EXPECT_EQ(parse_register("URZ"), kURZ);
  EXPECT_EQ(parse_register("P2"), pred(2));
  EXPECT_EQ(parse_register("PT"), kPT);
  EXPECT_EQ(parse_register("UP1"), upred(1));
  EXPECT_EQ(parse_register("UPT"), kUPT);
  EXPECT_EQ(parse_register("v511"), vgpr(511));
  EXPECT_EQ(parse_register("s7"), sgpr(7));
  EXPECT_EQ(parse_register("a3"), agpr(3));
}

TEST(TracesRegistersTest, RejectsMalformedNames) {
  for (const char* bad : {"", "R", "R256", "UR64", "P8", "UP8", "R-1", "R1x", "X1", "r1", "v512",
                          "s128", "a256", "R00001", "U5"}) {
    EXPECT_FALSE(parse_register(bad).has_value()) << bad;
  }
}

TEST(TracesRegistersTest, NamesRoundTrip) {
  for (Reg reg : {gpr(0), gpr(77), kRZ, ureg(9), kURZ, pred(0), kPT, upred(6), kUPT, vgpr(12),
                  sgpr(100), agpr(4)}) {
    const std::string name = register_name(reg);
    EXPECT_EQ(parse_register(name), reg) << name;
  }
  EXPECT_EQ(register_name(kRZ), "RZ");
  EXPECT_EQ(register_name(gpr(7)), "R7");
  EXPECT_EQ(register_name(Reg{}), "-");
}

}  // namespace
}  // namespace warpsim::traces
