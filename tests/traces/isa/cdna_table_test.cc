#include "traces/isa/cdna_table.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

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

struct CdnaCase {
  const char* mnemonic;
  arch::OpClass op_class;
  MemSpace space;
  AccessKind access;
  uint16_t width;
};

class IsaCdnaTest : public ::testing::TestWithParam<CdnaCase> {};

TEST_P(IsaCdnaTest, Classifies) {
  const CdnaCase& c = GetParam();
  const OpcodeInfo info = classify_cdna(c.mnemonic);
  EXPECT_TRUE(info.known) << c.mnemonic;
  EXPECT_EQ(info.op_class, c.op_class)
      << c.mnemonic << " gave " << arch::OpClass_Name(info.op_class);
  EXPECT_EQ(info.space, c.space) << c.mnemonic << " gave " << mem_space_name(info.space);
  EXPECT_EQ(info.access, c.access) << c.mnemonic << " gave " << access_kind_name(info.access);
  EXPECT_EQ(info.width_bytes, c.width) << c.mnemonic;
  EXPECT_TRUE(info.available_on(Isa::kGfx942));
  EXPECT_FALSE(info.available_on(Isa::kSm90));
}

constexpr MemSpace kNo = MemSpace::kNone;
constexpr AccessKind kNa = AccessKind::kNone;

