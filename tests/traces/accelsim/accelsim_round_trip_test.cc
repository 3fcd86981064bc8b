// IR → Accel-Sim → IR over the hand-written edge cases: every field the format carries survives.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "arch/error.h"
#include "tests/traces/trace_file_kernels.h"
#include "traces/builder.h"
#include "traces/accelsim/accelsim_source.h"
#include "traces/accelsim/accelsim_writer.h"

namespace warpsim::traces::accelsim {
namespace {

using traces::testing::accelsim_projection;
using traces::testing::edge_case_kernel;
using traces::testing::expect_same_kernel;
using traces::testing::line_info_kernel;
using traces::testing::read_all;
using traces::testing::temp_dir;

std::vector<KernelTrace> round_trip(std::vector<KernelTrace> kernels, bool xz) {
  const std::string dir = temp_dir(xz ? "xz" : "plain");
  InMemoryKernelSource source(std::move(kernels));
  const AccelSimWriteStats stats = write_accelsim(source, dir, AccelSimWriteOptions{xz});
  EXPECT_GT(stats.bytes, 0u);
  AccelSimSource reader(dir + "/kernelslist.g");
  return read_all(reader);
}

class TracesAccelSimRoundTripTest : public ::testing::TestWithParam<bool> {};

TEST_P(TracesAccelSimRoundTripTest, EdgeCasesAndLineInfoSurvive) {
  std::vector<KernelTrace> kernels;
  kernels.push_back(edge_case_kernel());
  kernels.push_back(line_info_kernel());
  const std::vector<KernelTrace> back = round_trip(kernels, GetParam());
  ASSERT_EQ(back.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    SCOPED_TRACE("kernel " + std::to_string(k));
    expect_same_kernel(accelsim_projection(kernels[k]), back[k]);
  }
  // The guard is not carried; predicate destinations and uniform registers are.
  EXPECT_EQ(back[0].ctas[0].warps[1].instructions.size(), 0u);
  // Kernels of one ISA share the reader's opcode table; other ISAs get their own.
  EXPECT_NE(back[0].info.opcodes, back[1].info.opcodes);
}

INSTANTIATE_TEST_SUITE_P(PlainAndXz, TracesAccelSimRoundTripTest, ::testing::Bool());

TEST(TracesAccelSimWriterTest, WritesTheGrammar) {
  std::vector<KernelTrace> kernels;
  kernels.push_back(edge_case_kernel());
  const std::string dir = temp_dir("grammar");
  InMemoryKernelSource source(std::move(kernels));
  write_accelsim(source, dir + "/kernelslist.g");
  std::ifstream list(dir + "/kernelslist.g");
  std::string text((std::istreambuf_iterator<char>(list)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text,
            "MemcpyHtoD,0x00007efe7b500000,2052\n"
            "MemcpyHtoD,0x00007efe7b500a00,262144\n"
            "kernel-1.traceg\n");
  std::ifstream traceg(dir + "/kernel-1.traceg");
  std::vector<std::string> lines;
  for (std::string line; std::getline(traceg, line);) lines.push_back(line);
  const auto has = [&](const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  EXPECT_TRUE(has("-accelsim tracer version = 6"));
  EXPECT_TRUE(has("-grid dim = (2,1,1)"));
  EXPECT_TRUE(has("-cluster dim = (2,1,1)"));
  EXPECT_TRUE(has("0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 "));
  // Full contiguous mask with a constant stride: base + stride.
  EXPECT_TRUE(has("0010 ffffffff 1 R24 LDG.E.128.CONSTANT.SYS 1 R44 16 1 0x00007efe7b60c300 16 "));
  // Single lane: mode 2 without deltas. All-zero mask: "1 0x0 0".
  EXPECT_TRUE(has("0030 00000020 1 R8 LDS.U.128 1 R9 16 2 0x0000000000000040 "));
  EXPECT_TRUE(has("0040 00000000 1 R10 LDG.E 1 R12 4 1 0x0 0 "));
  EXPECT_TRUE(has("0050 ffffffff 1 R5 IADD3.X 5 R1 R2 R3 R4 R6 0 "));
  EXPECT_TRUE(has("0070 ffffffff 1 UR5 UIADD3 3 UR4 UR63 UP0 0 "));
  EXPECT_TRUE(has("0080 ffffffff 0 DEPBAR.LE 0 0 2 NoVal "));
  EXPECT_TRUE(has("0000 ffffffff 1 R24 HGMMA.64x128x16.F32.BF16 2 UR8 UR12 1 0 "));
  EXPECT_TRUE(has("0020 ffffffff 0 UTMALDG.2D 2 UR4 UR8 0 0x00007f0000000400 0 16384 128 0 3 "
                  "0x0000000000010000 0x0000000000010040 0x0000000000010080 "));
  EXPECT_TRUE(has("0030 ffffffff 0 UTMASTG.3D 1 UR6 0 0x00007f0000000800 1 0xf 4096 0 2 2 "
                  "0x0000000000020000 -256 "));
  EXPECT_TRUE(has("cluster rank = 1"));
}

TEST(TracesAccelSimWriterTest, RejectsCdnaKernels) {
  KernelBuilder k("amd", {1, 1, 1}, {64, 1, 1}, Isa::kGfx942);
  k.fill_grid([](WarpBuilder& w, const CtaTrace&, uint32_t) { w.add("s_endpgm"); });
  std::vector<KernelTrace> kernels;
  kernels.push_back(std::move(k).build());
  InMemoryKernelSource source(std::move(kernels));
  EXPECT_THROW(write_accelsim(source, temp_dir("amd")), InputError);
}

}  // namespace
}  // namespace warpsim::traces::accelsim
