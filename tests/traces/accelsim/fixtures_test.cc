// The hand-written Accel-Sim fixtures (tests/fixtures/accelsim/v3 … v6): one per tracer version,
// covering the three address modes, .traceg.xz, line numbers, MemcpyHtoD lines and the v6
// extensions. Each is read, checked field by field, then written and read back unchanged.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tests/traces/trace_file_kernels.h"
#include "traces/accelsim/accelsim_source.h"
#include "traces/accelsim/accelsim_writer.h"

namespace warpsim::traces::accelsim {
namespace {

using traces::testing::expect_same_kernel;
using traces::testing::read_all;
using traces::testing::temp_dir;

std::string fixture(const std::string& name) {
  const char* root = std::getenv("WARPSIM_SOURCE_DIR");
  return std::string(root != nullptr ? root : ".") + "/tests/fixtures/accelsim/" + name;
}

std::vector<KernelTrace> read_fixture(const std::string& version) {
  AccelSimSource source(fixture(version + "/kernelslist.g"));
  return read_all(source);
}

std::string mnemonic(const KernelTrace& k, const WarpInstruction& inst) {
  return k.info.opcodes->info(inst.opcode).mnemonic;
}

std::vector<uint64_t> lanes(const WarpTrace& warp, size_t i) {
  const auto span = warp.lane_addresses(warp.instructions[i]);
  return {span.begin(), span.end()};
}

/// Writes `kernels` as Accel-Sim and reads them back: the fixtures survive unchanged.
void expect_rewrite_identical(const std::vector<KernelTrace>& kernels) {
  std::vector<KernelTrace> copy;
  for (const KernelTrace& k : kernels) copy.push_back(k);
  InMemoryKernelSource source(std::move(copy));
  const std::string dir = temp_dir("rewrite");
  write_accelsim(source, dir);
  AccelSimSource again(dir + "/kernelslist.g");
  const std::vector<KernelTrace> back = read_all(again);
  ASSERT_EQ(back.size(), kernels.size());
  for (size_t k = 0; k < kernels.size(); ++k) expect_same_kernel(kernels[k], back[k]);
}

TEST(TracesAccelSimFixturesTest, Version3AddressModesAndMemcpys) {
  const auto kernels = read_fixture("v3");
  ASSERT_EQ(kernels.size(), 1u);
  const KernelTrace& k = kernels[0];
  EXPECT_EQ(k.info.name, "_Z6vecAddPfS_S_i");
  EXPECT_EQ(k.info.binary_version, 70u);
  EXPECT_EQ(k.info.isa, Isa::kSm80);
  EXPECT_EQ(k.info.trace_version, 3u);
  EXPECT_EQ(k.info.shared_base_address, 0x00007efeb0000000u);
  EXPECT_EQ(k.info.memcpys_before,
            (std::vector<MemcpyEvent>{{0x00007efe7b500000, 2052}, {0x00007efe7b500a00, 262144}}));
  ASSERT_EQ(k.ctas.size(), 2u);
  const WarpTrace& w0 = k.ctas[0].warps[0];
  ASSERT_EQ(w0.instructions.size(), 6u);
  EXPECT_EQ(w0.instructions[0].src[0], kRZ);
  EXPECT_FALSE(w0.instructions[0].has(kInstHasImm));
  // Mode 2: base then popcount-1 deltas.
  const auto ldg = lanes(w0, 1);
  ASSERT_EQ(ldg.size(), 32u);
  EXPECT_EQ(ldg[0], 0x7efe7b60c300u);
  EXPECT_EQ(ldg[4], 0x7efe7b60c300u + 48 + 2000);
  EXPECT_EQ(w0.instructions[1].mem_width, 16u);
  // Mode 0: one address per active lane.
  EXPECT_EQ(lanes(w0, 2), (std::vector<uint64_t>{0x7efe7b500000, 0x7efe7b500010, 0x7efe7b500004,
                                                 0x7efe7b500100}));
  EXPECT_EQ(lanes(w0, 3), (std::vector<uint64_t>{0x7efe7b500200}));  // single lane
  EXPECT_TRUE(w0.instructions[4].has_lane_addresses());               // all-zero mask
  EXPECT_TRUE(lanes(w0, 4).empty());
  const WarpTrace& w1 = k.ctas[0].warps[1];
  EXPECT_EQ(w1.instructions[0].num_src, 5u);
  // Mode 1: base + i * stride, negative stride.
  const auto lds = lanes(w1, 1);
  ASSERT_EQ(lds.size(), 16u);
  EXPECT_EQ(lds[15], 0x80u - 15 * 4);
  EXPECT_TRUE(k.ctas[1].warps[1].instructions.empty());  // insts = 0
  expect_rewrite_identical(kernels);
}

TEST(TracesAccelSimFixturesTest, Version4LineNumbersAndImmediates) {
  const auto kernels = read_fixture("v4");
  ASSERT_EQ(kernels.size(), 1u);
  const KernelTrace& k = kernels[0];
  EXPECT_TRUE(k.info.line_info);
  EXPECT_EQ(k.info.isa, Isa::kSm80);
  EXPECT_EQ(k.info.static_shared_bytes, 4096u);
  EXPECT_EQ(k.info.cuda_stream_id, 94558347014800u);
  const WarpTrace& w = k.ctas[0].warps[0];
  EXPECT_EQ(w.line_numbers, (std::vector<uint32_t>{12, 13, 13, 15}));
  EXPECT_EQ(mnemonic(k, w.instructions[2]), "DEPBAR.LE");
  EXPECT_EQ(w.instructions[2].imm, 1);
  EXPECT_TRUE(w.instructions[2].has(kInstHasImm));
  expect_rewrite_identical(kernels);
}

TEST(TracesAccelSimFixturesTest, Version5XzAndSeveralKernels) {
  const auto kernels = read_fixture("v5");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].info.name, "_Z5firstv");
  EXPECT_EQ(kernels[0].ctas.size(), 2u);
  EXPECT_EQ(kernels[0].ctas[1].index, (Dim3{0, 1, 0}));
  EXPECT_EQ(lanes(kernels[0].ctas[1].warps[0], 0)[31], 0x700000000080u + 31 * 4);
  EXPECT_EQ(kernels[1].info.memcpys_before, (std::vector<MemcpyEvent>{{0x700000001000, 64}}));
  EXPECT_EQ(lanes(kernels[1].ctas[0].warps[0], 0),
            (std::vector<uint64_t>{0x700000001000, 0x700000001008}));
  EXPECT_EQ(kernels[0].info.opcodes, kernels[1].info.opcodes);  // one table per ISA
  expect_rewrite_identical(kernels);
}

