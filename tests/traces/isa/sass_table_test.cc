#include "traces/isa/sass_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "traces/isa/sass_opcodes.h"

namespace warpsim::traces {
namespace {

/// "3_LDG_E_128" for parameter 3 with mnemonic "LDG.E.128".
template <typename Case>
std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = std::to_string(info.index) + "_" + info.param.mnemonic;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

struct MemCase {
  const char* mnemonic;
  MemSpace space;
  AccessKind access;
  uint16_t width;
};

class IsaSassMemoryTest : public ::testing::TestWithParam<MemCase> {};

TEST_P(IsaSassMemoryTest, SpaceKindAndWidth) {
  const MemCase& c = GetParam();
  const OpcodeInfo info = classify_sass(c.mnemonic);
  EXPECT_TRUE(info.known);
  EXPECT_EQ(info.op_class, arch::LOAD_STORE);
  EXPECT_EQ(info.space, c.space) << mem_space_name(info.space);
  EXPECT_EQ(info.access, c.access) << access_kind_name(info.access);
  EXPECT_EQ(info.width_bytes, c.width);
  EXPECT_TRUE(info.is_memory());
}

INSTANTIATE_TEST_SUITE_P(
    Representative, IsaSassMemoryTest,
    ::testing::Values(
        MemCase{"LDG.E.128", MemSpace::kGlobal, AccessKind::kLoad, 16},
        MemCase{"LDG.E.128.CONSTANT", MemSpace::kGlobal, AccessKind::kLoad, 16},
        MemCase{"LDG.E", MemSpace::kGlobal, AccessKind::kLoad, 4},
        MemCase{"LDG.E.U8", MemSpace::kGlobal, AccessKind::kLoad, 1},
        MemCase{"LDG.E.S16", MemSpace::kGlobal, AccessKind::kLoad, 2},
        MemCase{"LDG.E.64.SYS", MemSpace::kGlobal, AccessKind::kLoad, 8},
        MemCase{"LDG.E.ENL2.256", MemSpace::kGlobal, AccessKind::kLoad, 32},
        MemCase{"STG.E.64", MemSpace::kGlobal, AccessKind::kStore, 8},
        MemCase{"STS.64", MemSpace::kShared, AccessKind::kStore, 8},
        MemCase{"LDS.U.128", MemSpace::kShared, AccessKind::kLoad, 16},
        MemCase{"LDL.LU", MemSpace::kLocal, AccessKind::kLoad, 4},
        MemCase{"STL.128", MemSpace::kLocal, AccessKind::kStore, 16},
        MemCase{"LDC.64", MemSpace::kConstant, AccessKind::kLoad, 8},
        MemCase{"LD.E.64", MemSpace::kGeneric, AccessKind::kLoad, 8},
        MemCase{"ST.E.U8", MemSpace::kGeneric, AccessKind::kStore, 1},
        MemCase{"ATOMS.ADD", MemSpace::kShared, AccessKind::kAtomic, 4},
        MemCase{"ATOMS.CAS.64", MemSpace::kShared, AccessKind::kAtomic, 8},
        MemCase{"ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU", MemSpace::kGeneric, AccessKind::kAtomic, 4},
        MemCase{"ATOMG.E.EXCH.64.STRONG.GPU", MemSpace::kGlobal, AccessKind::kAtomic, 8},
        MemCase{"RED.E.ADD.F64.RN.STRONG.GPU", MemSpace::kGeneric, AccessKind::kReduction, 8},
        MemCase{"LDGSTS.E.BYPASS.LTC128B.128", MemSpace::kGlobalToShared, AccessKind::kLoad, 16},
        MemCase{"LDSM.16.M88.4", MemSpace::kShared, AccessKind::kLoad, 16},
        MemCase{"STSM.16.M88.4", MemSpace::kShared, AccessKind::kStore, 16},
        MemCase{"UTMALDG.2D", MemSpace::kGlobalToShared, AccessKind::kLoad, 0},
        MemCase{"UTMASTG.3D", MemSpace::kSharedToGlobal, AccessKind::kStore, 0},
        MemCase{"UTMAREDG.2D.ADD", MemSpace::kSharedToGlobal, AccessKind::kReduction, 0},
        MemCase{"UTMAPF.L2.2D", MemSpace::kGlobal, AccessKind::kPrefetch, 0},
        MemCase{"UBLKCP.S.G", MemSpace::kGlobalToShared, AccessKind::kLoad, 0},
        MemCase{"UBLKCP.G.S", MemSpace::kSharedToGlobal, AccessKind::kStore, 0},
        MemCase{"LDTM.16dp32bit.x64", MemSpace::kTensorMemory, AccessKind::kLoad, 256},
        MemCase{"STTM.32dp32bit.x4", MemSpace::kTensorMemory, AccessKind::kStore, 16}),
    case_name<MemCase>);

struct ClassCase {
  const char* mnemonic;
  arch::OpClass op_class;
};

class IsaSassClassTest : public ::testing::TestWithParam<ClassCase> {};

TEST_P(IsaSassClassTest, BaseOpcodeDecidesClass) {
  const OpcodeInfo info = classify_sass(GetParam().mnemonic);
  EXPECT_TRUE(info.known) << GetParam().mnemonic;
  EXPECT_EQ(info.op_class, GetParam().op_class)
      << GetParam().mnemonic << " gave " << arch::OpClass_Name(info.op_class);
  EXPECT_FALSE(info.is_memory()) << GetParam().mnemonic;
}

INSTANTIATE_TEST_SUITE_P(
    Representative, IsaSassClassTest,
    ::testing::Values(
        ClassCase{"IADD3", arch::INT}, ClassCase{"IMAD.MOV.U32", arch::FP32},
        ClassCase{"LOP3.LUT", arch::INT}, ClassCase{"SHF.R.U32.HI", arch::INT},
        ClassCase{"ISETP.GE.AND", arch::INT}, ClassCase{"POPC", arch::INT},
        ClassCase{"FFMA", arch::FP32}, ClassCase{"FADD.FTZ", arch::FP32},
        ClassCase{"FSETP.GT.AND", arch::FP32}, ClassCase{"FFMA2", arch::FP32},
        ClassCase{"HFMA2.MMA", arch::FP16}, ClassCase{"HADD2.F32", arch::FP16},
        ClassCase{"DFMA", arch::FP64}, ClassCase{"DSETP.GT.AND", arch::FP64},
        ClassCase{"MUFU.EX2", arch::SFU}, ClassCase{"MUFU.RSQ", arch::SFU},
        ClassCase{"F2F.F16.F32", arch::CONVERSION}, ClassCase{"F2I.TRUNC.NTZ", arch::CONVERSION},
        ClassCase{"I2F.U32", arch::CONVERSION},
        ClassCase{"F2FP.BF16.F32.PACK_AB", arch::CONVERSION},
        ClassCase{"HMMA.16816.F32", arch::TENSOR}, ClassCase{"IMMA.16832.S8.S8", arch::TENSOR},
        ClassCase{"DMMA.8x8x4", arch::TENSOR}, ClassCase{"HGMMA.64x128x16.F32", arch::TENSOR},
        ClassCase{"QGMMA.64x256x32.F32.E4M3.E4M3", arch::TENSOR},
        ClassCase{"IGMMA.64x64x32.S8.S8", arch::TENSOR}, ClassCase{"BGMMA.64x64x256", arch::TENSOR},
        ClassCase{"UTCHMMA.2CTA", arch::TENSOR}, ClassCase{"UTCQMMA", arch::TENSOR},
        ClassCase{"SHFL.BFLY", arch::SHUFFLE}, ClassCase{"MATCH.ANY", arch::SHUFFLE},
        ClassCase{"VOTE.ANY", arch::INT}, ClassCase{"UIADD3", arch::UNIFORM},
        ClassCase{"UMOV", arch::UNIFORM}, ClassCase{"S2UR", arch::UNIFORM},
        ClassCase{"BRA", arch::BRANCH}, ClassCase{"BSSY", arch::BRANCH},
        ClassCase{"BSYNC", arch::BRANCH}, ClassCase{"WARPSYNC.ALL", arch::BRANCH},
        ClassCase{"RET.REL.NODEC", arch::BRANCH},
        ClassCase{"BAR.SYNC.DEFER_BLOCKING", arch::BARRIER}, ClassCase{"BAR.ARV", arch::BARRIER},
        ClassCase{"UCGABAR_WAIT", arch::BARRIER}, ClassCase{"EXIT", arch::EXIT},
        ClassCase{"NOP", arch::CONTROL}, ClassCase{"S2R", arch::CONTROL},
        ClassCase{"CS2R", arch::CONTROL}, ClassCase{"MEMBAR.SC.GPU", arch::CONTROL},
        ClassCase{"DEPBAR.LE", arch::CONTROL}, ClassCase{"YIELD", arch::CONTROL},
        ClassCase{"ERRBAR", arch::CONTROL}, ClassCase{"WARPGROUP.ARRIVE", arch::CONTROL},
        ClassCase{"TXQ", arch::TEXTURE}),
    case_name<ClassCase>);

TEST(IsaSassTest, UniformConstantLoadKeepsUniformClass) {
  const OpcodeInfo info = classify_sass("ULDC.64");
  EXPECT_EQ(info.op_class, arch::UNIFORM);
  EXPECT_EQ(info.space, MemSpace::kConstant);
  EXPECT_EQ(info.access, AccessKind::kLoad);
  EXPECT_EQ(info.width_bytes, 8);
  EXPECT_TRUE(info.has(kOpUniform));
}

TEST(IsaSassTest, MatrixLoadsAndStoresTakeEightAddressLanesPerMatrix) {
  // ldmatrix / stmatrix: threads 0-7 give matrix 0's row addresses, 8-15 matrix 1's, and so on.
  EXPECT_EQ(classify_sass("LDSM.16.M88").address_lanes, 8);
  EXPECT_EQ(classify_sass("LDSM.16.MT88.2").address_lanes, 16);
  EXPECT_EQ(classify_sass("LDSM.16.M88.4").address_lanes, 32);
  EXPECT_EQ(classify_sass("STSM.16.MT88.2").address_lanes, 16);
  EXPECT_EQ(classify_sass("LDS.128").address_lanes, 32);
  EXPECT_EQ(classify_sass("LDG.E.128").address_lanes, 32);
}

TEST(IsaSassTest, TextureLoadsUseTexturePath) {
  const OpcodeInfo info = classify_sass("TEX.SCR.LL");
  EXPECT_EQ(info.op_class, arch::TEXTURE);
  EXPECT_EQ(info.space, MemSpace::kTexture);
  EXPECT_EQ(info.access, AccessKind::kLoad);
}

TEST(IsaSassTest, MbarrierOperationsAreSharedAtomics) {
  const OpcodeInfo info = classify_sass("SYNCS.ARRIVE.TRANS64.RED.A1T0");
  EXPECT_EQ(info.op_class, arch::BARRIER);
  EXPECT_EQ(info.space, MemSpace::kShared);
  EXPECT_EQ(info.access, AccessKind::kAtomic);
  EXPECT_EQ(info.width_bytes, 8);
}

TEST(IsaSassTest, AvailabilityPerIsa) {
  const OpcodeInfo hgmma = classify_sass("HGMMA.64x128x16.F32");
  EXPECT_TRUE(hgmma.available_on(Isa::kSm90));
  EXPECT_FALSE(hgmma.available_on(Isa::kSm80));
  EXPECT_FALSE(hgmma.available_on(Isa::kSm100));
  EXPECT_FALSE(hgmma.available_on(Isa::kGfx942));

  const OpcodeInfo utc = classify_sass("UTCHMMA");
  EXPECT_TRUE(utc.available_on(Isa::kSm100));
  EXPECT_FALSE(utc.available_on(Isa::kSm90));
  EXPECT_FALSE(utc.available_on(Isa::kSm80));

  const OpcodeInfo tma = classify_sass("UTMALDG.2D");
  EXPECT_FALSE(tma.available_on(Isa::kSm80));
  EXPECT_TRUE(tma.available_on(Isa::kSm90));
  EXPECT_TRUE(tma.available_on(Isa::kSm100));

  const OpcodeInfo ffma = classify_sass("FFMA");
  EXPECT_TRUE(ffma.available_on(Isa::kSm80));
  EXPECT_TRUE(ffma.available_on(Isa::kSm90));
  EXPECT_TRUE(ffma.available_on(Isa::kSm100));
  EXPECT_FALSE(ffma.available_on(Isa::kGfx942));
}

TEST(IsaSassTest, AcceleratorFieldFlags) {
  EXPECT_TRUE(classify_sass("HGMMA.64x64x16.F32").has(kOpGmma));
  EXPECT_TRUE(classify_sass("HGMMA.64x64x16.F32").has(kOpWarpgroup));
  EXPECT_FALSE(classify_sass("HMMA.16816.F32").has(kOpGmma));
  for (const char* tma : {"UTMALDG.2D", "UTMASTG.2D", "UTMAPF.2D", "UTMAREDG.2D", "UBLKCP.S.G",
                          "UBLKPF.L2", "UBLKRED.G.S.ADD"}) {
    EXPECT_TRUE(classify_sass(tma).has(kOpTma)) << tma;
  }
  EXPECT_FALSE(classify_sass("LDGSTS.E.128").has(kOpTma));
  EXPECT_TRUE(classify_sass("LDGSTS.E.128").has(kOpAsync));
}

TEST(IsaSassTest, UnknownOpcodeIsReportedNotFatal) {
  const OpcodeInfo info = classify_sass("FOOBAR.X.Y");
  EXPECT_FALSE(info.known);
  EXPECT_EQ(info.op_class, arch::OP_CLASS_UNKNOWN);
  EXPECT_EQ(info.base, "FOOBAR");
  EXPECT_EQ(info.mnemonic, "FOOBAR.X.Y");
  EXPECT_EQ(info.isas, 0);
  EXPECT_FALSE(info.is_memory());
}

TEST(IsaSassTest, BaseIsFirstDotToken) {
  EXPECT_EQ(classify_sass("IMAD.WIDE.U32").base, "IMAD");
  EXPECT_EQ(classify_sass("EXIT").base, "EXIT");
  // A base that is a prefix of a table entry is not that entry.
  EXPECT_FALSE(classify_sass("LDGS").known);
  EXPECT_FALSE(classify_sass("").known);
  EXPECT_FALSE(classify_sass(".E").known);
}

TEST(IsaSassTest, TablesCoverEachGeneration) {
  const auto has = [](Isa isa, std::string_view op) {
    const auto ops = sass_base_opcodes(isa);
    return std::find(ops.begin(), ops.end(), op) != ops.end();
  };
  EXPECT_TRUE(has(Isa::kSm80, "LDGSTS"));
  EXPECT_TRUE(has(Isa::kSm90, "HGMMA"));
  EXPECT_TRUE(has(Isa::kSm90, "SYNCS"));
  EXPECT_TRUE(has(Isa::kSm100, "UTCBAR"));
  EXPECT_FALSE(has(Isa::kSm80, "STSM"));
  EXPECT_TRUE(sass_base_opcodes(Isa::kGfx942).empty());
  // Every base appears once, and every entry belongs to at least one SASS ISA.
  std::set<std::string_view> bases;
  for (const SassEntry& entry : sass_entries()) {
    EXPECT_TRUE(bases.insert(entry.base).second) << entry.base;
    EXPECT_NE(entry.isas & kAllSass, 0) << entry.base;
    EXPECT_EQ(entry.isas & isa_bit(Isa::kGfx942), 0) << entry.base;
    EXPECT_EQ(entry.space == MemSpace::kNone, entry.access == AccessKind::kNone) << entry.base;
  }
  EXPECT_GT(sass_base_opcodes(Isa::kSm90).size(), 180u);
}

}  // namespace
}  // namespace warpsim::traces
