#include "traces/isa/opcode_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "arch/error.h"

namespace warpsim::traces {
namespace {

using ::testing::ElementsAre;

TEST(IsaOpcodeTableTest, InterningReturnsTheSameIdForTheSameMnemonic) {
  OpcodeTable table(Isa::kSm90);
  const OpcodeId ldg = table.intern("LDG.E.128");
  const OpcodeId ffma = table.intern("FFMA");
  const OpcodeId ldg64 = table.intern("LDG.E.64");
  EXPECT_EQ(ldg, 0);
  EXPECT_EQ(ffma, 1);
  EXPECT_EQ(ldg64, 2);
  EXPECT_EQ(table.intern("LDG.E.128"), ldg);
  EXPECT_EQ(table.intern(std::string("FFMA")), ffma);
  EXPECT_EQ(table.size(), 3u);
  EXPECT_EQ(table.find("LDG.E.64"), ldg64);
  EXPECT_FALSE(table.find("LDG.E").has_value());
}

TEST(IsaOpcodeTableTest, InfoCarriesTheClassification) {
  OpcodeTable table(Isa::kSm80);
  const OpcodeInfo& info = table.info(table.intern("STS.64"));
  EXPECT_EQ(info.mnemonic, "STS.64");
  EXPECT_EQ(info.base, "STS");
  EXPECT_EQ(info.op_class, arch::LOAD_STORE);
  EXPECT_EQ(info.space, MemSpace::kShared);
  EXPECT_EQ(info.access, AccessKind::kStore);
  EXPECT_EQ(info.width_bytes, 8);
}

TEST(IsaOpcodeTableTest, ReferencesStayValidAsTheTableGrows) {
  OpcodeTable table(Isa::kSm90);
  const OpcodeInfo* first = &table.info(table.intern("FFMA"));
  for (int i = 0; i < 5000; ++i) table.intern("IADD3.X" + std::to_string(i));
  EXPECT_EQ(first, &table.info(0));
  EXPECT_EQ(first->mnemonic, "FFMA");
}

TEST(IsaOpcodeTableTest, AmdTablesUseTheCdnaRules) {
  OpcodeTable table(Isa::kGfx942);
  EXPECT_EQ(table.info(table.intern("v_mfma_f32_32x32x8_f16")).op_class, arch::TENSOR);
  EXPECT_EQ(classify_opcode(Isa::kGfx942, "ds_read_b64").width_bytes, 8);
  EXPECT_EQ(classify_opcode(Isa::kSm100, "UTCHMMA").op_class, arch::TENSOR);
}

TEST(IsaOpcodeTableTest, ReportsOpcodesTheTargetLacks) {
  OpcodeTable table(Isa::kSm90);
  table.intern("HGMMA.64x128x16.F32");
  table.intern("HGMMA.64x64x16.F32");
  table.intern("UTMALDG.2D");
  table.intern("FFMA");
  table.intern("NOTANOPCODE");
  EXPECT_THAT(table.missing_on(Isa::kSm80), ElementsAre("HGMMA", "UTMALDG"));
  EXPECT_THAT(table.missing_on(Isa::kSm100), ElementsAre("HGMMA"));
  EXPECT_TRUE(table.missing_on(Isa::kSm90).empty());
  EXPECT_THAT(table.unknown_mnemonics(), ElementsAre("NOTANOPCODE"));
  EXPECT_EQ(table.missing_opcode_warning(Isa::kSm80),
            "trace opcodes for sm_90 that sm_80 lacks (timed by their op class): HGMMA, UTMALDG");
  EXPECT_EQ(table.missing_opcode_warning(Isa::kSm90), "");
}

TEST(IsaOpcodeTableTest, BlackwellOpcodesAreMissingOnHopper) {
  OpcodeTable table(Isa::kSm100);
  table.intern("UTCHMMA.2CTA");
  table.intern("LDTM.x64");
  EXPECT_THAT(table.missing_on(Isa::kSm90), ElementsAre("LDTM", "UTCHMMA"));
  EXPECT_TRUE(table.missing_on(Isa::kSm100).empty());
}

TEST(IsaOpcodeTableTest, EmptyMnemonicIsAnInputError) {
  OpcodeTable table(Isa::kSm90);
  EXPECT_THROW(table.intern(""), InputError);
}

TEST(IsaOpcodeTableTest, BadIdIsAnInternalError) {
  OpcodeTable table(Isa::kSm90);
  table.intern("FFMA");
  EXPECT_THROW(table.info(1), InternalError);
}

TEST(IsaOpcodeTableTest, RejectsMoreThan65536Mnemonics) {
  OpcodeTable table(Isa::kSm90);
  for (size_t i = 0; i < OpcodeTable::kMaxOpcodes; ++i) table.intern("X" + std::to_string(i));
  EXPECT_EQ(table.size(), OpcodeTable::kMaxOpcodes);
  EXPECT_EQ(table.intern("X7"), 7);
  try {
    table.intern("ONE.MORE");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("ONE.MORE"));
  }
}

}  // namespace
}  // namespace warpsim::traces
