#include "sim/core/instruction_fetch.h"

#include <gtest/gtest.h>

#include "arch/error.h"

namespace warpsim::core {
namespace {

constexpr InstructionFetchConfig kConfig{.l0_bytes = 2048,  // 16 lines: 2 sets of 8 ways
                                         .l1_bytes = 4096,  // 32 lines
                                         .ways = 8,
                                         .l1_cycles = 20,
                                         .miss_cycles = 300,
                                         .line_cycles = 30,
                                         .prefetch_lines = 2};

TEST(CoreInstructionFetch, AColdLineComesFromMemoryThroughBothLevels) {
  InstructionFetch f(kConfig, 4);
  ASSERT_TRUE(f.enabled());
  // Line 0 reaches the second level at 300, the first at 320; lines 1 and 2 follow the stream
  // 30 cycles apart (330, 360), and line 1 goes on to the first level at 350.
  EXPECT_EQ(f.enter(0, 0x00, 0), 320u);
  // Entering line 1 at 320 asks for line 3 (a new stream: 320 + 300 = 620) and copies line 2
  // to the first level (360 + 20).
  EXPECT_EQ(f.enter(0, 0x80, 320), 350u);
  EXPECT_EQ(f.enter(0, 0x100, 350), 380u);
  EXPECT_EQ(f.enter(0, 0x180, 380), 640u);
  // Within a line, and on a line the first level holds, nothing waits.
  EXPECT_EQ(f.enter(0, 0x7c, 400), 400u);
}

TEST(CoreInstructionFetch, SubPartitionsShareTheSecondLevelOnly) {
  InstructionFetch f(kConfig, 4);
  EXPECT_EQ(f.enter(0, 0x00, 0), 320u);
  // Sub-partition 1 finds line 0 in the second level: one copy to its first level.
  EXPECT_EQ(f.enter(1, 0x00, 500), 520u);
  // While a line is still on its way to the second level, a copy waits for it.
  EXPECT_EQ(f.enter(2, 0x00, 100), 320u);
}

TEST(CoreInstructionFetch, TheMemoryStreamSpacesItsLines) {
  InstructionFetch f(kConfig, 1);
  EXPECT_EQ(f.enter(0, 0x0, 0), 320u);  // lines 0-2: 300, 330, 360
  // A jump far away at cycle 10: its line can come no sooner than 30 after the stream's last.
  EXPECT_EQ(f.enter(0, 0x10000, 10), 390u + 20u);
}

TEST(CoreInstructionFetch, WithoutSizesNothingIsModelled) {
  InstructionFetch f;
  EXPECT_FALSE(f.enabled());
  EXPECT_NO_THROW(validate(InstructionFetchConfig{}));
}

TEST(CoreInstructionFetch, BadSizesNameTheField) {
  InstructionFetchConfig c = kConfig;
  c.l1_bytes = 0;
  try {
    validate(c);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sm.instruction_fetch.l1_bytes"), std::string::npos);
  }
  c = kConfig;
  c.l0_bytes = 1000;
  EXPECT_THROW(validate(c), InputError);
  c = kConfig;
  c.line_cycles = 0;
  EXPECT_THROW(validate(c), InputError);
}

}  // namespace
}  // namespace warpsim::core