INSTANTIATE_TEST_SUITE_P(
    Representative, IsaCdnaTest,
    ::testing::Values(
        CdnaCase{"v_mfma_f32_32x32x8_f16", arch::TENSOR, kNo, kNa, 0},
        CdnaCase{"v_mfma_f64_16x16x4_f64", arch::TENSOR, kNo, kNa, 0},
        CdnaCase{"v_smfmac_f32_16x16x32_bf16", arch::TENSOR, kNo, kNa, 0},
        CdnaCase{"v_fma_f32", arch::FP32, kNo, kNa, 0},
        CdnaCase{"v_add_f32_e32", arch::FP32, kNo, kNa, 0},
        CdnaCase{"v_pk_fma_f32", arch::FP32, kNo, kNa, 0},
        CdnaCase{"v_fma_f64", arch::FP64, kNo, kNa, 0},
        CdnaCase{"v_pk_fma_f16", arch::FP16, kNo, kNa, 0},
        CdnaCase{"v_pk_add_u16", arch::FP16, kNo, kNa, 0},
        CdnaCase{"v_add_f16", arch::FP16, kNo, kNa, 0},
        CdnaCase{"v_dot2_f32_bf16", arch::FP16, kNo, kNa, 0},
        CdnaCase{"v_cvt_f32_f16", arch::CONVERSION, kNo, kNa, 0},
        CdnaCase{"v_cvt_pkrtz_f16_f32", arch::CONVERSION, kNo, kNa, 0},
        CdnaCase{"v_exp_f32", arch::SFU, kNo, kNa, 0},
        CdnaCase{"v_rsq_f64", arch::SFU, kNo, kNa, 0},
        CdnaCase{"v_sin_f16", arch::SFU, kNo, kNa, 0},
        CdnaCase{"v_add_u32", arch::INT, kNo, kNa, 0},
        CdnaCase{"v_lshlrev_b32", arch::INT, kNo, kNa, 0},
        CdnaCase{"v_accvgpr_read_b32", arch::INT, kNo, kNa, 0},
        CdnaCase{"v_mov_b32_dpp", arch::SHUFFLE, kNo, kNa, 0},
        CdnaCase{"v_readfirstlane_b32", arch::SHUFFLE, kNo, kNa, 0},
        CdnaCase{"s_add_u32", arch::UNIFORM, kNo, kNa, 0},
        CdnaCase{"s_mov_b64", arch::UNIFORM, kNo, kNa, 0},
        CdnaCase{"s_branch", arch::BRANCH, kNo, kNa, 0},
        CdnaCase{"s_cbranch_scc1", arch::BRANCH, kNo, kNa, 0},
        CdnaCase{"s_cbranch_execz", arch::BRANCH, kNo, kNa, 0},
        CdnaCase{"s_barrier", arch::BARRIER, kNo, kNa, 0},
        CdnaCase{"s_endpgm", arch::EXIT, kNo, kNa, 0},
        CdnaCase{"s_waitcnt", arch::CONTROL, kNo, kNa, 0},
        CdnaCase{"s_waitcnt_vmcnt", arch::CONTROL, kNo, kNa, 0},
        CdnaCase{"s_nop", arch::CONTROL, kNo, kNa, 0},
        CdnaCase{"s_load_dwordx4", arch::LOAD_STORE, MemSpace::kConstant, AccessKind::kLoad, 16},
        CdnaCase{"ds_read_b128", arch::LOAD_STORE, MemSpace::kShared, AccessKind::kLoad, 16},
        CdnaCase{"ds_read_u8", arch::LOAD_STORE, MemSpace::kShared, AccessKind::kLoad, 1},
        CdnaCase{"ds_read2_b32", arch::LOAD_STORE, MemSpace::kShared, AccessKind::kLoad, 8},
        CdnaCase{"ds_write_b64", arch::LOAD_STORE, MemSpace::kShared, AccessKind::kStore, 8},
        CdnaCase{"ds_write2st64_b64", arch::LOAD_STORE, MemSpace::kShared, AccessKind::kStore, 16},
        CdnaCase{"ds_add_u32", arch::LOAD_STORE, MemSpace::kShared, AccessKind::kReduction, 4},
        CdnaCase{"ds_add_rtn_u32", arch::LOAD_STORE, MemSpace::kShared, AccessKind::kAtomic, 4},
        CdnaCase{"ds_swizzle_b32", arch::SHUFFLE, kNo, kNa, 0},
        CdnaCase{"ds_bpermute_b32", arch::SHUFFLE, kNo, kNa, 0},
        CdnaCase{"global_load_dwordx4", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kLoad, 16},
        CdnaCase{"global_load_dword", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kLoad, 4},
        CdnaCase{"global_load_ushort", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kLoad, 2},
        CdnaCase{"global_store_byte", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kStore, 1},
        CdnaCase{"global_store_dwordx2", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kStore,
                 8},
        CdnaCase{"global_atomic_add_f32", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kAtomic,
                 4},
        CdnaCase{"global_atomic_cmpswap_x2", arch::LOAD_STORE, MemSpace::kGlobal,
                 AccessKind::kAtomic, 8},
        CdnaCase{"global_load_lds_dword", arch::LOAD_STORE, MemSpace::kGlobalToShared,
                 AccessKind::kLoad, 4},
        CdnaCase{"flat_load_dwordx2", arch::LOAD_STORE, MemSpace::kGeneric, AccessKind::kLoad, 8},
        CdnaCase{"buffer_load_dword", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kLoad, 4},
        CdnaCase{"buffer_store_dwordx3", arch::LOAD_STORE, MemSpace::kGlobal, AccessKind::kStore,
                 12},
        CdnaCase{"scratch_load_dword", arch::LOAD_STORE, MemSpace::kLocal, AccessKind::kLoad, 4},
        CdnaCase{"buffer_wbl2", arch::CONTROL, kNo, kNa, 0},
        CdnaCase{"image_sample", arch::TEXTURE, MemSpace::kTexture, AccessKind::kLoad, 4},
        CdnaCase{"image_store", arch::TEXTURE, MemSpace::kTexture, AccessKind::kStore, 4}),
    case_name<CdnaCase>);

TEST(IsaCdnaTest, CaseInsensitive) {
  const OpcodeInfo info = classify_cdna("V_MFMA_F32_32X32X8_F16");
  EXPECT_EQ(info.op_class, arch::TENSOR);
  EXPECT_EQ(info.mnemonic, "V_MFMA_F32_32X32X8_F16");
  EXPECT_EQ(info.base, "v_mfma_f32_32x32x8_f16");
}

TEST(IsaCdnaTest, UnknownMnemonics) {
  for (const char* name : {"exp", "foo_bar", "", "vop3"}) {
    const OpcodeInfo info = classify_cdna(name);
    EXPECT_FALSE(info.known) << name;
    EXPECT_EQ(info.op_class, arch::OP_CLASS_UNKNOWN) << name;
    EXPECT_EQ(info.isas, 0) << name;
  }
}

TEST(IsaCdnaTest, ScalarOpsRunOnTheUniformPath) {
  EXPECT_TRUE(classify_cdna("s_add_u32").has(kOpUniform));
  EXPECT_TRUE(classify_cdna("s_load_dword").has(kOpUniform));
  EXPECT_FALSE(classify_cdna("v_add_u32").has(kOpUniform));
}

}  // namespace
}  // namespace warpsim::traces
