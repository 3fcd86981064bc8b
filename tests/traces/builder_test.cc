#include "traces/builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/error.h"

namespace warpsim::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TracesBuilderTest, WarpBuilderRoundTrip) {
  OpcodeTable table(Isa::kSm90);
  WarpTrace warp;
  WarpBuilder b(warp, table);
  b.add("S2R", {gpr(0)})
      .add("IMAD.WIDE.U32", {gpr(2)}, {gpr(0), ureg(4), kRZ})
      .mem("LDG.E.128", {gpr(8)}, {gpr(2), ureg(6)}, strided_addresses(0xFFFFFFFF, 0x1000, 16))
      .mask(0x0000FFFF)
      .add("FFMA", {gpr(3)}, {gpr(8), gpr(9), gpr(3)})
      .guard(pred(0), true)
      .mem("STS.64", {}, {gpr(1), gpr(4)}, strided_addresses(0x0000FFFF, 0x200, 8))
      .add("DEPBAR.LE", {}, {})
      .imm(1)
      .add("EXIT");

  ASSERT_EQ(warp.instructions.size(), 7u);
  const WarpInstruction& s2r = warp.instructions[0];
  EXPECT_EQ(s2r.pc, 0u);
  EXPECT_EQ(s2r.active_mask, 0xFFFFFFFFull);
  EXPECT_EQ(s2r.num_dst, 1);
  EXPECT_EQ(s2r.num_src, 0);
  EXPECT_EQ(s2r.dst[0], gpr(0));
  EXPECT_EQ(table.info(s2r.opcode).mnemonic, "S2R");

  const WarpInstruction& imad = warp.instructions[1];
  EXPECT_EQ(imad.pc, 16u);
  EXPECT_EQ(imad.num_src, 3);
  EXPECT_EQ(imad.src[1].kind(), RegKind::kUniform);
  EXPECT_TRUE(imad.src[2].is_zero());

  const WarpInstruction& ldg = warp.instructions[2];
  EXPECT_EQ(ldg.pc, 32u);
  EXPECT_EQ(ldg.mem_width, 16);
  EXPECT_EQ(warp.lane_addresses(ldg).size(), 32u);
  EXPECT_EQ(warp.lane_addresses(ldg)[31], 0x1000u + 31 * 16);

  const WarpInstruction& ffma = warp.instructions[3];
  EXPECT_EQ(ffma.active_mask, 0xFFFFull);
  EXPECT_EQ(ffma.guard, pred(0));
  EXPECT_TRUE(ffma.has(kInstGuardNegated));
  EXPECT_FALSE(ffma.has_lane_addresses());

  const WarpInstruction& sts = warp.instructions[4];
  EXPECT_EQ(sts.mem_width, 8);
  EXPECT_EQ(warp.lane_addresses(sts).size(), 16u);
  EXPECT_EQ(sts.mem_offset, 32u);
  EXPECT_EQ(table.info(sts.opcode).space, MemSpace::kShared);

  EXPECT_EQ(warp.instructions[5].imm, 1);
  EXPECT_TRUE(warp.instructions[5].has(kInstHasImm));
  EXPECT_EQ(warp.instructions[6].pc, 96u);
  // Only the two memory instructions hold addresses.
  EXPECT_EQ(warp.addresses.size(), 48u);
  EXPECT_TRUE(warp.line_numbers.empty());
  EXPECT_NO_THROW(warp.validate("builder", 32));
}

TEST(TracesBuilderTest, ExplicitWidthAndPc) {
  OpcodeTable table(Isa::kSm80);
  WarpTrace warp;
  WarpBuilder(warp, table)
      .pc(0x100)
      .mask(1)
      .mem("LDG.E", {gpr(1)}, {gpr(2)}, strided_addresses(1, 0x40, 0), 2);
  EXPECT_EQ(warp.instructions[0].pc, 0x100u);
  EXPECT_EQ(warp.instructions[0].mem_width, 2);
  // A new builder on the same warp continues after the last PC.
  WarpBuilder(warp, table).add("EXIT");
  EXPECT_EQ(warp.instructions[1].pc, 0x110u);
}

TEST(TracesBuilderTest, SixSourcesAndFourDestinations) {
  OpcodeTable table(Isa::kSm90);
  WarpTrace warp;
  WarpBuilder(warp, table)
      .add("HGMMA.64x128x16.F32", {gpr(24), gpr(25), gpr(26), gpr(27)},
           {ureg(4), ureg(6), gpr(24), upred(0), pred(1), kUPT});
  const WarpInstruction& inst = warp.instructions[0];
  EXPECT_EQ(inst.num_dst, 4);
  EXPECT_EQ(inst.num_src, 6);
  EXPECT_EQ(inst.src[5], kUPT);
  EXPECT_EQ(inst.src[3].kind(), RegKind::kUniformPredicate);
}

TEST(TracesBuilderTest, BuilderErrors) {
  OpcodeTable table(Isa::kSm90);
  WarpTrace warp;
  WarpBuilder b(warp, table);
  EXPECT_THROW(b.last(), InternalError);
  EXPECT_THROW(b.imm(3), InternalError);
  EXPECT_THROW(b.add("FFMA", {gpr(0), gpr(1), gpr(2), gpr(3), gpr(4)}), InputError);
  EXPECT_THROW(b.add("FFMA", {}, {gpr(0), gpr(1), gpr(2), gpr(3), gpr(4), gpr(5), gpr(6)}),
               InputError);
  EXPECT_THROW(b.mem("LDG.E", {gpr(0)}, {gpr(2)}, strided_addresses(0xF, 0, 4)), InputError);
  EXPECT_TRUE(warp.instructions.empty());  // a failed mem() leaves nothing behind
  b.add("FFMA");
  EXPECT_THROW(b.guard(gpr(1)), InputError);
  EXPECT_THROW(b.add(""), InputError);
}

