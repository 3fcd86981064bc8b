// An SM's memory pipeline (the MemoryPipeline the issue core calls): routes every memory
// instruction by its OpcodeInfo to the MIO path (shared memory, shuffles, constant loads; generic
// accesses whose first active lane falls in the kernel's shared window) or to the LSU path (global,
// local and other generic accesses, LDGSTS's global read, texture and surface accesses through the
// L1) or to the TMA unit (bulk copies with trace fields), owns the SM's ends of the request and
// response ports to the memory system, and reports completions when their cycle comes.
//
// Calling contract: the SM calls advance(now) at every cycle the pipeline asked for (and may call
// it whenever it ticks). The recommended order within an SM tick is advance(), then can_accept()
// and issue() (which see the queues as of this cycle), then next_cycle() for the wake-up; issue()
// starts an op itself, so an op issued at cycle t can start at t. Completions are reported by the
// advance() call of their own cycle.
//
// Fidelity and omissions: see mio_pipe.h, lsu.h and l1_cache.h. Only the first 32 lanes of an
// instruction take part (NVIDIA warps). Tensor-memory and other unclassified MIO traffic costs one
// wavefront at the shared-memory latency. A memory width of 0 in the trace is taken as 4 bytes.
#pragma once

#include <array>
#include <cstdint>

#include "sim/core/lsu.h"
#include "sim/core/memory_pipeline.h"
#include "sim/core/mio_pipe.h"
#include "sim/core/sm_memory_completions.h"
#include "sim/core/sm_memory_config.h"
#include "sim/core/sm_memory_counters.h"
#include "sim/core/tma_unit.h"
#include "sim/engine/engine.h"
#include "sim/engine/port.h"
#include "sim/mem/mem_request.h"

namespace warpsim::core {

/// The SM's two ports to the memory system.
struct SmMemoryPorts {
  engine::Port<mem::MemRequest>* requests = nullptr;    ///< SM → memory system.
  engine::Port<mem::MemResponse>* responses = nullptr;  ///< Memory system → SM.
};

/// Connects `sm` and `memory` (both registered with `engine`) with the latencies and capacity of
/// `config`: requests in SM cycles, responses in cycles of `memory`'s domain.
SmMemoryPorts connect_sm_memory_ports(engine::Engine& engine, engine::Component& sm,
                                      engine::Component& memory, const SmMemoryConfig& config);

/// The memory pipeline of one SM.
class SmMemoryPipeline final : public MemoryPipeline {
 public:
  /// Validates `config` (warpsim::InputError naming the field) and builds the pipeline for a
  /// kernel with no shared-memory carve-out. The ports' SM end must be the component whose tick
  /// calls advance().
  SmMemoryPipeline(const SmMemoryConfig& config, const SmMemoryPorts& ports);

  /// Starts a kernel with `layout`: the L1 is cold and sized by the carve-out. Throws
  /// warpsim::InternalError when anything is in flight, warpsim::InputError for a carve-out above
  /// the unified capacity.
  void begin_kernel(const SmMemoryKernelLayout& layout);

  PipelineBackpressure can_accept(const traces::OpcodeInfo& info, int smsp) const override;
  bool has_room(PipelineBackpressure kind, int smsp) const override;
  void issue(const MemoryOp& op, engine::Cycle now) override;
  engine::Cycle advance(engine::Cycle now, CompletionSink& sink) override;
  bool idle() const override;
  void prefetch() const override;
  engine::Cycle read_shared_operands(std::uint32_t bytes, engine::Cycle now) override {
    return mio_.read_operands(bytes, now);
  }
  std::uint32_t unacknowledged_writes(std::uint32_t warp_slot) const override {
    return lsu_.unacknowledged_writes(warp_slot);
  }
  /// Writes of all warps that have left the SM and are not yet acknowledged.
  std::uint64_t unacknowledged_writes() const { return lsu_.unacknowledged_writes(); }
  void notify_acknowledged(std::uint32_t warp_slot, engine::Cycle now) override {
    lsu_.notify_acknowledged(warp_slot, now);
  }

  /// The next cycle the pipeline needs (a start, a tag-stage cycle or a completion), or
  /// engine::kSleep when it waits only for responses or port credits.
  engine::Cycle next_cycle() const;

  /// The event counters.
  const SmMemoryCounters& counters() const { return counters_; }
  /// The configuration in use.
  const SmMemoryConfig& config() const { return config_; }
  /// The LSU path (L1 and MSHR state, for inspection).
  const Lsu& lsu() const { return lsu_; }

 private:
  enum class Path : std::uint8_t { kMio, kLsu, kGeneric };
  static Path path_of(const traces::OpcodeInfo& info);
  static MioKind mio_kind(const traces::OpcodeInfo& info);
  static LsuKind lsu_kind(const traces::OpcodeInfo& info);
  void check_smsp(int smsp) const;

  SmMemoryConfig config_;
  SmMemoryCounters counters_;
  SmMemoryCompletions completions_;
  engine::Port<mem::MemResponse>* responses_;
  MioPipe mio_;
  Lsu lsu_;
  TmaUnit tma_;
  SmMemoryKernelLayout layout_;
  std::array<std::uint64_t, 64> lanes_{};  // scratch: the current instruction's lane addresses
};

}  // namespace warpsim::core
