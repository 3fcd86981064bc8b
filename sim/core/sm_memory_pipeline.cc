#include "sim/core/sm_memory_pipeline.h"

#include <algorithm>
#include <bit>
#include <span>
#include <string>

#include "arch/error.h"

namespace warpsim::core {
namespace {

using traces::AccessKind;
using traces::MemSpace;

const SmMemoryConfig& validated(const SmMemoryConfig& config) {
  config.validate();
  return config;
}

engine::Port<mem::MemRequest>& request_port(const SmMemoryPorts& ports) {
  if (ports.requests == nullptr || ports.responses == nullptr) {
    throw InternalError("SM memory pipeline built without its memory ports");
  }
  return *ports.requests;
}

}  // namespace

SmMemoryPorts connect_sm_memory_ports(engine::Engine& engine, engine::Component& sm,
                                      engine::Component& memory, const SmMemoryConfig& config) {
  config.validate();
  SmMemoryPorts ports;
  ports.requests = &engine.connect<mem::MemRequest>(
      sm, memory,
      engine::PortConfig{
          sm.domain().duration(static_cast<std::uint64_t>(config.memory_request_latency_cycles)),
          static_cast<std::size_t>(config.memory_request_port_capacity), ""});
  ports.responses = &engine.connect<mem::MemResponse>(
      memory, sm,
      engine::PortConfig{memory.domain().duration(
                             static_cast<std::uint64_t>(config.memory_response_latency_cycles)),
                         0, ""});
  return ports;
}

SmMemoryPipeline::SmMemoryPipeline(const SmMemoryConfig& config, const SmMemoryPorts& ports)
    : config_(validated(config)),
      responses_(ports.responses),
      mio_(config_, counters_, completions_),
      lsu_(config_, counters_, completions_, request_port(ports), mio_),
      tma_(config_, counters_, completions_, request_port(ports)) {
  // Every queued or waiting instruction has at most one pending completion.
  completions_.reserve(static_cast<std::size_t>(config_.mio_queue_depth_per_sm) +
                       static_cast<std::size_t>(config_.lsu_queue_depth_per_sm) +
                       static_cast<std::size_t>(lsu_.mshrs().waiter_capacity()) +
                       64);
}

void SmMemoryPipeline::begin_kernel(const SmMemoryKernelLayout& layout) {
  if (!idle())
    throw InternalError("SM memory pipeline: a kernel began with instructions in flight");
  lsu_.begin_kernel(layout.shared_carveout_bytes);
  layout_ = layout;
}

SmMemoryPipeline::Path SmMemoryPipeline::path_of(const traces::OpcodeInfo& info) {
  if (info.op_class == arch::SHUFFLE) return Path::kMio;
  switch (info.space) {
    case MemSpace::kGlobal:
    case MemSpace::kLocal:
    case MemSpace::kGlobalToShared:
    case MemSpace::kSharedToGlobal:
    case MemSpace::kTexture:
    case MemSpace::kSurface:
      return Path::kLsu;
    case MemSpace::kGeneric:
      return Path::kGeneric;
    case MemSpace::kShared:
    case MemSpace::kConstant:
    case MemSpace::kTensorMemory:
    case MemSpace::kNone:
      return Path::kMio;
  }
  return Path::kMio;
}

MioKind SmMemoryPipeline::mio_kind(const traces::OpcodeInfo& info) {
  if (info.op_class == arch::SHUFFLE) return MioKind::kShuffle;
  if (info.space == MemSpace::kConstant) return MioKind::kConstant;
  if (info.space != MemSpace::kShared && info.space != MemSpace::kGeneric) return MioKind::kOther;
  switch (info.access) {
    case AccessKind::kStore:
      return MioKind::kSharedStore;
    case AccessKind::kAtomic:
    case AccessKind::kReduction:
      return MioKind::kSharedAtomic;
    default:
      return MioKind::kSharedLoad;
  }
}

LsuKind SmMemoryPipeline::lsu_kind(const traces::OpcodeInfo& info) {
  switch (info.access) {
    case AccessKind::kStore:
      return LsuKind::kStore;
    case AccessKind::kAtomic:
      return LsuKind::kAtomic;
    case AccessKind::kReduction:
      return LsuKind::kReduction;
    default:
      return LsuKind::kLoad;
  }
}

void SmMemoryPipeline::check_smsp(int smsp) const {
  if (smsp < 0 || smsp >= config_.sub_partitions) {
    throw InternalError("SM memory pipeline: sub-partition " + std::to_string(smsp) +
                        " out of range");
  }
}

PipelineBackpressure SmMemoryPipeline::can_accept(const traces::OpcodeInfo& info, int smsp) const {
  check_smsp(smsp);
  switch (path_of(info)) {
    case Path::kMio:
      return mio_.can_accept(smsp) ? PipelineBackpressure::kNone : PipelineBackpressure::kMio;
    case Path::kLsu:
      if (lsu_.can_accept(smsp)) return PipelineBackpressure::kNone;
      return info.space == MemSpace::kTexture || info.space == MemSpace::kSurface
                 ? PipelineBackpressure::kTex
                 : PipelineBackpressure::kLsu;
    case Path::kGeneric:
      // The address decides the path; it is known only at issue, so both must have room.
      if (!lsu_.can_accept(smsp)) return PipelineBackpressure::kLsu;
      return mio_.can_accept(smsp) ? PipelineBackpressure::kNone : PipelineBackpressure::kMio;
  }
  return PipelineBackpressure::kNone;
}

bool SmMemoryPipeline::has_room(PipelineBackpressure kind, int smsp) const {
  check_smsp(smsp);
  return kind == PipelineBackpressure::kMio ? mio_.can_accept(smsp) : lsu_.can_accept(smsp);
}

void SmMemoryPipeline::issue(const MemoryOp& op, engine::Cycle now) {
  if (op.inst == nullptr || op.info == nullptr) {
    throw InternalError("SM memory pipeline: an op without its instruction or opcode info");
  }
  check_smsp(op.sub_partition);
  const traces::WarpInstruction& inst = *op.inst;
  const traces::OpcodeInfo& info = *op.info;
  if (info.has(traces::kOpTma) &&
      (info.space == MemSpace::kGlobalToShared || info.space == MemSpace::kSharedToGlobal)) {
    // A bulk copy: the TMA unit moves the bytes its trace fields name.
    const traces::InstructionExtras* extras =
        op.warp != nullptr ? op.warp->extras_of(inst) : nullptr;
    if (extras != nullptr && extras->tma) {
      const traces::TmaInfo& tma = *extras->tma;
      const std::uint32_t bytes = tma.bytes - std::min(tma.bytes, tma.oob_bytes);
      // The addresses sit in the warp's address pool (the SM's copy of it, when it keeps one).
      const std::span<const std::uint64_t> addresses =
          op.lanes != nullptr
              ? std::span<const std::uint64_t>(op.lanes + tma.address_offset, tma.address_count)
              : op.warp->tma_addresses(inst);
      tma_.issue(op.warp_slot, op.op_id, info.space == MemSpace::kSharedToGlobal, addresses, bytes,
                 now);
      return;
    }
  }
  WarpAccess access;
  access.mask = static_cast<std::uint32_t>(inst.active_mask);
  access.width_bytes = inst.mem_width != 0 ? inst.mem_width : info.width_bytes;
  if (access.width_bytes == 0) access.width_bytes = 4;
  if (inst.has_lane_addresses() && (op.lanes != nullptr || op.warp != nullptr)) {
    const traces::LaneMask mask = inst.active_mask;
    // One address per active lane, in lane order, or one for all (uniform).
    const std::span<const std::uint64_t> packed =
        op.lanes != nullptr
            ? std::span<const std::uint64_t>(op.lanes + inst.mem_offset, inst.lane_address_count())
            : op.warp->lane_addresses(inst);
    if (inst.has_uniform_address()) {
      lanes_.fill(packed.front());
      access.addresses = lanes_.data();
      access.uniform = true;
    } else if (mask != 0 && (mask & (mask + 1)) == 0) {
      // Lanes 0..n-1 active (the common case): the packed addresses are already in lane order.
      if (packed.size() >= static_cast<std::size_t>(kWarpLanes)) {
        access.addresses = packed.data();  // all 32 lanes: read in place
      } else {
        std::copy(packed.begin(), packed.end(), lanes_.begin());
        access.addresses = lanes_.data();
      }
    } else {
      traces::scatter_lane_addresses(mask, packed, lanes_);
      access.addresses = lanes_.data();
    }
  }
  Path path = path_of(info);
  if (path == Path::kGeneric) {
    path = Path::kLsu;
    if (access.addresses != nullptr && access.mask != 0 && layout_.shared_window_bytes != 0) {
      const std::uint64_t first = access.addresses[std::countr_zero(access.mask)];
      if (first >= layout_.shared_window_base &&
          first - layout_.shared_window_base < layout_.shared_window_bytes) {
        path = Path::kMio;
      }
    }
  }
  if (path == Path::kMio) {
    // LDSM / STSM: only the first 8 lanes per matrix supply a row address.
    if (info.address_lanes < kWarpLanes) {
      access.mask &= (std::uint32_t{1} << info.address_lanes) - 1;
    }
    mio_.issue(op.warp_slot, op.op_id, op.sub_partition, mio_kind(info), access, now);
  } else {
    const LsuSpace space = info.space == MemSpace::kLocal ? LsuSpace::kLocal : LsuSpace::kGlobal;
    lsu_.issue(op.warp_slot, op.op_id, op.sub_partition, lsu_kind(info), space, access, now);
  }
}

engine::Cycle SmMemoryPipeline::advance(engine::Cycle now, CompletionSink& sink) {
  while (responses_->has_message()) {
    const mem::MemResponse response = responses_->pop();
    if (!tma_.on_response(response, now)) lsu_.on_response(response, now);
  }
  mio_.advance(now);
  lsu_.advance(now);
  tma_.advance(now);
  mio_.advance(now);  // load data the tag stage made ready by now
  completions_.deliver(now, sink);
  const engine::Cycle next = next_cycle();
  return next <= now ? now + 1 : next;
}

engine::Cycle SmMemoryPipeline::next_cycle() const {
  return std::min({completions_.next(), mio_.next_cycle(), lsu_.next_cycle(), tma_.next_cycle()});
}

void SmMemoryPipeline::prefetch() const {
  __builtin_prefetch(&responses_);
  responses_->prefetch_front();
}

bool SmMemoryPipeline::idle() const {
  return mio_.queued() == 0 && lsu_.idle() && tma_.idle() && completions_.empty();
}

}  // namespace warpsim::core
