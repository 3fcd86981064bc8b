#include "arch/overrides.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "arch/error.h"
#include "arch/loader.h"

namespace warpsim::arch {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class ArchOverrides : public ::testing::Test {
 protected:
  Spec spec_ = resolve_spec("h200").spec;
  Provenance provenance_;

  // The InputError message of applying `expression`; fails the test when it does not throw.
  std::string error_of(const std::string& expression) {
    try {
      apply_override(spec_, expression, &provenance_);
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), StartsWith("--set '" + expression + "': "));
      return e.what();
    }
    ADD_FAILURE() << "no InputError for " << expression;
    return {};
  }
};

TEST_F(ArchOverrides, NestedScalarFields) {
  apply_override(spec_, "sm.count=144", &provenance_);
  apply_override(spec_, "l2.size_bytes=104857600", &provenance_);
  apply_override(spec_, "clocks.sm_mhz=1755.5", &provenance_);
  apply_override(spec_, "sm.scheduler_policy=lrr", &provenance_);
  apply_override(spec_, "vendor=\"NVIDIA Corp\"", &provenance_);
  apply_override(spec_, " l1.unified_with_shared = false ", &provenance_);
  EXPECT_EQ(spec_.sm().count(), 144u);
  EXPECT_EQ(spec_.l2().size_bytes(), 104857600u);
  EXPECT_EQ(spec_.clocks().sm_mhz(), 1755.5);
  EXPECT_EQ(spec_.sm().scheduler_policy(), "lrr");
  EXPECT_EQ(spec_.vendor(), "NVIDIA Corp");
  EXPECT_FALSE(spec_.l1().unified_with_shared());
  EXPECT_EQ(provenance_.origin("sm.count"), "--set 'sm.count=144'");
  EXPECT_EQ(provenance_.origin("l1.unified_with_shared"),
            "--set ' l1.unified_with_shared = false '");
}

TEST_F(ArchOverrides, BoolsAndEnumsByName) {
  apply_override(spec_, "l1.unified_with_shared=1");
  EXPECT_TRUE(spec_.l1().unified_with_shared());
  apply_override(spec_, "l1.unified_with_shared=0");
  EXPECT_FALSE(spec_.l1().unified_with_shared());
  apply_override(spec_, "launch.cache_start=WARM");
  EXPECT_EQ(spec_.launch().cache_start(), Launch::WARM);
  apply_override(spec_, "tensor.shapes[mma.m16n8k16.f16].data_type=BF16");
  EXPECT_EQ(spec_.tensor().shapes().at("mma.m16n8k16.f16").data_type(), Tensor::BF16);
}

TEST_F(ArchOverrides, MapEntriesByKey) {
  apply_override(spec_, "tensor.dense_flops_per_clk_per_sm[fp8]=1024", &provenance_);
  apply_override(spec_, "tensor.dense_flops_per_clk_per_sm[fp4]=32768", &provenance_);
  apply_override(spec_, "tensor.shapes[wgmma.m64n64k16.f16].latency_cycles=40", &provenance_);
  apply_override(spec_, "tensor.shapes[\"mma.new\"].m=8", &provenance_);
  const auto& rates = spec_.tensor().dense_flops_per_clk_per_sm();
  EXPECT_EQ(rates.at("fp8"), 1024);
  EXPECT_EQ(rates.at("fp4"), 32768);
  EXPECT_EQ(rates.at("fp16"), 4096);
  EXPECT_EQ(rates.size(), 6u);
  const TensorShape& wgmma = spec_.tensor().shapes().at("wgmma.m64n64k16.f16");
  EXPECT_EQ(wgmma.latency_cycles(), 40u);
  EXPECT_EQ(wgmma.n(), 64u);  // the rest of the entry is kept
  EXPECT_EQ(spec_.tensor().shapes().at("mma.new").m(), 8u);
  EXPECT_EQ(spec_.tensor().shapes().size(), 6u);
  EXPECT_EQ(provenance_.origin("tensor.dense_flops_per_clk_per_sm[fp4]"),
            "--set 'tensor.dense_flops_per_clk_per_sm[fp4]=32768'");
  EXPECT_EQ(provenance_.origin("tensor.shapes[mma.new]"), "--set 'tensor.shapes[\"mma.new\"].m=8'");
}

