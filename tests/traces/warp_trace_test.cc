#include "traces/warp_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>

#include "arch/error.h"

namespace warpsim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TracesWarpTraceTest, InstructionIsCompact) {
  EXPECT_LE(sizeof(WarpInstruction), 64u);
  EXPECT_EQ(kMaxDsts, 4);
  EXPECT_EQ(kMaxSrcs, 6);
}

TEST(TracesWarpTraceTest, OnlyMemoryInstructionsHoldAddresses) {
  WarpTrace warp;
  WarpInstruction alu;
  alu.active_mask = 0xFFFFFFFF;
  warp.instructions.push_back(alu);
  WarpInstruction load;
  load.active_mask = 0x0000000Full;
  const std::array<uint64_t, 4> addrs = {0x100, 0x104, 0x108, 0x10C};
  warp.set_lane_addresses(load, addrs);
  warp.instructions.push_back(load);
  EXPECT_EQ(warp.addresses.size(), 4u);
  EXPECT_FALSE(warp.instructions[0].has_lane_addresses());
  EXPECT_TRUE(warp.lane_addresses(warp.instructions[0]).empty());
  EXPECT_EQ(warp.instructions[0].lane_address_count(), 0u);
  EXPECT_THAT(warp.lane_addresses(warp.instructions[1]), ElementsAre(0x100, 0x104, 0x108, 0x10C));
  EXPECT_EQ(warp.instructions[1].lane_address_count(), 4u);
}

TEST(TracesWarpTraceTest, AddressCountMustMatchActiveLanes) {
  WarpTrace warp;
  warp.warp_id = 3;
  WarpInstruction load;
  load.active_mask = 0x3;
  load.pc = 0x40;
  const std::array<uint64_t, 3> addrs = {1, 2, 3};
  try {
    warp.set_lane_addresses(load, addrs);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("expected 2 lane addresses"));
    EXPECT_THAT(e.what(), HasSubstr("warp 3"));
  }
  EXPECT_TRUE(warp.addresses.empty());
  EXPECT_FALSE(load.has_lane_addresses());
}

TEST(TracesWarpTraceTest, ExpandsAddressesByLane) {
  WarpTrace warp;
  WarpInstruction load;
  load.active_mask = (1ull << 1) | (1ull << 5) | (1ull << 63);
  const std::array<uint64_t, 3> addrs = {10, 50, 630};
  warp.set_lane_addresses(load, addrs);
  std::array<uint64_t, kMaxLanes> lanes{};
  lanes.fill(7);
  warp.expand_lane_addresses(load, lanes);
  EXPECT_EQ(lanes[0], 7u);
  EXPECT_EQ(lanes[1], 10u);
  EXPECT_EQ(lanes[5], 50u);
  EXPECT_EQ(lanes[63], 630u);
}

TEST(TracesWarpTraceTest, UniformAddressIsStoredOnce) {
  WarpTrace warp;
  WarpInstruction ldc;
  ldc.active_mask = (1ull << 2) | (1ull << 3) | (1ull << 9);
  const std::array<uint64_t, 3> same = {0x7000, 0x7000, 0x7000};
  warp.set_lane_addresses(ldc, same);
  EXPECT_TRUE(ldc.has_uniform_address());
  EXPECT_EQ(ldc.lane_address_count(), 1u);
  EXPECT_THAT(warp.lane_addresses(ldc), ElementsAre(0x7000));
  std::array<uint64_t, kMaxLanes> lanes{};
  lanes.fill(7);
  warp.expand_lane_addresses(ldc, lanes);
  EXPECT_EQ(lanes[1], 7u);
  EXPECT_EQ(lanes[2], 0x7000u);
  EXPECT_EQ(lanes[3], 0x7000u);
  EXPECT_EQ(lanes[9], 0x7000u);
  EXPECT_EQ(lanes[10], 7u);
  // Reusing the instruction for distinct addresses clears the flag; one lane is never uniform.
  const std::array<uint64_t, 3> distinct = {0x7000, 0x7004, 0x7000};
  warp.set_lane_addresses(ldc, distinct);
  EXPECT_FALSE(ldc.has_uniform_address());
  EXPECT_EQ(ldc.lane_address_count(), 3u);
  WarpInstruction one;
  one.active_mask = 1;
  const std::array<uint64_t, 1> single = {0x10};
  warp.set_lane_addresses(one, single);
  EXPECT_FALSE(one.has_uniform_address());
  EXPECT_EQ(warp.addresses.size(), 5u);
  warp.instructions = {ldc, one};
  EXPECT_NO_THROW(warp.validate("uniform", 32));
}

