// Quantities derived from an architecture description by arithmetic, and lookups the models share:
// peak dense tensor rates, HBM peak bandwidth, cache and register-file sizes, the functional unit
// of an op class. Peak figures use the vendor's peak clock (clocks.vendor_peak_clock_mhz) so that
// they reproduce the vendor's data-sheet numbers; the simulation itself runs at clocks.sm_mhz.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arch/arch.pb.h"
#include "arch/op_class.pb.h"

namespace warpsim::arch {

/// Key of Tensor.dense_flops_per_clk_per_sm for a data type: the lowercase enum name ("fp16").
std::string data_type_key(Tensor::DataType type);

/// The data type a rate key names, or nullopt ("fp16" -> FP16; unknown or "data_type_unspecified").
std::optional<Tensor::DataType> data_type_from_key(std::string_view key);

/// Peak dense tensor rate in TFLOP/s (TOPS for int8): SMs x FLOP/clk/SM x vendor peak clock.
/// nullopt when the description has no rate for `type`.
std::optional<double> peak_dense_tensor_tflops(const Spec& spec, Tensor::DataType type);

/// Peak FP32 FMA rate in TFLOP/s: SMs x sub-partitions x FP32 lanes x 2 x vendor peak clock.
double peak_fp32_tflops(const Spec& spec);

/// HBM peak bandwidth in TB/s (10^12 bytes/s): channels x channel width x data rate / 8.
double hbm_bandwidth_tb_per_s(const Spec& spec);

/// L2 bytes on the whole GPU and per die.
std::uint64_t l2_size_bytes(const Spec& spec);
std::uint64_t l2_size_bytes_per_die(const Spec& spec);

/// Sets per L2 slice: size / (slices x ways x line).
std::uint64_t l2_sets_per_slice(const Spec& spec);

/// Register file bytes per SM: registers x width / 8.
std::uint64_t register_file_bytes_per_sm(const Spec& spec);

/// The functional unit of an op class (FunctionalUnits' field with the class's number); the
/// default instance when the description lacks it or for OP_CLASS_UNKNOWN.
const FunctionalUnit& functional_unit(const Spec& spec, OpClass op_class);

}  // namespace warpsim::arch
