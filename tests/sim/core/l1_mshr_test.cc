#include "sim/core/l1_mshr.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "arch/error.h"

namespace warpsim::core {
namespace {

TEST(CoreL1Mshr, AllocateMergeFillAndFree) {
  L1MshrTable table(2, 2);
  EXPECT_EQ(table.find(0x1000), L1MshrTable::kNone);
  const int entry = table.allocate(0x1000, true);
  EXPECT_EQ(entry, 0);
  EXPECT_EQ(table.find(0x1000), entry);
  table.add_in_flight(entry, 0x3);
  table.add_waiter(entry, 7, 0x1);
  EXPECT_TRUE(table.can_merge(entry));
  table.add_waiter(entry, 8, 0x3);
  EXPECT_FALSE(table.can_merge(entry));
  std::vector<std::uint32_t> done;
  table.fill(entry, 0x1, [&](std::uint32_t op) { done.push_back(op); });
  EXPECT_EQ(done, std::vector<std::uint32_t>{7});
  EXPECT_TRUE(table.in_use(entry));
  EXPECT_EQ(table.in_flight(entry), 0x2u);
  table.fill(entry, 0x2, [&](std::uint32_t op) { done.push_back(op); });
  EXPECT_EQ(done, (std::vector<std::uint32_t>{7, 8}));
  EXPECT_FALSE(table.in_use(entry));
  EXPECT_EQ(table.find(0x1000), L1MshrTable::kNone);
  EXPECT_EQ(table.used_count(), 0);
}

TEST(CoreL1Mshr, AtomicEntriesAreNotFoundAndTheTableFills) {
  L1MshrTable table(2, 1);
  const int atomic = table.allocate(0x1000, false);
  EXPECT_EQ(table.find(0x1000), L1MshrTable::kNone);
  const int line = table.allocate(0x1000, true);
  EXPECT_NE(atomic, line);
  EXPECT_FALSE(table.has_free());
  EXPECT_THROW(table.allocate(0x2000, true), InternalError);
  table.add_waiter(line, 1, 0x1);
  EXPECT_THROW(table.add_waiter(line, 2, 0x1), InternalError);
  EXPECT_THROW(L1MshrTable(0, 1), InputError);
}

TEST(CoreL1Mshr, WithoutACapOneEntryTakesThePoolAndFillsInJoiningOrder) {
  // Two entries, no cap per entry, a pool of 5 records.
  L1MshrTable table(2, 0, 0, 5);
  EXPECT_EQ(table.waiter_capacity(), 5);
  const int a = table.allocate(0x1000, true);
  table.add_in_flight(a, 0x3);
  for (std::uint32_t op = 0; op < 4; ++op) {
    ASSERT_TRUE(table.can_merge(a));
    table.add_waiter(a, op, op % 2 == 0 ? 0x1 : 0x3);
  }
  EXPECT_EQ(table.waiter_count(a), 4);
  // One record left: the other entry may take it, then neither can merge or allocate.
  EXPECT_TRUE(table.has_free());
  const int b = table.allocate(0x2000, true);
  table.add_in_flight(b, 0x1);
  table.add_waiter(b, 9, 0x1);
  EXPECT_FALSE(table.can_merge(a));
  EXPECT_FALSE(table.can_merge(b));
  EXPECT_THROW(table.add_waiter(a, 10, 0x1), InternalError);
  std::vector<std::uint32_t> done;
  table.fill(a, 0x1, [&](std::uint32_t op) { done.push_back(op); });
  EXPECT_EQ(done, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(table.waiter_count(a), 2);
  // The two freed records are usable again, by either entry.
  EXPECT_TRUE(table.can_merge(b));
  table.add_waiter(a, 11, 0x2);
  table.fill(a, 0x2, [&](std::uint32_t op) { done.push_back(op); });
  EXPECT_EQ(done, (std::vector<std::uint32_t>{0, 2, 1, 3, 11}));
  EXPECT_FALSE(table.in_use(a));
  table.fill(b, 0x1, [&](std::uint32_t op) { done.push_back(op); });
  EXPECT_EQ(done.back(), 9u);
  EXPECT_EQ(table.used_count(), 0);
  EXPECT_TRUE(table.can_merge(table.allocate(0x3000, true)));
}

TEST(CoreL1Mshr, ThePoolDefaultsToTheCapPerEntryOrEightWithoutOne) {
  EXPECT_EQ(L1MshrTable(16, 4).waiter_capacity(), 64);
  EXPECT_EQ(L1MshrTable(16, 0).waiter_capacity(), 128);
  EXPECT_EQ(L1MshrTable(16, 4, 0, 7).waiter_capacity(), 7);
  EXPECT_EQ(L1MshrTable::waiter_pool(16, 0, 0), 128);
  EXPECT_THROW(L1MshrTable(2, -1), InputError);
  EXPECT_THROW(L1MshrTable(2, 1, 0, -1), InputError);
}

TEST(CoreL1Mshr, TheSectorBudgetCountsSectorsInFlightOverAllEntries) {
  L1MshrTable table(8, 2, 6);
  EXPECT_TRUE(table.has_sector_room(6));
  EXPECT_FALSE(table.has_sector_room(7));
  const int a = table.allocate(0x1000, true);
  table.add_in_flight(a, 0xF);
  table.add_in_flight(a, 0x3);  // already in flight: not counted twice
  EXPECT_EQ(table.sectors_in_flight(), 4);
  const int b = table.allocate(0x2000, true);
  table.add_in_flight(b, 0x3);
  EXPECT_EQ(table.sectors_in_flight(), 6);
  EXPECT_FALSE(table.has_sector_room(1));
  table.add_waiter(a, 1, 0xF);
  table.fill(a, 0x5, [](std::uint32_t) {});
  EXPECT_EQ(table.sectors_in_flight(), 4);
  EXPECT_TRUE(table.has_sector_room(2));
  EXPECT_FALSE(table.has_sector_room(3));
  table.fill(a, 0xA, [](std::uint32_t) {});
  table.add_waiter(b, 2, 0x3);
  table.fill(b, 0x3, [](std::uint32_t) {});
  EXPECT_EQ(table.sectors_in_flight(), 0);
  EXPECT_EQ(table.used_count(), 0);
  // Without a budget any count fits; a budget below one line is refused.
  EXPECT_TRUE(L1MshrTable(2, 1).has_sector_room(1 << 20));
  EXPECT_THROW(L1MshrTable(2, 1, 3), InputError);
}

TEST(CoreL1Mshr, IndexMatchesAMapUnderRandomTraffic) {
  // Many lines in few hash slots: exercises probing and backward-shift deletion.
  L1MshrTable table(16, 1);
  std::map<std::uint64_t, int> reference;
  std::mt19937_64 rng(5);
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t line = (rng() % 40) * 128;
    auto it = reference.find(line);
    ASSERT_EQ(table.find(line), it == reference.end() ? L1MshrTable::kNone : it->second);
    if (it == reference.end() && table.has_free()) {
      const int entry = table.allocate(line, true);
      table.add_in_flight(entry, 0x1);
      reference[line] = entry;
    } else if (it != reference.end()) {
      table.fill(it->second, 0x1, [](std::uint32_t) {});
      reference.erase(it);
    }
  }
  EXPECT_EQ(table.used_count(), static_cast<int>(reference.size()));
}

}  // namespace
}  // namespace warpsim::core
