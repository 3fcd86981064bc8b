#include "sim/core/opcode_decode.h"

#include <algorithm>
#include <string_view>

namespace warpsim::core {
namespace {

using traces::MemSpace;

DependencyKind memory_dependency(const traces::OpcodeInfo& info) {
  switch (info.space) {
    case MemSpace::kShared:
    case MemSpace::kConstant:
    case MemSpace::kNone:  // SHUFFLE class
      return DependencyKind::kShort;
    default:
      return DependencyKind::kLong;
  }
}

bool is_valu_class(int op_class) {
  return op_class == arch::INT || op_class == arch::FP32 || op_class == arch::FP16 ||
         op_class == arch::FP64 || op_class == arch::CONVERSION || op_class == arch::SFU;
}

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

}  // namespace

void OpcodeDecoder::sync(const traces::OpcodeTable& table, int warp_size) {
  if (&table != table_ || warp_size != warp_size_) {
    decodes_.clear();
    table_ = &table;
    warp_size_ = warp_size;
  }
  if (decodes_.size() >= table.size()) return;
  decodes_.reserve(table.size());
  for (std::size_t id = decodes_.size(); id < table.size(); ++id) {
    decodes_.push_back(decode(table.info(static_cast<traces::OpcodeId>(id))));
  }
}

OpcodeDecode OpcodeDecoder::decode(const traces::OpcodeInfo& info) const {
  const SmConfig& config = *config_;
  OpcodeDecode d;
  d.info = &info;
  const int op_class = std::clamp(static_cast<int>(info.op_class), 0, kOpClassCount - 1);
  d.op_class = static_cast<std::uint8_t>(op_class);
  const FunctionalUnitConfig& unit = config.units[static_cast<std::size_t>(op_class)];
  d.latency_cycles = unit.latency_cycles;
  int interval = unit.initiation_interval_cycles;
  if (warp_size_ == 64 && is_valu_class(op_class) && !info.has(traces::kOpUniform)) {
    interval = std::max(interval, config.amd.valu_simd_cycles);
  }
  d.interval = static_cast<FixedCycles>(interval) * kFixedOne;
  if (op_class == arch::FP64) d.dst_regs = 2;
  if (op_class == arch::SFU) d.dependency = DependencyKind::kShort;
  const std::string_view base = info.base;
  const std::string_view name = info.mnemonic;

  if (info.is_memory() || op_class == arch::SHUFFLE) {
    d.kind = ExecKind::kMemory;
    d.dependency = memory_dependency(info);
    d.dst_regs = static_cast<std::uint8_t>(std::max(1, (info.width_bytes + 3) / 4));
    d.async_copy = info.has(traces::kOpAsync) && info.space == MemSpace::kGlobalToShared;
    d.tensor_memory_load =
        info.space == MemSpace::kTensorMemory && info.access == traces::AccessKind::kLoad;
    return d;
  }
  if (base == "S2R") {
    // A special register (thread and CTA indices) arrives at the shuffle's latency and its
    // readers wait on short_scoreboard (CS2R's clock registers are fixed-latency): ncu's source
    // pages charge them short_scoreboard, 15-25 cycles at one to five instructions' distance in
    // the reference's divergence kernels (validate/reference/h200/source_sass.csv).
    d.dependency = DependencyKind::kShort;
    d.latency_cycles = config.units[static_cast<std::size_t>(arch::SHUFFLE)].latency_cycles;
    return d;
  }
  switch (op_class) {
    case arch::TENSOR: {
      const std::optional<MatrixShape> shape = parse_matrix_shape(info, config.tensor);
      if (!shape) return d;
      const MatrixTiming timing = matrix_timing(*shape, config, info);
      switch (shape->kind) {
        case MatrixOpKind::kWarp:
        case MatrixOpKind::kMfma: {
          d.kind = ExecKind::kMmaWarp;
          d.interval = timing.occupancy;
          d.latency_cycles = timing.latency_cycles;
          const int bytes = shape->m * shape->n * shape->blocks * shape->accumulator_bytes;
          d.dst_regs = static_cast<std::uint8_t>(std::clamp(bytes / (warp_size_ * 4), 1, 64));
          break;
        }
        case MatrixOpKind::kWarpgroup:
        case MatrixOpKind::kTcgen05:
          d.kind = shape->kind == MatrixOpKind::kWarpgroup ? ExecKind::kMmaWarpgroup
                                                           : ExecKind::kMmaTcgen05;
          d.tensor_occupancy = timing.occupancy;
          d.latency_cycles = timing.latency_cycles;
          d.interval = kFixedOne;
          if (shape->kind == MatrixOpKind::kWarpgroup) {
            d.a_operand_bytes = shape->a_bytes();
            d.b_operand_bytes = shape->b_bytes();
          }
          break;
      }
      return d;
    }
    case arch::BRANCH:
      if (base == "BSSY" || base == "BSYNC" || base == "WARPSYNC") {
        d.kind = ExecKind::kReconverge;
      } else if (base != "BMOV" && base != "RPCMOV") {
        d.kind = ExecKind::kBranch;
      }
      // A convergence barrier's wait or exit resolves like a taken branch whether or not the
      // warp moves: on the H200 the instruction after a BSYNC waits 11.2 cycles an execution on
      // branch_resolving, after a BREAK 14.6, after BSSY, WARPSYNC or BMOV none (PyTorch's
      // launches of validate/reference/h200/foreign2, 2.2 M BSYNCs; validate/HISTORY.md,
      // thirtieth round).
      d.resolves = base == "BSYNC" || base == "BREAK";
      return d;
    case arch::BARRIER:
      if (base == "BAR" || base == "s_barrier") {
        d.kind = contains(name, ".ARV") ? ExecKind::kBarrierArrive : ExecKind::kBarrierSync;
      }
      return d;
    case arch::EXIT:
      d.kind = ExecKind::kExit;
      return d;
    case arch::CONTROL:
      if (base == "MEMBAR") {
        d.kind = ExecKind::kMembar;
        d.gpu_fence = contains(name, ".GPU") || contains(name, ".SYS");
      } else if (base == "ERRBAR") {
        d.kind = ExecKind::kErrbar;
      } else if (base == "NANOSLEEP" || base == "s_sleep") {
        d.kind = ExecKind::kNanosleep;
      } else if (base == "WARPGROUP" && contains(name, ".DEPBAR")) {
        d.kind = ExecKind::kWarpgroupWait;
      } else if (base == "LDGDEPBAR") {
        d.kind = ExecKind::kAsyncCommit;
      } else if (base == "DEPBAR") {
        d.kind = ExecKind::kAsyncWait;
      }
      return d;
    default:
      return d;
  }
}

}  // namespace warpsim::core