TEST(TracesAccelSimFixturesTest, Version6Extensions) {
  const auto kernels = read_fixture("v6");
  ASSERT_EQ(kernels.size(), 1u);
  const KernelTrace& k = kernels[0];
  EXPECT_EQ(k.info.isa, Isa::kSm90);
  ASSERT_EQ(k.ctas.size(), 2u);
  ASSERT_TRUE(k.ctas[1].cluster.has_value());
  EXPECT_EQ(k.ctas[1].cluster->cta_in_cluster, (Dim3{1, 0, 0}));
  EXPECT_EQ(k.ctas[1].cluster->rank, 1u);
  const WarpTrace& w = k.ctas[0].warps[0];
  ASSERT_EQ(w.instructions.size(), 7u);
  EXPECT_EQ(w.instructions[0].dst[0], ureg(4));
  EXPECT_EQ(w.instructions[1].dst[0], pred(0));
  EXPECT_EQ(w.instructions[1].src[2], kPT);
  EXPECT_TRUE(w.instructions[2].has(kInstGmmaCommit));
  EXPECT_FALSE(k.ctas[1].warps[2].instructions[0].has(kInstGmmaCommit));
  const auto* tma = w.extras_of(w.instructions[3]);
  ASSERT_TRUE(tma != nullptr && tma->tma);
  EXPECT_EQ(tma->tma->bytes, 16384u);
  EXPECT_EQ(tma->tma->mbarrier_address, 0x7f0000000400u);
  const auto t3 = w.tma_addresses(w.instructions[3]);
  EXPECT_EQ(std::vector<uint64_t>(t3.begin(), t3.end()), (std::vector<uint64_t>{0x10000, 0x10040}));
  const auto* mc = w.extras_of(w.instructions[4]);
  ASSERT_TRUE(mc != nullptr && mc->tma);
  EXPECT_TRUE(mc->tma->multicast);
  EXPECT_EQ(mc->tma->multicast_cta_mask, 0x3u);
  EXPECT_EQ(mc->tma->oob_bytes, 64u);
  const auto t4 = w.tma_addresses(w.instructions[4]);
  EXPECT_EQ(std::vector<uint64_t>(t4.begin(), t4.end()),
            (std::vector<uint64_t>{0x20000, 0x20040, 0x20020}));
  const WarpInstruction& imad = w.instructions[5];
  EXPECT_EQ(imad.imm, 5);
  const auto* ex = w.extras_of(imad);
  ASSERT_NE(ex, nullptr);
  EXPECT_EQ(ex->imm2, -7);
  ASSERT_TRUE(ex->has_values);
  const auto dst_values = w.operand_values(imad, 0, 32);
  ASSERT_EQ(dst_values.size(), 32u);
  EXPECT_EQ(dst_values[31], 93u);
  EXPECT_EQ(w.operand_values(imad, 1, 32)[0], 0xDEADBEEFu);
  EXPECT_EQ(w.operand_values(imad, 2, 32)[0], 1u);
  expect_rewrite_identical(kernels);
}

}  // namespace
}  // namespace warpsim::traces::accelsim