TEST_F(ArchOverrides, ListsReplaceWholeOrByIndex) {
  apply_override(spec_, "l1.shared_carveout_kb=[0, 64,228]", &provenance_);
  ASSERT_EQ(spec_.l1().shared_carveout_kb_size(), 3);
  EXPECT_EQ(spec_.l1().shared_carveout_kb(2), 228u);
  apply_override(spec_, "l1.shared_carveout_kb[1]=100", &provenance_);
  EXPECT_EQ(spec_.l1().shared_carveout_kb(1), 100u);
  EXPECT_EQ(provenance_.origin("l1.shared_carveout_kb"), "--set 'l1.shared_carveout_kb[1]=100'");
  apply_override(spec_, "l1.shared_carveout_kb=8,16");
  EXPECT_EQ(spec_.l1().shared_carveout_kb_size(), 2);
  apply_override(spec_, "l1.shared_carveout_kb=[]");
  EXPECT_EQ(spec_.l1().shared_carveout_kb_size(), 0);
}

TEST_F(ArchOverrides, LaterOverrideWins) {
  apply_overrides(spec_, {"sm.count=100", "sm.count=120"}, &provenance_);
  EXPECT_EQ(spec_.sm().count(), 120u);
  EXPECT_EQ(provenance_.origin("sm.count"), "--set 'sm.count=120'");
}

TEST_F(ArchOverrides, UnknownFieldListsKnownFields) {
  EXPECT_EQ(error_of("sm.cuont=1"),
            "--set 'sm.cuont=1': unknown field 'cuont' in sm (warpsim.arch.Sm); known fields: "
            "count, sub_partitions, warp_size, scheduler_policy, scheduler_shared_warps, "
            "issue_width_per_scheduler, "
            "valu_cycles_per_instruction, register_reads_per_cycle, branch_resolve_cycles, "
            "barrier_arrival_cycles, barrier_release_cycles, gpu_fence_cycles, instruction_fetch");
  EXPECT_THAT(error_of("smm.count=1"),
              HasSubstr("unknown field 'smm' in the description (warpsim.arch.Spec); known fields: "
                        "name, vendor, isa, inherits"));
  EXPECT_THAT(error_of("tensor.shapes[x].q=1"),
              HasSubstr("unknown field 'q' in tensor.shapes[x] (warpsim.arch.TensorShape)"));
}

TEST_F(ArchOverrides, WrongTypeAndOutOfRange) {
  EXPECT_EQ(error_of("sm.count=abc"),
            "--set 'sm.count=abc': sm.count expects a non-negative 32-bit integer, got 'abc'");
  EXPECT_EQ(error_of("sm.count=-1"),
            "--set 'sm.count=-1': sm.count value -1 is out of range for a non-negative 32-bit "
            "integer (0 to 4294967295)");
  EXPECT_THAT(error_of("sm.count=4294967296"), HasSubstr("out of range"));
  EXPECT_THAT(error_of("sm.count=1.5"), HasSubstr("expects a non-negative 32-bit integer"));
  EXPECT_THAT(error_of("sm.count="), HasSubstr("got ''"));
  EXPECT_THAT(error_of("l2.size_bytes=18446744073709551616"),
              HasSubstr("out of range for a non-negative 64-bit integer (0 to "
                        "18446744073709551615)"));
  EXPECT_EQ(error_of("clocks.sm_mhz=fast"),
            "--set 'clocks.sm_mhz=fast': clocks.sm_mhz expects a finite number, got 'fast'");
  EXPECT_THAT(error_of("clocks.sm_mhz=inf"), HasSubstr("expects a finite number"));
  EXPECT_THAT(error_of("clocks.sm_mhz=nan"), HasSubstr("expects a finite number"));
  EXPECT_EQ(error_of("l1.unified_with_shared=maybe"),
            "--set 'l1.unified_with_shared=maybe': l1.unified_with_shared expects true or false, "
            "got 'maybe'");
  EXPECT_EQ(error_of("launch.cache_start=TEPID"),
            "--set 'launch.cache_start=TEPID': launch.cache_start expects one of "
            "CACHE_START_UNSPECIFIED, COLD, WARM, got 'TEPID'");
  EXPECT_THAT(error_of("l1.shared_carveout_kb=[1,x]"),
              HasSubstr("l1.shared_carveout_kb element: expects a non-negative 32-bit integer, "
                        "got 'x'"));
  EXPECT_THAT(error_of("l1.shared_carveout_kb[0]=-8"), HasSubstr("out of range"));
  EXPECT_EQ(spec_.sm().count(), 132u);  // failed overrides left the field alone
}

