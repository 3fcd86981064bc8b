#include "arch/derived.h"

#include <gtest/gtest.h>

#include <cmath>

#include "arch/loader.h"

namespace warpsim::arch {
namespace {

Spec load(const char* name) { return load_spec(name).spec; }

// Within `percent` % of `expected`.
::testing::AssertionResult near_percent(double actual, double expected, double percent) {
  if (std::abs(actual - expected) <= expected * percent / 100) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << actual << " is not within " << percent << " % of " << expected;
}

TEST(ArchDerived, TensorPeaksMatchVendorFiguresWithinTwoPercent) {
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("h100"), Tensor::FP16), 989.4, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("h100"), Tensor::FP8), 1978.9, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("h200"), Tensor::FP16), 989.4, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("h200"), Tensor::FP8), 1978.9, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("b200"), Tensor::FP16), 2250, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("b200"), Tensor::FP8), 4500, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("b200"), Tensor::FP4), 9000, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("mi300x"), Tensor::FP16), 1307.4, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("mi300x"), Tensor::FP8), 2614.9, 2));
  EXPECT_TRUE(near_percent(*peak_dense_tensor_tflops(load("a100"), Tensor::FP16), 312, 2));
}

TEST(ArchDerived, TensorPeakIsSmsTimesRateTimesVendorClock) {
  EXPECT_DOUBLE_EQ(*peak_dense_tensor_tflops(load("h100"), Tensor::FP16),
                   132.0 * 4096 * 1830e6 / 1e12);
  EXPECT_DOUBLE_EQ(*peak_dense_tensor_tflops(load("mi300x"), Tensor::FP16),
                   304.0 * 2048 * 2100e6 / 1e12);
  EXPECT_FALSE(peak_dense_tensor_tflops(load("a100"), Tensor::FP8).has_value());
  EXPECT_FALSE(peak_dense_tensor_tflops(load("h200"), Tensor::FP4).has_value());
}

TEST(ArchDerived, HbmBandwidthMatchesVendorFiguresWithinTwoPercent) {
  EXPECT_TRUE(near_percent(hbm_bandwidth_tb_per_s(load("h100")), 3.35, 2));
  EXPECT_TRUE(near_percent(hbm_bandwidth_tb_per_s(load("h200")), 4.8, 2));
  EXPECT_TRUE(near_percent(hbm_bandwidth_tb_per_s(load("b200")), 8.0, 2));
  EXPECT_TRUE(near_percent(hbm_bandwidth_tb_per_s(load("mi300x")), 5.3, 2));
  EXPECT_TRUE(near_percent(hbm_bandwidth_tb_per_s(load("a100")), 2.04, 2));
  EXPECT_DOUBLE_EQ(hbm_bandwidth_tb_per_s(load("h200")), 96.0 * 64 * 6.25 / 8 / 1000);
}

TEST(ArchDerived, Fp32PeakMatchesVendorFigure) {
  // H100 SXM: 66.9 TFLOP/s FP32 at the 1980 MHz boost clock (HARDWARE.md); warpsim's peak uses
  // the tensor basis of 1830 MHz: 132 x 128 x 2 x 1.83 GHz.
  EXPECT_DOUBLE_EQ(peak_fp32_tflops(load("h100")), 132.0 * 4 * 32 * 2 * 1830e6 / 1e12);
}

TEST(ArchDerived, SizesAndLookups) {
  const Spec h200 = load("h200");
  EXPECT_EQ(l2_size_bytes(h200), 62914560u);
  EXPECT_EQ(l2_size_bytes_per_die(h200), 62914560u);
  EXPECT_EQ(l2_sets_per_slice(h200), 160u);  // 640 KiB slices of 32 ways
  EXPECT_EQ(register_file_bytes_per_sm(h200), 262144u);
  EXPECT_EQ(l2_size_bytes_per_die(load("mi300x")), 4194304u);
  EXPECT_EQ(register_file_bytes_per_sm(load("mi300x")), 524288u);
  EXPECT_EQ(functional_unit(h200, FP32).lanes(), 32u);
  EXPECT_EQ(functional_unit(h200, FP64).lanes(), 16u);
  EXPECT_EQ(functional_unit(h200, TENSOR).latency_cycles(), 24u);
  EXPECT_EQ(functional_unit(load("a100"), FP32).initiation_interval_cycles(), 2u);
  EXPECT_FALSE(functional_unit(h200, OP_CLASS_UNKNOWN).has_lanes());
}

TEST(ArchDerived, DataTypeKeys) {
  EXPECT_EQ(data_type_key(Tensor::FP16), "fp16");
  EXPECT_EQ(data_type_key(Tensor::TF32), "tf32");
  EXPECT_EQ(data_type_from_key("bf16"), Tensor::BF16);
  EXPECT_FALSE(data_type_from_key("fp12").has_value());
  EXPECT_FALSE(data_type_from_key("FP16").has_value());
  EXPECT_FALSE(data_type_from_key("data_type_unspecified").has_value());
}

TEST(ArchDerived, EveryOpClassHasAFunctionalUnitFieldOfTheSameNumberAndName) {
  const auto* classes = OpClass_descriptor();
  int checked = 0;
  for (int i = 0; i < classes->value_count(); ++i) {
    const auto* value = classes->value(i);
    if (value->number() == OP_CLASS_UNKNOWN) continue;
    const auto* field = FunctionalUnits::descriptor()->FindFieldByNumber(value->number());
    ASSERT_NE(field, nullptr) << value->name();
    std::string lower = value->name();
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(field->name(), lower);
    ++checked;
  }
  EXPECT_EQ(checked, 15);
  EXPECT_EQ(FunctionalUnits::descriptor()->field_count(), 15);
}

}  // namespace
}  // namespace warpsim::arch
