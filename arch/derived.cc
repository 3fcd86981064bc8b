#include "arch/derived.h"

#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <cctype>

namespace warpsim::arch {

namespace pb = google::protobuf;

std::string data_type_key(Tensor::DataType type) {
  std::string key = Tensor::DataType_Name(type);
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return key;
}

std::optional<Tensor::DataType> data_type_from_key(std::string_view key) {
  const pb::EnumDescriptor* type = Tensor::DataType_descriptor();
  for (int i = 0; i < type->value_count(); ++i) {
    const auto value = static_cast<Tensor::DataType>(type->value(i)->number());
    if (value != Tensor::DATA_TYPE_UNSPECIFIED && data_type_key(value) == key) return value;
  }
  return std::nullopt;
}

std::optional<double> peak_dense_tensor_tflops(const Spec& spec, Tensor::DataType type) {
  const auto& rates = spec.tensor().dense_flops_per_clk_per_sm();
  const auto it = rates.find(data_type_key(type));
  if (it == rates.end()) return std::nullopt;
  return spec.sm().count() * it->second * spec.clocks().vendor_peak_clock_mhz() * 1e6 / 1e12;
}

double peak_fp32_tflops(const Spec& spec) {
  return static_cast<double>(spec.sm().count()) * spec.sm().sub_partitions() *
         spec.functional_units().fp32().lanes() * 2.0 * spec.clocks().vendor_peak_clock_mhz() *
         1e6 / 1e12;
}

double hbm_bandwidth_tb_per_s(const Spec& spec) {
  const Hbm& hbm = spec.hbm();
  return static_cast<double>(hbm.channels()) * hbm.channel_width_bits() *
         hbm.data_rate_gbps_per_pin() * 1e9 / 8.0 / 1e12;
}

std::uint64_t l2_size_bytes(const Spec& spec) { return spec.l2().size_bytes(); }

std::uint64_t l2_size_bytes_per_die(const Spec& spec) {
  return spec.l2().size_bytes() / std::max<std::uint32_t>(1, spec.dies().count());
}

std::uint64_t l2_sets_per_slice(const Spec& spec) {
  const std::uint64_t per_set =
      static_cast<std::uint64_t>(spec.l2().slices()) * spec.l2().ways() * spec.l2().line_bytes();
  return per_set == 0 ? 0 : spec.l2().size_bytes() / per_set;
}

std::uint64_t register_file_bytes_per_sm(const Spec& spec) {
  return static_cast<std::uint64_t>(spec.register_file().registers_per_sm()) *
         spec.register_file().register_width_bits() / 8;
}

const FunctionalUnit& functional_unit(const Spec& spec, OpClass op_class) {
  const pb::FieldDescriptor* field =
      FunctionalUnits::descriptor()->FindFieldByNumber(static_cast<int>(op_class));
  if (field == nullptr) return FunctionalUnit::default_instance();
  const FunctionalUnits& units = spec.functional_units();
  return static_cast<const FunctionalUnit&>(units.GetReflection()->GetMessage(units, field));
}

}  // namespace warpsim::arch
