#include "traces/in_memory_source.h"

#include <gtest/gtest.h>

#include "arch/error.h"
#include "traces/builder.h"

namespace warpsim::traces {
namespace {

/// Two kernels: "first" with 3 CTAs of 2 warps, "second" with 2 CTAs of 1 warp. Each warp's
/// first instruction carries 1000·kernel + 10·cta + warp as its immediate.
std::vector<KernelTrace> two_kernels() {
  std::vector<KernelTrace> kernels;
  int kernel_number = 0;
  for (const auto& [name, grid, block] : {std::tuple{"first", Dim3{3, 1, 1}, Dim3{64, 1, 1}},
                                          std::tuple{"second", Dim3{1, 2, 1}, Dim3{32, 1, 1}}}) {
    KernelBuilder k(name, grid, block);
    k.info().id = static_cast<uint64_t>(kernel_number);
    k.fill_grid([&](WarpBuilder& w, const CtaTrace& cta, uint32_t warp) {
      const uint64_t linear = linear_index(cta.index, grid);
      w.add("MOV", {gpr(1)}).imm(static_cast<int64_t>(1000 * kernel_number + 10 * linear + warp));
      w.mem("LDG.E", {gpr(2)}, {gpr(4)}, strided_addresses(~0u, 0x1000 * (linear + 1), 4));
      w.add("EXIT");
    });
    kernels.push_back(std::move(k).build());
    ++kernel_number;
  }
  return kernels;
}

TEST(TracesInMemorySourceTest, StreamsKernelsAndCtasInOrder) {
  InMemoryKernelSource source(two_kernels(), "two kernels");
  EXPECT_EQ(source.describe(), "two kernels");
  EXPECT_EQ(source.kernel_count(), 2u);
  KernelInfo info;
  CtaTrace cta;
  EXPECT_FALSE(source.next_cta(cta));  // before the first kernel

  ASSERT_TRUE(source.next_kernel(info));
  EXPECT_EQ(info.name, "first");
  EXPECT_EQ(info.id, 0u);
  std::vector<int64_t> seen;
  while (source.next_cta(cta)) {
    for (const WarpTrace& w : cta.warps) seen.push_back(w.instructions[0].imm);
  }
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 10, 11, 20, 21}));
  // What streams out equals what went in.
  const std::vector<KernelTrace> originals = two_kernels();
  EXPECT_EQ(cta, originals[0].ctas[2]);
  EXPECT_FALSE(source.next_cta(cta));

  ASSERT_TRUE(source.next_kernel(info));
  EXPECT_EQ(info.name, "second");
  ASSERT_TRUE(source.next_cta(cta));
  EXPECT_EQ(cta.index, (Dim3{0, 0, 0}));
  ASSERT_EQ(cta.warps.size(), 1u);
  EXPECT_EQ(cta.warps[0].instructions[0].imm, 1000);
  ASSERT_TRUE(source.next_cta(cta));
  EXPECT_EQ(cta.index, (Dim3{0, 1, 0}));
  EXPECT_EQ(cta.warps[0].instructions[0].imm, 1010);
  EXPECT_EQ(cta.warps[0].lane_addresses(cta.warps[0].instructions[1])[0], 0x2000u);
  EXPECT_FALSE(source.next_cta(cta));

  EXPECT_FALSE(source.next_kernel(info));
  EXPECT_FALSE(source.next_cta(cta));
  EXPECT_FALSE(source.next_kernel(info));
}

TEST(TracesInMemorySourceTest, NextKernelSkipsUnreadCtas) {
  InMemoryKernelSource source(two_kernels());
  KernelInfo info;
  CtaTrace cta;
  ASSERT_TRUE(source.next_kernel(info));
  ASSERT_TRUE(source.next_cta(cta));
  ASSERT_TRUE(source.next_kernel(info));
  EXPECT_EQ(info.name, "second");
  ASSERT_TRUE(source.next_cta(cta));
  EXPECT_EQ(cta.warps[0].instructions[0].imm, 1000);
}

TEST(TracesInMemorySourceTest, RefillReusesTheCallersBuffers) {
  InMemoryKernelSource source(two_kernels());
  KernelInfo info;
  CtaTrace cta;
  ASSERT_TRUE(source.next_kernel(info));
  ASSERT_TRUE(source.next_cta(cta));
  const WarpInstruction* instructions = cta.warps[1].instructions.data();
  const uint64_t* addresses = cta.warps[1].addresses.data();
  const WarpTrace* warps = cta.warps.data();
  while (source.next_cta(cta)) {
    EXPECT_EQ(cta.warps.data(), warps);
    EXPECT_EQ(cta.warps[1].instructions.data(), instructions);
    EXPECT_EQ(cta.warps[1].addresses.data(), addresses);
  }
}

TEST(TracesInMemorySourceTest, RewindStartsAgain) {
  InMemoryKernelSource source(two_kernels());
  KernelInfo info;
  while (source.next_kernel(info)) {
  }
  source.rewind();
  ASSERT_TRUE(source.next_kernel(info));
  EXPECT_EQ(info.name, "first");
}

TEST(TracesInMemorySourceTest, MoveHandOverDeliversEachCtaOnceWithoutCopying) {
  InMemoryKernelSource copied(two_kernels());
  InMemoryKernelSource moved(two_kernels(), "moved", CtaHandOver::kMove);
  KernelInfo a;
  KernelInfo b;
  CtaTrace x;
  CtaTrace y;
  while (copied.next_kernel(a)) {
    ASSERT_TRUE(moved.next_kernel(b));
    EXPECT_EQ(a.name, b.name);
    while (copied.next_cta(x)) {
      ASSERT_TRUE(moved.next_cta(y));
      EXPECT_EQ(x, y);
    }
    EXPECT_FALSE(moved.next_cta(y));
  }
  EXPECT_FALSE(moved.next_kernel(b));
  EXPECT_THROW(moved.rewind(), InternalError);
}

TEST(TracesInMemorySourceTest, EmptySource) {
  InMemoryKernelSource source({});
  KernelInfo info;
  CtaTrace cta;
  EXPECT_FALSE(source.next_kernel(info));
  EXPECT_FALSE(source.next_cta(cta));
}

TEST(TracesCtaTraceTest, ResetAndCopy) {
  CtaTrace cta;
  cta.reset(3);
  ASSERT_EQ(cta.warps.size(), 3u);
  EXPECT_EQ(cta.warps[2].warp_id, 2u);
  cta.warps[0].instructions.resize(5);
  cta.warps[1].instructions.resize(2);
  cta.cluster = ClusterPosition{{1, 0, 0}, {1, 1, 0}, 3};
  EXPECT_EQ(cta.instruction_count(), 7u);
  EXPECT_GT(cta.memory_bytes(), 0u);

  CtaTrace copy;
  copy.reset(5);
  copy_cta(cta, copy);
  EXPECT_EQ(copy, cta);
  EXPECT_EQ(copy.instruction_count(), 7u);
  ASSERT_TRUE(copy.cluster.has_value());
  EXPECT_EQ(copy.cluster->rank, 3u);
  EXPECT_EQ(copy.cluster->cta_in_cluster, (Dim3{1, 1, 0}));

  copy.warps[1].instructions[0].imm = 5;
  EXPECT_NE(copy, cta);

  const size_t capacity = cta.warps[0].instructions.capacity();
  cta.reset(3);
  EXPECT_EQ(cta.instruction_count(), 0u);
  EXPECT_FALSE(cta.cluster.has_value());
  EXPECT_EQ(cta.warps[0].instructions.capacity(), capacity);
}

}  // namespace
}  // namespace warpsim::traces
