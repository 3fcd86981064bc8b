#include "sim/core/scoreboard.h"

#include <gtest/gtest.h>

namespace warpsim::core {
namespace {

using engine::kSleep;
using traces::gpr;
using traces::pred;
using traces::ureg;
using traces::WarpInstruction;

WarpInstruction inst(std::initializer_list<traces::Reg> dsts,
                     std::initializer_list<traces::Reg> srcs) {
  WarpInstruction i;
  for (traces::Reg r : dsts) i.dst[i.num_dst++] = r;
  for (traces::Reg r : srcs) i.src[i.num_src++] = r;
  return i;
}

TEST(CoreScoreboard, ReadAfterWriteWaitsForTheReadyCycle) {
  Scoreboard sb;
  sb.record(inst({gpr(1)}, {}), 1, 10, DependencyKind::kFixed, 0);
  const Hazard h = sb.check(inst({gpr(2)}, {gpr(1)}), 1, 5);
  EXPECT_TRUE(h.blocked);
  EXPECT_EQ(h.ready, 10u);
  EXPECT_EQ(h.kind, DependencyKind::kFixed);
  EXPECT_FALSE(sb.check(inst({gpr(2)}, {gpr(1)}), 1, 10).blocked);
  EXPECT_EQ(sb.entries_in_use(), 0);  // reclaimed when found expired
}

TEST(CoreScoreboard, WriteAfterWriteStalls) {
  Scoreboard sb;
  sb.record(inst({gpr(4)}, {}), 4, kSleep, DependencyKind::kLong, 7);
  const Hazard h = sb.check(inst({gpr(6)}, {}), 1, 100);  // R6 is inside R4..R7
  EXPECT_TRUE(h.blocked);
  EXPECT_EQ(h.ready, kSleep);
  EXPECT_EQ(h.kind, DependencyKind::kLong);
  EXPECT_FALSE(sb.check(inst({gpr(8)}, {}), 1, 100).blocked);
}

// STS.128 [R114], R88: until the store's data are read, writing R88..R91 waits (write after read).
TEST(CoreScoreboard, AStoresDataRegistersAreLockedUntilItCompletes) {
  Scoreboard sb;
  sb.lock_for_read(gpr(88), 4, DependencyKind::kShort, 9);
  const Hazard h = sb.check(inst({gpr(90)}, {gpr(3)}), 1, 20);
  EXPECT_TRUE(h.blocked);
  EXPECT_EQ(h.ready, kSleep);
  EXPECT_EQ(h.kind, DependencyKind::kShort);
  EXPECT_FALSE(sb.check(inst({gpr(92)}, {gpr(3)}), 1, 20).blocked);
  sb.complete(9, 50);
  EXPECT_EQ(sb.check(inst({gpr(88)}, {}), 1, 20).ready, 50u);
  EXPECT_FALSE(sb.check(inst({gpr(88)}, {}), 1, 50).blocked);
}

TEST(CoreScoreboard, PendingUntilCompletion) {
  Scoreboard sb;
  sb.record(inst({gpr(2)}, {}), 1, kSleep, DependencyKind::kShort, 42);
  sb.complete(41, 50);
  EXPECT_EQ(sb.check(inst({}, {gpr(2)}), 1, 60).ready, kSleep);
  sb.complete(42, 50);
  EXPECT_EQ(sb.check(inst({}, {gpr(2)}), 1, 49).ready, 50u);
  EXPECT_EQ(sb.check(inst({}, {gpr(2)}), 1, 49).kind, DependencyKind::kShort);
  EXPECT_FALSE(sb.check(inst({}, {gpr(2)}), 1, 50).blocked);
}

TEST(CoreScoreboard, PendingBeatsAKnownCycleAndLongBeatsShort) {
  Scoreboard sb;
  sb.record(inst({gpr(1)}, {}), 1, 90, DependencyKind::kFixed, 0);
  sb.record(inst({gpr(2)}, {}), 1, kSleep, DependencyKind::kShort, 3);
  sb.record(inst({gpr(3)}, {}), 1, kSleep, DependencyKind::kLong, 5);
  const Hazard h = sb.check(inst({}, {gpr(1), gpr(2), gpr(3)}), 1, 0);
  EXPECT_EQ(h.ready, kSleep);
  EXPECT_EQ(h.kind, DependencyKind::kLong);
}

TEST(CoreScoreboard, UniformPredicateAndGuardRegistersAreTracked) {
  Scoreboard sb;
  sb.record(inst({ureg(4), pred(0)}, {}), 1, 20, DependencyKind::kFixed, 0);
  EXPECT_TRUE(sb.check(inst({}, {ureg(4)}), 1, 0).blocked);
  WarpInstruction guarded = inst({gpr(9)}, {});
  guarded.guard = pred(0);
  EXPECT_TRUE(sb.check(guarded, 1, 0).blocked);
  EXPECT_FALSE(sb.check(inst({}, {gpr(4)}), 1, 0).blocked);  // R4 is not UR4
}

TEST(CoreScoreboard, ZeroRegistersAreIgnored) {
  Scoreboard sb;
  sb.record(inst({traces::kRZ, traces::kPT}, {}), 1, 20, DependencyKind::kFixed, 0);
  EXPECT_EQ(sb.entries_in_use(), 0);
  EXPECT_FALSE(
      sb.check(inst({traces::kRZ}, {traces::kRZ, traces::kURZ, traces::kPT}), 1, 0).blocked);
  EXPECT_EQ(Scoreboard::flat_index(traces::kUPT), -1);
  EXPECT_EQ(Scoreboard::flat_index(gpr(300)), -1);  // out of range: ignored, never a crash
}

TEST(CoreScoreboard, FullScoreboardWaitsForTheEarliestEntry) {
  Scoreboard sb;
  for (std::uint32_t i = 0; i < Scoreboard::kCapacity; ++i) {
    sb.record(inst({gpr(i)}, {}), 1, 100 + i, DependencyKind::kFixed, 0);
  }
  const Hazard h = sb.check(inst({gpr(200)}, {}), 1, 50);
  EXPECT_TRUE(h.blocked);
  EXPECT_EQ(h.ready, 100u);
  EXPECT_FALSE(sb.check(inst({gpr(200)}, {}), 1, 100).blocked);
  sb.clear();
  EXPECT_EQ(sb.entries_in_use(), 0);
}

}  // namespace
}  // namespace warpsim::core