TEST_F(ArchOverrides, PathShapeErrors) {
  EXPECT_EQ(error_of("sm=3"),
            "--set 'sm=3': sm is a message; set one of its fields: count, sub_partitions, "
            "warp_size, scheduler_policy, scheduler_shared_warps, issue_width_per_scheduler, "
            "valu_cycles_per_instruction, "
            "register_reads_per_cycle, branch_resolve_cycles, barrier_arrival_cycles, "
            "barrier_release_cycles, gpu_fence_cycles, instruction_fetch");
  EXPECT_EQ(error_of("sm.count.x=1"),
            "--set 'sm.count.x=1': sm.count is a non-negative 32-bit integer, it has no field 'x'");
  EXPECT_EQ(error_of("tensor.shapes=1"),
            "--set 'tensor.shapes=1': tensor.shapes is a map; name an entry as "
            "tensor.shapes[<key>]");
  EXPECT_THAT(error_of("tensor.shapes[a]=1"),
              HasSubstr("tensor.shapes[a] is a message; set one of its fields: m, n, k"));
  EXPECT_THAT(
      error_of("tensor.dense_flops_per_clk_per_sm[fp8].x=1"),
      HasSubstr("tensor.dense_flops_per_clk_per_sm[fp8] is a finite number, not a message"));
  EXPECT_EQ(error_of("sm.count[3]=1"),
            "--set 'sm.count[3]=1': sm.count is not a map or a list; remove [3]");
  EXPECT_EQ(error_of("l1.shared_carveout_kb[20]=1"),
            "--set 'l1.shared_carveout_kb[20]=1': l1.shared_carveout_kb is a list of 10 "
            "elements; expected an index from 0 to 9, got [20]");
  EXPECT_THAT(error_of("l1.shared_carveout_kb[x]=1"), HasSubstr("expected an index"));
  EXPECT_THAT(error_of("l1.shared_carveout_kb.y=1"),
              HasSubstr("l1.shared_carveout_kb is a list of values, not a message"));
}

TEST_F(ArchOverrides, MalformedExpressions) {
  EXPECT_EQ(error_of("sm.count"), "--set 'sm.count': expected path=value");
  EXPECT_EQ(error_of("=3"), "--set '=3': expected path=value, the path is empty");
  EXPECT_EQ(error_of("sm..count=1"),
            "--set 'sm..count=1': malformed path 'sm..count': expected a field name at "
            "position 4");
  EXPECT_EQ(error_of("sm.count]=1"),
            "--set 'sm.count]=1': malformed path 'sm.count]': unexpected ']' at position 9");
  EXPECT_EQ(error_of("tensor.shapes[x=1"), "--set 'tensor.shapes[x=1': expected path=value");
  EXPECT_EQ(error_of("l1.x[=1"), "--set 'l1.x[=1': expected path=value");
  EXPECT_EQ(error_of("tensor.shapes[].m=1"),
            "--set 'tensor.shapes[].m=1': malformed path 'tensor.shapes[].m': empty [] after "
            "'shapes'");
  EXPECT_EQ(error_of("sm.count x=1"),
            "--set 'sm.count x=1': malformed path 'sm.count x': unexpected ' ' at position 9");
  EXPECT_EQ(error_of(".sm=1"),
            "--set '.sm=1': malformed path '.sm': expected a field name at position 1");
}

}  // namespace
}  // namespace warpsim::arch
