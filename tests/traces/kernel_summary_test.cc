#include "traces/kernel_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/error.h"
#include "traces/builder.h"
#include "traces/in_memory_source.h"

namespace warpsim::traces {
namespace {

using ::testing::ElementsAre;

size_t space(MemSpace s) { return static_cast<size_t>(s); }
size_t kind(AccessKind k) { return static_cast<size_t>(k); }

KernelTrace summary_kernel() {
  KernelBuilder k("summary", {2, 1, 1}, {32, 1, 1}, Isa::kSm90);
  for (uint32_t c = 0; c < 2; ++c) {
    const size_t cta = k.add_cta({c, 0, 0});
    WarpBuilder w = k.warp(cta, 0);
    w.add("S2R", {gpr(0)});
    w.mask(0xFFFF).add("FFMA", {gpr(1)}, {gpr(2), gpr(3), gpr(1)}).mask(0xFFFFFFFF);
    w.mem("LDG.E.128", {gpr(4)}, {gpr(6)}, strided_addresses(0xFFFFFFFF, 0x1000 + c * 0x200, 16));
    w.mem("STS", {}, {gpr(8), gpr(9)}, strided_addresses(0xFFFFFFFF, 0, 4));
    if (c == 0) {
      w.mask(1).mem("LDG.E.64", {gpr(10)}, {gpr(12)}, strided_addresses(1, 0x201C, 0));
      w.mask(0xFFFFFFFF).add("FOO.BAR");
    } else {
      w.add("UTMALDG.2D", {}, {ureg(4), ureg(8)});
      TmaInfo tma;
      tma.bytes = 4096;
      w.warp().mutable_extras(w.last()).tma = tma;
    }
    w.add("EXIT");
  }
  return std::move(k).build();
}

TEST(TracesKernelSummaryTest, CountsByClassSpaceAndSector) {
  std::vector<KernelTrace> kernels;
  kernels.push_back(summary_kernel());
  InMemoryKernelSource source(std::move(kernels));
  KernelInfo info;
  ASSERT_TRUE(source.next_kernel(info));
  const KernelSummary s = summarize_kernel(info, source);

  EXPECT_EQ(s.ctas, 2u);
  EXPECT_EQ(s.warps, 2u);
  EXPECT_EQ(s.warp_instructions, 13u);
  EXPECT_EQ(s.thread_instructions, 353u);
  EXPECT_EQ(s.by_class[arch::CONTROL], 2u);
  EXPECT_EQ(s.by_class[arch::FP32], 2u);
  EXPECT_EQ(s.by_class[arch::LOAD_STORE], 6u);
  EXPECT_EQ(s.by_class[arch::EXIT], 2u);
  EXPECT_EQ(s.by_class[arch::OP_CLASS_UNKNOWN], 1u);
  EXPECT_EQ(s.memory[space(MemSpace::kGlobal)][kind(AccessKind::kLoad)], 3u);
  EXPECT_EQ(s.memory[space(MemSpace::kShared)][kind(AccessKind::kStore)], 2u);
  EXPECT_EQ(s.memory[space(MemSpace::kGlobalToShared)][kind(AccessKind::kLoad)], 1u);
  EXPECT_EQ(s.bytes_requested, 1024u + 256u + 8u + 4096u);
  EXPECT_EQ(s.sectors[space(MemSpace::kGlobal)], 34u);  // 2 × 16 + 2 for the straddling LDG.E.64
  EXPECT_EQ(s.sectors[space(MemSpace::kShared)], 4u);
  EXPECT_EQ(s.device_sectors, 34u);
  EXPECT_THAT(s.unknown_opcodes, ElementsAre("FOO.BAR"));
}

TEST(TracesKernelSummaryTest, UnknownOpcodesAreOnlyThoseUsedByTheKernel) {
  auto table = std::make_shared<OpcodeTable>(Isa::kSm90);
  table->intern("NOT.USED.HERE");
  KernelBuilder k("k", {1, 1, 1}, {32, 1, 1}, table);
  k.warp(k.add_cta({0, 0, 0}), 0).add("ALSO.UNKNOWN").add("EXIT");
  const KernelTrace trace = std::move(k).build();
  KernelSummarizer summarizer(trace.info);
  summarizer.add(trace.ctas[0]);
  EXPECT_THAT(summarizer.finish().unknown_opcodes, ElementsAre("ALSO.UNKNOWN"));
}

TEST(TracesKernelSummaryTest, FootprintSurvivesCompaction) {
  KernelBuilder k("big", {1, 1, 1}, {32, 1, 1}, Isa::kSm80);
  const size_t cta = k.add_cta({0, 0, 0});
  WarpBuilder w = k.warp(cta, 0);
  // 3 passes over 160,000 distinct sectors: one 4-byte access per sector.
  for (int pass = 0; pass < 3; ++pass) {
    for (uint64_t base = 0; base < 160000 * kSectorBytes; base += 32 * kSectorBytes) {
      w.mem("LDG.E", {gpr(0)}, {gpr(2)}, strided_addresses(0xFFFFFFFF, base, kSectorBytes));
    }
  }
  const KernelTrace trace = std::move(k).build();
  KernelSummarizer summarizer(trace.info);
  summarizer.add(trace.ctas[0]);
  const KernelSummary s = summarizer.finish();
  EXPECT_EQ(s.sectors[space(MemSpace::kGlobal)], 160000u);
  EXPECT_EQ(s.device_sectors, 160000u);
  EXPECT_EQ(s.bytes_requested, 3u * 160000u * 4u);
}

TEST(TracesKernelSummaryTest, KernelWithoutOpcodeTableIsAnError) {
  KernelInfo info;
  info.name = "orphan";
  EXPECT_THROW(KernelSummarizer{info}, InputError);
}

TEST(TracesKernelSummaryTest, OpcodeIdOutsideTheTableIsAnError) {
  KernelTrace trace = summary_kernel();
  trace.ctas[0].warps[0].instructions[0].opcode = 999;
  KernelSummarizer summarizer(trace.info);
  EXPECT_THROW(summarizer.add(trace.ctas[0]), InternalError);
}

}  // namespace
}  // namespace warpsim::traces
