#include "sim/core/sm_config.h"

#include <cmath>
#include <string>

#include "arch/error.h"

namespace warpsim::core {
namespace {

constexpr std::int64_t kKiB = 1024;

constexpr std::array<std::string_view, kTensorTypeCount> kTensorTypeNames = {
    "fp16", "bf16", "tf32", "fp32", "fp64", "fp8", "fp6", "fp4", "int8", "int4", "binary"};

[[noreturn]] void bad_field(const std::string& field, const std::string& expected, double got) {
  std::string value = std::to_string(got);
  if (got == std::floor(got) && std::abs(got) < 1e15) value = std::to_string(std::int64_t(got));
  throw InputError("SM config: field 'sm." + field + "' must be " + expected + " (got " + value +
                   ")");
}

void require_range(const std::string& field, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {
    bad_field(
        field,
        "in [" + std::to_string(std::int64_t(lo)) + ", " + std::to_string(std::int64_t(hi)) + "]",
        value);
  }
}

}  // namespace

std::string_view tensor_type_name(TensorType type) {
  return kTensorTypeNames[static_cast<std::size_t>(type)];
}

SmLimits SmConfig::default_limits() {
  SmLimits limits;
  limits.shared_memory_per_sm_bytes = 228 * kKiB;
  limits.reserved_shared_memory_per_cta_bytes = 1 * kKiB;
  limits.max_shared_memory_per_cta_bytes = 227 * kKiB;
  limits.carveout_choices_bytes = {32 * kKiB,  64 * kKiB,  100 * kKiB, 132 * kKiB,
                                   164 * kKiB, 196 * kKiB, 228 * kKiB};
  return limits;
}

std::array<FunctionalUnitConfig, kOpClassCount> SmConfig::default_units() {
  std::array<FunctionalUnitConfig, kOpClassCount> u{};
  u[arch::OP_CLASS_UNKNOWN] = {4, 1, 1};  // treated as a simple ALU operation
  u[arch::INT] = {4, 2, 1};               // 64 INT32 lanes per SM: 16 per SMSP
  u[arch::FP32] = {4, 1, 1};              // 128 FP32 lanes per SM: 32 per SMSP
  u[arch::FP16] = {4, 1, 1};              // HFMA2 on the FMA pipe, 32 lanes per SMSP
  u[arch::FP64] = {8, 2, 1};              // 64 FP64 lanes per SM: 16 per SMSP
  u[arch::SFU] = {16, 8, 1};              // 16 SFUs per SM: 4 per SMSP
  u[arch::CONVERSION] = {12, 2, 1};       // 64 conversions per SM per clock (32-bit types)
  u[arch::TENSOR] = {24, 1, 1};           // timed by TensorConfig; kept for completeness
  u[arch::LOAD_STORE] = {0, 1, 1};        // the memory pipeline times these
  u[arch::TEXTURE] = {0, 1, 1};           // the memory pipeline times these
  u[arch::SHUFFLE] = {0, 1, 1};           // the memory pipeline (MIO) times these
  u[arch::UNIFORM] = {2, 1, 1};           // uniform datapath, one per SMSP
  u[arch::BRANCH] = {1, 1, 1};            // see branch_resolve_cycles
  u[arch::BARRIER] = {1, 1, 1};           // see barrier_latency_cycles
  u[arch::EXIT] = {1, 1, 1};
  u[arch::CONTROL] = {4, 1, 1};  // S2R, CS2R, NOP, DEPBAR, …
  return u;
}

void validate_sm_config(const SmConfig& config) {
  validate_sm_limits(config.limits);
  const SmLimits& l = config.limits;
  require_range("limits.sub_partitions", l.sub_partitions, 1, kMaxSubPartitions);
  require_range("limits.max_warps_per_sm", l.max_warps_per_sm, 1, kMaxWarpsPerSm);
  require_range("limits.max_ctas_per_sm", l.max_ctas_per_sm, 1, kMaxCtasPerSm);
  require_range("limits.warp_size", l.warp_size, 1, 64);
  require_range("issue_width", config.issue_width, 1, 8);
  require_range("two_level_active_warps", config.two_level_active_warps, 1, kMaxWarpsPerSm);
  require_range("shared_warps", config.shared_warps, 1, kMaxWarpsPerSm);
  for (int c = 0; c < kOpClassCount; ++c) {
    const std::string name = "units[" + arch::OpClass_Name(static_cast<arch::OpClass>(c)) + "].";
    const FunctionalUnitConfig& u = config.units[static_cast<std::size_t>(c)];
    require_range(name + "latency_cycles", u.latency_cycles, 0, 100000);
    require_range(name + "initiation_interval_cycles", u.initiation_interval_cycles, 1, 100000);
    require_range(name + "units_per_smsp", u.units_per_smsp, 1, kMaxUnitsPerClass);
  }
  require_range("branch_resolve_cycles", config.branch_resolve_cycles, 0, 100000);
  require_range("barrier_arrival_cycles", config.barrier_arrival_cycles, 0, 100000);
  require_range("cta_launch_interval_cycles", config.cta_launch_interval_cycles, 0, 1000000);
  require_range("register_reads_per_cycle", config.register_reads_per_cycle, 0, 64);
  require_range("barrier_latency_cycles", config.barrier_latency_cycles, 0, 100000);
  require_range("gpu_fence_cycles", config.gpu_fence_cycles, 0, 1000000);
  validate(config.instruction_fetch);
  const TensorConfig& t = config.tensor;
  for (int i = 0; i < kTensorTypeCount; ++i) {
    const double rate = t.dense_flop_per_clk_per_sm[static_cast<std::size_t>(i)];
    require_range(std::string("tensor.dense_flop_per_clk_per_sm[") +
                      std::string(tensor_type_name(static_cast<TensorType>(i))) + "]",
                  rate, 0, 1e9);
  }
  require_range("tensor.mma_sync_latency_cycles", t.mma_sync_latency_cycles, 0, 100000);
  if (!(t.mma_sync_fraction_of_peak > 0.0 && t.mma_sync_fraction_of_peak <= 1.0)) {
    bad_field("tensor.mma_sync_fraction_of_peak", "in (0, 1]", t.mma_sync_fraction_of_peak);
  }
  require_range("tensor.wgmma_extra_latency_cycles", t.wgmma_extra_latency_cycles, 0, 100000);
  require_range("tensor.tcgen05_min_cycles", t.tcgen05_min_cycles, 0, 100000);
  require_range("tensor.tcgen05_default_m", t.tcgen05_default_m, 1, 1024);
  require_range("tensor.tcgen05_default_n", t.tcgen05_default_n, 1, 1024);
  require_range("tensor.mfma_extra_latency_cycles", t.mfma_extra_latency_cycles, 0, 100000);
  require_range("amd.valu_simd_cycles", config.amd.valu_simd_cycles, 1, 64);
}

}  // namespace warpsim::core
