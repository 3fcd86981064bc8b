#include "workloads/sass_emulator.h"

#include <gtest/gtest.h>

#include "workloads/sass_walker.h"

namespace warpsim::workloads {
namespace {

// Runs `body` (listing lines without the encoding comments) on one warp of a 64-thread block in
// CTA 3 with parameters {int n = 100, pointer p = 0x10000}, and returns the emulator.
SassEmulator run(const std::string& body, traces::WarpTrace& warp) {
  static std::vector<SassListing> keep;
  std::string text = "Function : t\n";
  uint32_t pc = 0;
  std::istringstream lines(body);
  std::string line;
  while (std::getline(lines, line)) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "/*%04x*/ ", pc);
    text += buf + line + " ; /* 0x0 */\n /* 0x0 */\n";
    pc += 16;
  }
  keep.push_back(parse_sass_listing(text, "t"));
  const SassFunction& f = keep.back().functions[0];
  std::vector<uint8_t> params(16, 0);
  params[0] = 100;
  params[10] = 0x01;  // 0x10000 at offset 8
  static traces::OpcodeTable opcodes(traces::Isa::kSm90);
  SassWalker walker(f, opcodes);
  SassEmulator emulator(f, LaunchContext{{4, 1, 1}, {64, 1, 1}, {3, 0, 0}, 1, params});
  walker.walk(0xFFFFFFFFull, emulator, warp);
  return emulator;
}

TEST(WorkloadsSassEmulator, GlobalThreadIndexAndWideAddress) {
  traces::WarpTrace warp;
  const SassEmulator e = run(
      "S2R R0, SR_TID.X\n"
      "S2UR UR4, SR_CTAID.X\n"
      "LDC R7, c[0x0][0x0]\n"
      "IMAD R7, R7, UR4, R0\n"
      "LDC.64 R2, c[0x0][0x218]\n"
      "IMAD.WIDE R2, R7, 0x4, R2\n"
      "LDG.E R4, desc[UR6][R2.64+0x10]\n",
      warp);
  for (int lane : {0, 5, 31}) {
    const uint32_t i = 3 * 64 + 32 + lane;  // blockIdx.x * blockDim.x + threadIdx.x (warp 1)
    EXPECT_EQ(e.reg(0, lane), 32u + lane);
    EXPECT_EQ(e.reg(7, lane), i);
    EXPECT_EQ(e.reg(2, lane), 0x10000u + 4 * i);
    EXPECT_EQ(e.reg(3, lane), 0u);
  }
  EXPECT_EQ(e.reg(4, 0), std::nullopt);  // no memory image: the loaded value is unknown
  const auto addrs = warp.lane_addresses(warp.instructions.back());
  ASSERT_EQ(addrs.size(), 32u);
  EXPECT_EQ(addrs[5], 0x10000u + 4 * (3 * 64 + 32 + 5) + 0x10);
}

TEST(WorkloadsSassEmulator, IntegerIdiomsOfTheCompiler) {
  traces::WarpTrace warp;
  const SassEmulator e = run(
      "S2R R5, SR_TID.X\n"
      "IADD3 R5, R5, -0x22, RZ\n"            // lane - 2 (tid 32 + lane)
      "LEA.HI R0, R5, R5, RZ, 0x1\n"         // i + (i >> 31)
      "LOP3.LUT R0, R0, 0xfffffffe, RZ, 0xc0, !PT\n"
      "IMAD.IADD R2, R5, 0x1, -R0\n"         // i % 2 (signed)
      "SHF.R.U32.HI R3, RZ, 0x1, R5\n"       // (unsigned) i >> 1
      "SHF.R.S32.HI R4, RZ, 0x1f, R5\n"      // sign of i
      "ISETP.GT.U32.AND P0, PT, R5, 0x10, PT\n"
      "SEL R6, R2, R3, P0\n"
      "LDC R8, c[0x0][0x210]\n"
      "IMNMX R9, R5, R8, PT\n",
      warp);
  for (int lane = 0; lane < 32; ++lane) {
    const int32_t i = lane - 2;
    EXPECT_EQ(e.reg(2, lane), static_cast<uint32_t>(i % 2)) << lane;
    EXPECT_EQ(e.reg(3, lane), static_cast<uint32_t>(i) >> 1) << lane;
    EXPECT_EQ(e.reg(4, lane), i < 0 ? 0xFFFFFFFFu : 0u) << lane;
    const bool p = static_cast<uint32_t>(i) > 0x10;
    EXPECT_EQ(e.reg(6, lane), p ? static_cast<uint32_t>(i % 2) : static_cast<uint32_t>(i) >> 1);
    EXPECT_EQ(e.reg(9, lane), static_cast<uint32_t>(std::min(i, 100))) << lane;
  }
}

TEST(WorkloadsSassEmulator, FloatingPointResultsAreUnknown) {
  traces::WarpTrace warp;
  const SassEmulator e = run("MOV R1, 0x5\nFADD R1, R1, 1\nMOV R2, R1\n", warp);
  EXPECT_EQ(e.reg(1, 0), std::nullopt);
  EXPECT_EQ(e.reg(2, 0), std::nullopt);
}

}  // namespace
}  // namespace warpsim::workloads