TEST(TracesBuilderTest, LineNumbersArePerInstruction) {
  OpcodeTable table(Isa::kSm90);
  WarpTrace warp;
  WarpBuilder(warp, table).add("NOP").add("FFMA").line(42).add("EXIT").line(43);
  EXPECT_THAT(warp.line_numbers, ElementsAre(0, 42, 43));
  EXPECT_NO_THROW(warp.validate("builder", 32));
}

TEST(TracesBuilderTest, StridedAddresses) {
  EXPECT_THAT(strided_addresses(0b1011, 100, 4), ElementsAre(100, 104, 112));
  EXPECT_THAT(strided_addresses(0b110, 100, -8), ElementsAre(92, 84));
  EXPECT_TRUE(strided_addresses(0, 0, 4).empty());
}

TEST(TracesBuilderTest, KernelBuilderFillsTheGridInLinearOrder) {
  KernelBuilder k("kern", {2, 2, 1}, {64, 1, 1}, Isa::kSm90);
  k.info().registers_per_thread = 40;
  k.info().dynamic_shared_bytes = 1024;
  k.fill_grid([](WarpBuilder& w, const CtaTrace& cta, uint32_t warp) {
    w.add("MOV", {gpr(0)}).imm(static_cast<int64_t>(cta.index.x + 10 * cta.index.y + 100 * warp));
    w.add("EXIT");
  });
  const KernelTrace trace = std::move(k).build();
  ASSERT_EQ(trace.ctas.size(), 4u);
  EXPECT_EQ(trace.ctas[1].index, (Dim3{1, 0, 0}));
  EXPECT_EQ(trace.ctas[2].index, (Dim3{0, 1, 0}));
  ASSERT_EQ(trace.ctas[3].warps.size(), 2u);
  EXPECT_EQ(trace.ctas[3].warps[1].warp_id, 1u);
  EXPECT_EQ(trace.ctas[3].warps[1].instructions[0].imm, 111);
  EXPECT_EQ(trace.info.registers_per_thread, 40u);
  EXPECT_EQ(trace.info.shared_bytes(), 1024u);
  EXPECT_EQ(trace.info.opcodes->size(), 2u);  // MOV and EXIT interned once
}

TEST(TracesBuilderTest, KernelBuilderErrors) {
  KernelBuilder k("kern", {2, 1, 1}, {32, 1, 1});
  EXPECT_THROW(k.add_cta({2, 0, 0}), InputError);
  const size_t cta = k.add_cta({1, 0, 0});
  EXPECT_THROW(k.warp(cta, 1), InputError);
  EXPECT_THROW(k.cta(5), InternalError);
  k.info().block = {2048, 1, 1};
  EXPECT_THROW(std::move(k).build(), InputError);
  EXPECT_THROW(KernelBuilder("x", {1, 1, 1}, {32, 1, 1}, std::shared_ptr<OpcodeTable>()),
               InternalError);
}

TEST(TracesBuilderTest, SharedOpcodeTableAcrossKernels) {
  auto table = std::make_shared<OpcodeTable>(Isa::kSm80);
  KernelBuilder a("a", {1, 1, 1}, {32, 1, 1}, table);
  KernelBuilder b("b", {1, 1, 1}, {32, 1, 1}, table);
  a.warp(a.add_cta({0, 0, 0}), 0).add("FFMA");
  b.warp(b.add_cta({0, 0, 0}), 0).add("FFMA").add("EXIT");
  EXPECT_EQ(table->size(), 2u);
  const KernelTrace ka = std::move(a).build();
  const KernelTrace kb = std::move(b).build();
  EXPECT_EQ(ka.info.opcodes, kb.info.opcodes);
  EXPECT_EQ(ka.ctas[0].warps[0].instructions[0].opcode, kb.ctas[0].warps[0].instructions[0].opcode);
}

TEST(TracesBuilderTest, AmdWavefrontsHave64Lanes) {
  KernelBuilder k("mfma", {1, 1, 1}, {256, 1, 1}, Isa::kGfx942);
  EXPECT_EQ(k.info().warps_per_cta(), 4u);
  const size_t cta = k.add_cta({0, 0, 0});
  k.warp(cta, 3)
      .add("v_mfma_f32_32x32x8_f16", {agpr(0)}, {vgpr(0), vgpr(2), agpr(0)})
      .mem("global_load_dwordx4", {vgpr(4)}, {vgpr(8)}, strided_addresses(~0ull, 0, 16))
      .add("s_endpgm");
  const KernelTrace trace = std::move(k).build();
  const WarpTrace& w = trace.ctas[0].warps[3];
  EXPECT_EQ(w.instructions[0].active_mask, ~0ull);
  EXPECT_EQ(w.instructions[1].pc, 8u);
  EXPECT_EQ(w.instructions[1].mem_width, 16);
  EXPECT_EQ(w.lane_addresses(w.instructions[1]).size(), 64u);
  EXPECT_EQ(trace.info.opcodes->info(w.instructions[0].opcode).op_class, arch::TENSOR);
  EXPECT_NO_THROW(w.validate("amd", 64));
}

}  // namespace
}  // namespace warpsim::traces