TEST(TracesWarpTraceTest, AllZeroMaskMemoryInstructionHasNoAddresses) {
  WarpTrace warp;
  WarpInstruction load;
  load.active_mask = 0;
  warp.set_lane_addresses(load, {});
  EXPECT_TRUE(load.has_lane_addresses());
  EXPECT_TRUE(warp.lane_addresses(load).empty());
}

TEST(TracesWarpTraceTest, ExtrasTmaAndValues) {
  WarpTrace warp;
  WarpInstruction inst;
  inst.num_dst = 1;
  inst.num_src = 2;
  EXPECT_EQ(warp.extras_of(inst), nullptr);
  InstructionExtras& ex = warp.mutable_extras(inst);
  ex.imm2 = -5;
  TmaInfo tma;
  tma.bytes = 8192;
  tma.address_offset = static_cast<uint32_t>(warp.addresses.size());
  tma.address_count = 2;
  warp.addresses.insert(warp.addresses.end(), {0xA000, 0xB000});
  ex.tma = tma;
  ex.has_values = true;
  ex.wide_values = 0b010;  // operand 1 (the first source) has one value per lane
  ex.values_offset = 0;
  warp.values.push_back(42);                                         // dst 0
  for (uint32_t i = 0; i < 32; ++i) warp.values.push_back(100 + i);  // src 0
  warp.values.push_back(9);                                          // src 1
  warp.instructions.push_back(inst);

  const WarpInstruction& stored = warp.instructions[0];
  ASSERT_NE(warp.extras_of(stored), nullptr);
  EXPECT_EQ(warp.extras_of(stored)->imm2, -5);
  EXPECT_THAT(warp.tma_addresses(stored), ElementsAre(0xA000, 0xB000));
  EXPECT_THAT(warp.operand_values(stored, 0, 32), ElementsAre(42));
  const auto wide = warp.operand_values(stored, 1, 32);
  ASSERT_EQ(wide.size(), 32u);
  EXPECT_EQ(wide[0], 100u);
  EXPECT_EQ(wide[31], 131u);
  EXPECT_THAT(warp.operand_values(stored, 2, 32), ElementsAre(9));
  EXPECT_TRUE(warp.operand_values(stored, 3, 32).empty());
  EXPECT_NO_THROW(warp.validate("test", 32));
  // A second mutable_extras call returns the same record.
  EXPECT_EQ(&warp.mutable_extras(warp.instructions[0]), &warp.extras[0]);
}

TEST(TracesWarpTraceTest, ClearKeepsCapacity) {
  WarpTrace warp;
  for (int i = 0; i < 100; ++i) warp.instructions.emplace_back();
  warp.addresses.resize(500);
  const size_t instruction_capacity = warp.instructions.capacity();
  const size_t address_capacity = warp.addresses.capacity();
  const size_t bytes = warp.memory_bytes();
  warp.clear();
  EXPECT_TRUE(warp.instructions.empty());
  EXPECT_TRUE(warp.addresses.empty());
  EXPECT_EQ(warp.instructions.capacity(), instruction_capacity);
  EXPECT_EQ(warp.addresses.capacity(), address_capacity);
  EXPECT_EQ(warp.memory_bytes(), bytes);
  EXPECT_GE(bytes, 100 * sizeof(WarpInstruction) + 500 * sizeof(uint64_t));
}

TEST(TracesWarpTraceTest, DropFrontKeepsTheRestAndTheirPoolEntries) {
  WarpTrace warp;
  WarpInstruction first_load;
  first_load.active_mask = 0x3;
  warp.set_lane_addresses(first_load, std::array<uint64_t, 2>{0x10, 0x20});
  warp.mutable_extras(first_load).predicated_off = 0x4;
  warp.instructions.push_back(first_load);
  WarpInstruction alu;
  alu.pc = 16;
  alu.active_mask = 0xFFFFFFFF;
  warp.instructions.push_back(alu);
  WarpInstruction load;
  load.pc = 32;
  load.active_mask = 0x5;
  warp.set_lane_addresses(load, std::array<uint64_t, 2>{0x100, 0x140});
  InstructionExtras& ex = warp.mutable_extras(load);
  ex.predicated_off = 0x2;
  ex.has_values = true;
  ex.values_offset = 3;
  warp.values = {1, 2, 3, 77};
  warp.instructions.push_back(load);
  warp.line_numbers = {7, 8, 9};
  const size_t capacity = warp.instructions.capacity();

  warp.drop_front(1);  // the first load's addresses and extras go
  ASSERT_EQ(warp.instructions.size(), 2u);
  EXPECT_EQ(warp.instructions[0].pc, 16u);
  EXPECT_THAT(warp.lane_addresses(warp.instructions[1]), ElementsAre(0x100, 0x140));
  ASSERT_NE(warp.extras_of(warp.instructions[1]), nullptr);
  EXPECT_EQ(warp.extras_of(warp.instructions[1])->predicated_off, 0x2u);
  EXPECT_THAT(warp.addresses, ElementsAre(0x100, 0x140));
  EXPECT_EQ(warp.extras.size(), 1u);
  EXPECT_THAT(warp.values, ElementsAre(77));
  EXPECT_EQ(warp.extras[0].values_offset, 0u);
  EXPECT_THAT(warp.line_numbers, ElementsAre(8, 9));
  EXPECT_EQ(warp.instructions.capacity(), capacity);
  EXPECT_NO_THROW(warp.validate("test", 32));

  warp.drop_front(2);
  EXPECT_TRUE(warp.instructions.empty());
  EXPECT_TRUE(warp.addresses.empty());
  EXPECT_TRUE(warp.extras.empty());
  EXPECT_TRUE(warp.values.empty());
}

