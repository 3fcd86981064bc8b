#include "traces/kernel_info.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/error.h"

namespace warpsim::traces {
namespace {

using ::testing::HasSubstr;

KernelInfo valid_kernel() {
  KernelInfo k;
  k.name = "gemm";
  k.grid = {8, 4, 1};
  k.block = {128, 1, 1};
  k.cluster = {2, 1, 1};
  k.isa = Isa::kSm90;
  k.opcodes = std::make_shared<OpcodeTable>(Isa::kSm90);
  return k;
}

std::string error_of(const KernelInfo& k) {
  try {
    k.validate("trace.wstrace");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TracesKernelInfoTest, DerivedCounts) {
  KernelInfo k = valid_kernel();
  k.static_shared_bytes = 1000;
  k.dynamic_shared_bytes = 24;
  EXPECT_EQ(k.cta_count(), 32u);
  EXPECT_EQ(k.warps_per_cta(), 4u);
  EXPECT_EQ(k.warp_size(), 32u);
  EXPECT_EQ(k.shared_bytes(), 1024u);
  k.isa = Isa::kGfx942;
  EXPECT_EQ(k.warps_per_cta(), 2u);
  EXPECT_EQ(error_of(valid_kernel()), "");
}

TEST(TracesKernelInfoTest, ValidateNamesTheField) {
  KernelInfo k = valid_kernel();
  k.name.clear();
  EXPECT_THAT(error_of(k), HasSubstr("name: expected a kernel name"));

  k = valid_kernel();
  k.grid.y = 0;
  EXPECT_THAT(error_of(k), HasSubstr("trace.wstrace: kernel 'gemm': grid: expected every"));

  k = valid_kernel();
  k.block = {32, 0, 1};
  EXPECT_THAT(error_of(k), HasSubstr("block: expected every dimension >= 1, got (32,0,1)"));

  k = valid_kernel();
  k.block = {1025, 1, 1};
  EXPECT_THAT(error_of(k), HasSubstr("at most 1024 threads"));

  k = valid_kernel();
  k.cluster = {0, 1, 1};
  EXPECT_THAT(error_of(k), HasSubstr("cluster: expected every"));

  k = valid_kernel();
  k.cluster = {3, 1, 1};
  EXPECT_THAT(error_of(k), HasSubstr("not a multiple of the cluster"));

  k = valid_kernel();
  k.opcodes.reset();
  EXPECT_THAT(error_of(k), HasSubstr("expected an opcode table"));

  k = valid_kernel();
  k.isa = Isa::kSm100;
  EXPECT_THAT(error_of(k), HasSubstr("opcode table is for sm_90 but the kernel is sm_100"));
}

TEST(TracesKernelInfoTest, MemcpysTravelWithTheKernel) {
  KernelInfo k = valid_kernel();
  k.memcpys_before.push_back({0x7f0000000000, 4096});
  const KernelInfo copy = k;
  ASSERT_EQ(copy.memcpys_before.size(), 1u);
  EXPECT_EQ(copy.memcpys_before[0], (MemcpyEvent{0x7f0000000000, 4096}));
}

}  // namespace
}  // namespace warpsim::traces
