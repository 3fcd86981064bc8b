#include "workloads/sass_walker.h"

#include <gtest/gtest.h>

#include "arch/error.h"
#include "workloads/sass_emulator.h"

namespace warpsim::workloads {
namespace {

// A kernel with a 2-way divergent branch inside BSSY/BSYNC, then a loop of 3 iterations.
constexpr const char* kDivergent = R"(
		Function : divergent
        /*0000*/                   S2R R0, SR_TID.X ;          /* 0x0 */
                                                               /* 0x0 */
        /*0010*/                   LOP3.LUT R1, R0, 0x1, RZ, 0xc0, !PT ; /* 0x0 */
                                                               /* 0x0 */
        /*0020*/                   ISETP.NE.AND P0, PT, R1, RZ, PT ; /* 0x0 */
                                                               /* 0x0 */
        /*0030*/                   BSSY B0, 0x80 ;             /* 0x0 */
                                                               /* 0x0 */
        /*0040*/               @P0 BRA 0x60 ;                  /* 0x0 */
                                                               /* 0x0 */
        /*0050*/                   FADD R2, R2, 1 ;            /* 0x0 */
                                                               /* 0x0 */
        /*0060*/                   FMUL R2, R2, 2 ;            /* 0x0 */
                                                               /* 0x0 */
        /*0070*/                   BSYNC B0 ;                  /* 0x0 */
                                                               /* 0x0 */
        /*0080*/                   MOV R3, 0x3 ;               /* 0x0 */
                                                               /* 0x0 */
        /*0090*/                   IADD3 R3, R3, -0x1, RZ ;    /* 0x0 */
                                                               /* 0x0 */
        /*00a0*/                   ISETP.NE.AND P1, PT, R3, RZ, PT ; /* 0x0 */
                                                               /* 0x0 */
        /*00b0*/               @P1 BRA 0x90 ;                  /* 0x0 */
                                                               /* 0x0 */
        /*00c0*/                   EXIT ;                      /* 0x0 */
                                                               /* 0x0 */
)";

TEST(WorkloadsSassWalker, DivergesAndReconvergesAtBsync) {
  const SassListing listing = parse_sass_listing(kDivergent, "t");
  const SassFunction& f = listing.functions[0];
  traces::OpcodeTable opcodes(traces::Isa::kSm90);
  SassWalker walker(f, opcodes);
  SassEmulator emulator(f, LaunchContext{{1, 1, 1}, {32, 1, 1}, {0, 0, 0}, 0, {}});
  traces::WarpTrace warp;
  walker.walk(0xFFFFFFFFull, emulator, warp);
  std::vector<std::pair<uint32_t, traces::LaneMask>> stream;
  for (const auto& i : warp.instructions) stream.emplace_back(i.pc, i.active_mask);
  const traces::LaneMask even = 0x55555555ull, odd = 0xAAAAAAAAull, all = 0xFFFFFFFFull;
  const std::vector<std::pair<uint32_t, traces::LaneMask>> expected = {
      {0x00, all},  {0x10, all},  {0x20, all},  {0x30, all},
      {0x40, odd},                              // odd lanes take the branch
      {0x50, even}, {0x60, even}, {0x70, even},  // fall-through path first
      {0x60, odd},  {0x70, odd},                // then the parked lanes
      {0x80, all},                              // reconverged
      {0x90, all},  {0xa0, all},  {0xb0, all},  {0x90, all}, {0xa0, all}, {0xb0, all},
      {0x90, all},  {0xa0, all},  {0xb0, 0},    // the loop runs 3 times
      {0xc0, all}};
  EXPECT_EQ(stream, expected);
  // The last branch is predicated off on every lane: those lanes still count as executed.
  const auto* extras = warp.extras_of(warp.instructions[19]);
  ASSERT_NE(extras, nullptr);
  EXPECT_EQ(extras->predicated_off, all);
}

TEST(WorkloadsSassWalker, RunawayLoopIsAnError) {
  constexpr const char* kLoop = R"(
		Function : spin
        /*0000*/                   BRA 0x0 ;  /* 0x0 */
                                              /* 0x0 */
)";
  const SassListing listing = parse_sass_listing(kLoop, "t");
  traces::OpcodeTable opcodes(traces::Isa::kSm90);
  SassWalker walker(listing.functions[0], opcodes, WalkLimits{1000});
  SassEmulator emulator(listing.functions[0], LaunchContext{});
  traces::WarpTrace warp;
  EXPECT_THROW(walker.walk(1, emulator, warp), InputError);
}

TEST(WorkloadsSassWalker, UnknownBranchPredicateIsAnError) {
  constexpr const char* kFloatBranch = R"(
		Function : fbranch
        /*0000*/                   FSETP.GT.AND P0, PT, R2, 1, PT ;  /* 0x0 */
                                                                     /* 0x0 */
        /*0010*/               @P0 BRA 0x30 ;  /* 0x0 */
                                               /* 0x0 */
        /*0020*/                   NOP ;   /* 0x0 */
                                           /* 0x0 */
        /*0030*/                   EXIT ;  /* 0x0 */
                                           /* 0x0 */
)";
  const SassListing listing = parse_sass_listing(kFloatBranch, "t");
  traces::OpcodeTable opcodes(traces::Isa::kSm90);
  SassWalker walker(listing.functions[0], opcodes);
  SassEmulator emulator(listing.functions[0], LaunchContext{});
  traces::WarpTrace warp;
  try {
    walker.walk(0xFFFFFFFFull, emulator, warp);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("P0"), std::string::npos) << e.what();
  }
}

TEST(WorkloadsSassWalker, AssumedPredicateDecidesAnUncomputableBranch) {
  constexpr const char* kFloatBranch = R"(
		Function : fbranch
        /*0000*/                   FSETP.GT.AND P0, PT, R2, 1, PT ;  /* 0x0 */
                                                                     /* 0x0 */
        /*0010*/               @P0 BRA 0x30 ;  /* 0x0 */
                                               /* 0x0 */
        /*0020*/                   NOP ;   /* 0x0 */
                                           /* 0x0 */
        /*0030*/                   EXIT ;  /* 0x0 */
                                           /* 0x0 */
)";
  const SassListing listing = parse_sass_listing(kFloatBranch, "t");
  traces::OpcodeTable opcodes(traces::Isa::kSm90);
  SassWalker walker(listing.functions[0], opcodes);
  LaunchContext context;
  context.assumed_predicates = {{0x10, true}};
  SassEmulator emulator(listing.functions[0], context);
  traces::WarpTrace warp;
  walker.walk(0xFFFFFFFFull, emulator, warp);
  ASSERT_EQ(warp.instructions.size(), 3u);  // FSETP, BRA (taken), EXIT: the NOP is skipped
  EXPECT_EQ(warp.instructions[2].pc, 0x30u);
}

}  // namespace
}  // namespace warpsim::workloads
