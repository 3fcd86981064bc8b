#include "workloads/sass_listing.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "arch/error.h"
#include "workloads/listing_model.h"

namespace warpsim::workloads {
namespace {

using traces::gpr;
using traces::pred;
using traces::ureg;

constexpr const char* kListing = R"SASS(
	code for sm_90
		Function : _Z5saxpyfPKfPfi
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                 /* 0x00000a00ff017b82 */
                                                                          /* 0x000fe20000000800 */
        /*0060*/                   ISETP.GE.AND P0, PT, R7, UR4, PT ;     /* 0x0000000407007c0c */
                                                                          /* 0x000fda000bf06270 */
        /*0070*/               @P0 EXIT ;                                 /* 0x000000000000094d */
                                                                          /* 0x000fea0003800000 */
        /*00d0*/                   LDG.E.CONSTANT R2, desc[UR4][R2.64] ;  /* 0x0000000402027981 */
                                                                          /* 0x000ea2000c1e9900 */
        /*0100*/                   FFMA R7, R2, UR6, R7 ;                 /* 0x0000000602077c23 */
                                                                          /* 0x004fca0008000007 */
        /*0110*/                   STG.E desc[UR4][R4.64], R7 ;           /* 0x0000000704007986 */
                                                                          /* 0x000fe2000c101904 */
        /*0120*/              @!P1 BRA 0x60 ;                             /* 0x000000000000794d */
                                                                          /* 0x000fea0003800000 */
        /*0130*/                   NOP;                                   /* 0x0000000000007918 */
                                                                          /* 0x000fc00000000000 */
)SASS";

TEST(WorkloadsSassListing, ParsesInstructionsRegistersAndControl) {
  const SassListing listing = parse_sass_listing(kListing, "test.sass");
  ASSERT_EQ(listing.functions.size(), 1u);
  const SassFunction& f = listing.function("saxpy");
  ASSERT_EQ(f.instructions.size(), 7u);  // the trailing NOP is dropped
  const SassInstruction& setp = f.instructions[1];
  EXPECT_EQ(setp.mnemonic, "ISETP.GE.AND");
  EXPECT_EQ(setp.dsts, (std::vector<traces::Reg>{pred(0), traces::kPT}));
  EXPECT_EQ(setp.srcs, (std::vector<traces::Reg>{gpr(7), ureg(4), traces::kPT}));
  const SassInstruction& exit = f.instructions[2];
  EXPECT_EQ(exit.guard, pred(0));
  EXPECT_FALSE(exit.guard_negated);
  const SassInstruction& ldg = f.instructions[3];
  EXPECT_EQ(ldg.dsts, (std::vector<traces::Reg>{gpr(2)}));
  EXPECT_EQ(ldg.srcs, (std::vector<traces::Reg>{ureg(4), gpr(2)}));
  EXPECT_EQ(ldg.control.write_barrier, 2);  // sets scoreboard 2
  EXPECT_EQ(ldg.control.stall_cycles, 1);
  const SassInstruction& ffma = f.instructions[4];
  EXPECT_EQ(ffma.control.wait_mask, 0b000100);  // waits on scoreboard 2
  EXPECT_EQ(ffma.control.stall_cycles, 5);
  const SassInstruction& stg = f.instructions[5];
  EXPECT_TRUE(stg.dsts.empty());
  EXPECT_EQ(stg.srcs, (std::vector<traces::Reg>{ureg(4), gpr(4), gpr(7)}));
  const SassInstruction& bra = f.instructions[6];
  EXPECT_TRUE(bra.guard_negated);
  EXPECT_EQ(bra.branch_target, 0x60u);
  EXPECT_EQ(f.index_of(0x110), 5u);
  EXPECT_THROW(f.index_of(0x114), InputError);
}

constexpr const char* kPredicateFirst = R"SASS(
		Function : _Z6reducePf
        /*0000*/                   SHFL.BFLY PT, R7, R0, 0x10, 0x1f ;     /* 0x0e001f0000077f89 */
                                                                          /* 0x000e2200000e0000 */
        /*0010*/                   FADD R7, R0, R7 ;                      /* 0x0000000700077221 */
                                                                          /* 0x001fca0000000000 */
        /*0020*/                   LOP3.LUT P0, R3, R7, 0x8, RZ, 0xc0, !PT ; /* 0x0000000807037812 */
                                                                          /* 0x000fda000780c0ff */
        /*0030*/                   FCHK P1, R3, R10 ;                     /* 0x0000000a03007302 */
                                                                          /* 0x000e220000020000 */
        /*0040*/              @P0  ATOMG.E.ADD.STRONG.GPU PT, R24, desc[UR60][R4.64], R7 ; /* 0x000000070418098a */
                                                                          /* 0x001ea8000c1ef13c */
)SASS";

// SHFL, LOP3 and ATOMG may name a predicate output before their register result; the result is
// still a destination (the FADD after a shuffle waits for it, the SHFL after an atomic for the old
// value), where FCHK's registers are its sources.
TEST(WorkloadsSassListing, ARegisterAfterAPredicateOutputIsADestination) {
  const SassListing listing = parse_sass_listing(kPredicateFirst, "t.sass");
  const SassFunction& f = listing.function("reduce");
  ASSERT_EQ(f.instructions.size(), 5u);
  EXPECT_EQ(f.instructions[0].dsts, (std::vector<traces::Reg>{traces::kPT, gpr(7)}));
  EXPECT_EQ(f.instructions[0].srcs, (std::vector<traces::Reg>{gpr(0)}));
  EXPECT_EQ(f.instructions[2].dsts, (std::vector<traces::Reg>{pred(0), gpr(3)}));
  EXPECT_EQ(f.instructions[2].srcs, (std::vector<traces::Reg>{gpr(7), traces::kRZ, traces::kPT}));
  EXPECT_EQ(f.instructions[3].dsts, (std::vector<traces::Reg>{pred(1)}));
  EXPECT_EQ(f.instructions[3].srcs, (std::vector<traces::Reg>{gpr(3), gpr(10)}));
  EXPECT_EQ(f.instructions[4].dsts, (std::vector<traces::Reg>{traces::kPT, gpr(24)}));
  const std::vector<traces::Reg>& atom_srcs = f.instructions[4].srcs;
  EXPECT_NE(std::find(atom_srcs.begin(), atom_srcs.end(), gpr(4)), atom_srcs.end());
  EXPECT_NE(std::find(atom_srcs.begin(), atom_srcs.end(), gpr(7)), atom_srcs.end());
}

TEST(WorkloadsSassListing, ErrorsNameTheLine) {
  try {
    parse_sass_listing("        /*0000*/  LDC R1 ;  /* 0x0 */\n", "bad.sass");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.sass:1"), std::string::npos) << e.what();
  }
  try {
    parse_sass_listing("Function : f\n  /*00zz*/ NOP ; /* 0x0 */\n", "bad.sass");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.sass:2"), std::string::npos) << e.what();
  }
  const SassListing ok = parse_sass_listing(kListing, "t");
  EXPECT_THROW(ok.function("nothing"), InputError);
}

TEST(WorkloadsSassListing, TheCommittedListingHoldsEveryTwin) {
  const SassListing& listing = sm90_listing();
  EXPECT_GE(listing.functions.size(), 20u);
  for (const auto& f : listing.functions) EXPECT_FALSE(f.instructions.empty()) << f.name;
}

}  // namespace
}  // namespace warpsim::workloads
