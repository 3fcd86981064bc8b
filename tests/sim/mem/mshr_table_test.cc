#include "sim/mem/mshr_table.h"

#include <gtest/gtest.h>

#include <vector>

#include "arch/error.h"

namespace warpsim::mem {
namespace {

TEST(MemMshrTable, MergedTargetsLeaveWhenTheirSectorsArrive) {
  MshrTable table({.entries = 2, .targets_per_entry = 3}, "l2");
  EXPECT_EQ(table.find(128), MshrTable::kNone);
  const MshrTable::Index e = table.allocate(128);
  table.mark_requested(e, 0b0011);
  table.add_target(e, MemRequest::read(128, 0b0001, 1, 0), 0b0001);
  table.add_target(e, MemRequest::read(128, 0b0011, 2, 0), 0b0011);
  table.add_target(e, MemRequest::read(128, 0b0010, 3, 0), 0b0010);
  EXPECT_FALSE(table.can_add_target(e));
  EXPECT_EQ(table.find(128), e);
  EXPECT_EQ(table.in_flight(e), 0b0011);
  std::vector<std::uint64_t> ready;
  const auto record = [&](const MemRequest& r) { ready.push_back(r.id); };
  EXPECT_TRUE(table.fill(128, 0b0010, record));
  EXPECT_EQ(ready, (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(table.in_use(), 1u);
  EXPECT_TRUE(table.fill(128, 0b0001, record));
  EXPECT_EQ(ready, (std::vector<std::uint64_t>{3, 1, 2}));
  EXPECT_EQ(table.in_use(), 0u);
  EXPECT_EQ(table.find(128), MshrTable::kNone);
  EXPECT_FALSE(table.fill(128, 0b0001, record));
}

TEST(MemMshrTable, CapacityIsFixed) {
  MshrTable table({.entries = 2, .targets_per_entry = 1}, "l2");
  table.allocate(0);
  EXPECT_TRUE(table.can_allocate());
  EXPECT_TRUE(table.can_add_target(MshrTable::kNone));
  table.allocate(128);
  EXPECT_FALSE(table.can_allocate());
  EXPECT_FALSE(table.can_add_target(MshrTable::kNone));
  EXPECT_THROW(table.allocate(256), InternalError);
  table.add_target(0, MemRequest::read(0, 1, 1, 0), 1);
  EXPECT_THROW(table.add_target(0, MemRequest::read(0, 1, 2, 0), 1), InternalError);
}

TEST(MemMshrTable, ZeroCapacitiesAreInputErrors) {
  EXPECT_THROW(MshrTable({.entries = 0, .targets_per_entry = 1}, "l2"), InputError);
  try {
    MshrTable({.entries = 1, .targets_per_entry = 0}, "gpu.l2");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu.l2.mshr_targets"), std::string::npos);
  }
}

}  // namespace
}  // namespace warpsim::mem