// Appends one ALU instruction per call, `left` times.
class CountingStream final : public WarpStream {
 public:
  explicit CountingStream(int left) : left_(left) {}
  bool append(WarpTrace& warp) override {
    if (left_ == 0) return false;
    WarpInstruction inst;
    inst.pc = static_cast<uint32_t>(16 * left_--);
    warp.instructions.push_back(inst);
    return true;
  }

 private:
  int left_;
};

TEST(TracesWarpTraceTest, FillAllAppendsTheRestOfAStreamedWarp) {
  WarpTrace warp;
  warp.instructions.emplace_back();
  warp.more = std::make_shared<CountingStream>(3);
  warp.fill_all();
  EXPECT_EQ(warp.more, nullptr);
  ASSERT_EQ(warp.instructions.size(), 4u);
  EXPECT_EQ(warp.instructions[3].pc, 16u);
  warp.more = std::make_shared<CountingStream>(1);
  warp.clear();
  EXPECT_EQ(warp.more, nullptr);
}

TEST(TracesWarpTraceTest, CorruptIndicesThrowInsteadOfReadingOutOfBounds) {
  WarpTrace warp;
  WarpInstruction inst;
  inst.active_mask = 0xF;
  inst.flags = kInstLaneAddresses;
  inst.mem_offset = 10;
  EXPECT_THROW(warp.lane_addresses(inst), InternalError);
  inst.extras = 3;
  EXPECT_THROW(warp.extras_of(inst), InternalError);
  EXPECT_THROW(warp.mutable_extras(inst), InternalError);
}

TEST(TracesWarpTraceTest, ValidateNamesEachProblem) {
  const auto message = [](const WarpTrace& warp, uint32_t warp_size) -> std::string {
    try {
      warp.validate("file.traceg", warp_size);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  WarpTrace warp;
  warp.warp_id = 2;
  WarpInstruction inst;
  inst.active_mask = 1ull << 40;
  warp.instructions.push_back(inst);
  EXPECT_THAT(message(warp, 32), HasSubstr("beyond the warp size 32"));
  EXPECT_THAT(message(warp, 32), HasSubstr("file.traceg, warp 2, instruction 0"));
  EXPECT_EQ(message(warp, 64), "");

  warp.instructions[0] = WarpInstruction{};
  warp.instructions[0].num_dst = 5;
  EXPECT_THAT(message(warp, 32), HasSubstr("more than 4 destination"));
  warp.instructions[0].num_dst = 0;
  warp.instructions[0].num_src = 7;
  EXPECT_THAT(message(warp, 32), HasSubstr("more than 6 source"));
  warp.instructions[0].num_src = 0;

  warp.instructions[0].active_mask = 1;
  warp.instructions[0].flags = kInstLaneAddresses;
  EXPECT_THAT(message(warp, 32), HasSubstr("lane addresses beyond"));
  warp.instructions[0].flags = 0;

  warp.instructions[0].extras = 0;
  EXPECT_THAT(message(warp, 32), HasSubstr("extras index beyond"));
  warp.extras.emplace_back();
  warp.extras[0].tma = TmaInfo{};
  warp.extras[0].tma->address_count = 1;
  EXPECT_THAT(message(warp, 32), HasSubstr("TMA addresses beyond"));
  warp.extras[0].tma.reset();
  warp.extras[0].has_values = true;
  warp.instructions[0].num_dst = 1;
  EXPECT_THAT(message(warp, 32), HasSubstr("register values beyond"));
  warp.values.push_back(1);
  EXPECT_EQ(message(warp, 32), "");

  warp.line_numbers = {1, 2};
  EXPECT_THAT(message(warp, 32), HasSubstr("one line number per instruction"));
}

}  // namespace
}  // namespace warpsim::traces
