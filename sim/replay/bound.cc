#include "sim/replay/bound.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

#include "arch/derived.h"

namespace warpsim::replay {
namespace {

// FLOPs of one warp instruction of an MMA mnemonic ("HMMA.16816.F32.BF16": m16n8k16), and the
// data-type key of Tensor.dense_flops_per_clk_per_sm; 0 when not an MMA.
double mma_flops(std::string_view mnemonic, std::string& type) {
  const bool warpgroup = mnemonic.starts_with("HGMMA");
  if (!mnemonic.starts_with("HMMA") && !warpgroup && !mnemonic.starts_with("IMMA")) return 0;
  type = mnemonic.find("BF16") != std::string_view::npos   ? "bf16"
         : mnemonic.find("TF32") != std::string_view::npos ? "tf32"
         : mnemonic.find("E4M3") != std::string_view::npos ||
                 mnemonic.find("E5M2") != std::string_view::npos
             ? "fp8"
         : mnemonic.starts_with("IMMA") ? "int8"
                                        : "fp16";
  const size_t dot = mnemonic.find('.');
  if (dot == std::string_view::npos) return 0;
  std::string_view shape = mnemonic.substr(dot + 1);
  shape = shape.substr(0, shape.find('.'));
  if (warpgroup) {  // HGMMA.64x128x16: one warpgroup instruction, issued by each of its 4 warps.
    uint32_t m = 0, n = 0, k = 0;
    auto p = std::from_chars(shape.data(), shape.data() + shape.size(), m);
    if (p.ec != std::errc() || p.ptr == shape.data() + shape.size()) return 0;
    p = std::from_chars(p.ptr + 1, shape.data() + shape.size(), n);
    if (p.ec != std::errc() || p.ptr == shape.data() + shape.size()) return 0;
    p = std::from_chars(p.ptr + 1, shape.data() + shape.size(), k);
    return 2.0 * m * n * k / 4;
  }
  // HMMA shapes: "16816" = m16 n8 k16, "1688" = m16 n8 k8, "884" = m8 n8 k4.
  if (shape == "16816" || shape == "16832") return 2.0 * 16 * 8 * (shape == "16816" ? 16 : 32);
  if (shape == "1688") return 2.0 * 16 * 8 * 8;
  if (shape == "884") return 2.0 * 8 * 8 * 4;
  return 2.0 * 16 * 8 * 16;
}

std::string pipe_name(arch::OpClass c) {
  std::string name = arch::OpClass_Name(c);
  for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return name;
}

}  // namespace

Bound analytical_bound(const ReplayPlan& plan, const traces::ncu::KernelProfile& profile,
                       const arch::Spec& spec) {
  const double sms = spec.sm().count();
  const double smsps = std::max<uint32_t>(1, spec.sm().sub_partitions());
  const double sm_hz = spec.clocks().sm_mhz() * 1e6;
  const double warps = static_cast<double>(profile.warps());
  const traces::OpcodeTable& opcodes = *plan.info.opcodes;
  std::map<arch::OpClass, double> per_class;
  std::map<std::string, double> tensor_flops;
  double issued = 0, shared_wavefronts = 0, l1_sectors = 0, per_warp = 0;
  for (const PlanEntry& e : plan.entries) {
    const traces::OpcodeInfo& info = opcodes.info(e.opcode);
    const double count = e.per_warp * warps;
    issued += count;
    per_warp += e.per_warp;
    per_class[info.op_class] += count;
    std::string type;
    if (const double f = mma_flops(info.mnemonic, type); f > 0) tensor_flops[type] += f * count;
    if (info.space == traces::MemSpace::kShared) {
      const double width = std::max<double>(info.width_bytes, 4);
      const double ideal = std::max(1.0, std::ceil(32 * e.lane_fraction * width / 128));
      shared_wavefronts += count * ideal * e.conflict_ways;
    } else if (info.space == traces::MemSpace::kGlobal ||
               info.space == traces::MemSpace::kGeneric || info.space == traces::MemSpace::kLocal) {
      l1_sectors += count * e.sectors_per_request;
    }
  }
  Bound b;
  b.terms.push_back(
      {"issue",
       issued / (sms * smsps * std::max<uint32_t>(1, spec.sm().issue_width_per_scheduler()))});
  // One warp issues at most one instruction per cycle: its own stream is a floor (latency aside).
  b.terms.push_back({"warp issue", per_warp + 1});
  for (const auto& [op_class, count] : per_class) {
    if (op_class == arch::OP_CLASS_UNKNOWN) continue;
    const arch::FunctionalUnit& fu = arch::functional_unit(spec, op_class);
    const double per_cycle = fu.lanes() > 0
                                 ? fu.lanes() / 32.0
                                 : 1.0 / std::max<uint32_t>(1, fu.initiation_interval_cycles());
    b.terms.push_back({"pipe " + pipe_name(op_class), count / (sms * smsps * per_cycle)});
  }
  for (const auto& [type, flops] : tensor_flops) {
    const auto& rates = spec.tensor().dense_flops_per_clk_per_sm();
    const auto it = rates.find(type);
    if (it != rates.end() && it->second > 0)
      b.terms.push_back({"tensor " + type, flops / (sms * it->second)});
  }
  if (shared_wavefronts > 0) b.terms.push_back({"shared", shared_wavefronts / sms});
  if (l1_sectors > 0) {
    const double bytes_per_clk = std::max<uint32_t>(32, spec.l1().bandwidth_bytes_per_clk());
    b.terms.push_back({"l1", l1_sectors * 32 / (sms * bytes_per_clk)});
  }
  const double l2_bytes = profile.metric("lts__t_sectors.sum").value_or(l1_sectors) * 32;
  if (l2_bytes > 0 && spec.l2().bandwidth_bytes_per_clk() > 0 && spec.clocks().l2_mhz() > 0) {
    const double seconds =
        l2_bytes / (spec.l2().bandwidth_bytes_per_clk() * spec.clocks().l2_mhz() * 1e6);
    b.terms.push_back({"l2", seconds * sm_hz});
  }
  const double dram_bytes = profile.dram_read_bytes + profile.dram_write_bytes;
  const double hbm = arch::hbm_bandwidth_tb_per_s(spec) * 1e12;
  if (dram_bytes > 0 && hbm > 0) b.terms.push_back({"dram", dram_bytes / hbm * sm_hz});
  for (const BoundTerm& t : b.terms) {
    if (t.cycles > b.cycles) {
      b.cycles = t.cycles;
      b.bottleneck = t.resource;
    }
  }
  b.ns = sm_hz > 0 ? b.cycles / sm_hz * 1e9 : 0;
  return b;
}

}  // namespace warpsim::replay
