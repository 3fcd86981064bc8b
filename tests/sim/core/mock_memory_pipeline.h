// A fixed-latency MemoryPipeline for SM tests and benchmarks: shared-memory and shuffle ops
// complete `shared_latency` cycles after issue, every other space `global_latency` cycles after;
// an optional limit on ops in flight makes can_accept report backpressure. Records every op.
// Matrix-operand reads from shared memory take `operand_cycles_per_wavefront` cycles per 128
// bytes from the cycle they are asked for (1 unless set) and are recorded.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/core/memory_pipeline.h"

namespace warpsim::core::testing {

class MockMemoryPipeline final : public MemoryPipeline {
 public:
  MockMemoryPipeline(engine::Cycle global_latency, engine::Cycle shared_latency)
      : global_latency_(global_latency), shared_latency_(shared_latency) {}

  /// Ops in flight beyond which can_accept refuses (0 = unlimited), and with which reason.
  void limit_in_flight(std::size_t limit, PipelineBackpressure reason) {
    limit_ = limit;
    limit_reason_ = reason;
  }

  PipelineBackpressure can_accept(const traces::OpcodeInfo&, int) const override {
    if (limit_ != 0 && in_flight_.size() >= limit_) return limit_reason_;
    return PipelineBackpressure::kNone;
  }
  bool has_room(PipelineBackpressure, int) const override {
    return limit_ == 0 || in_flight_.size() < limit_;
  }
  void issue(const MemoryOp& op, engine::Cycle now) override {
    const bool shared =
        op.info->space == traces::MemSpace::kShared || op.info->space == traces::MemSpace::kNone;
    const engine::Cycle done = now + (shared ? shared_latency_ : global_latency_);
    in_flight_.push_back({op.warp_slot, op.op_id, done});
    issued_at.push_back(now);
  }
  engine::Cycle advance(engine::Cycle now, CompletionSink& sink) override {
    engine::Cycle next = engine::kSleep;
    for (std::size_t i = 0; i < in_flight_.size();) {
      if (in_flight_[i].done <= now) {
        const Pending p = in_flight_[i];
        in_flight_.erase(in_flight_.begin() + static_cast<std::ptrdiff_t>(i));
        sink.complete(p.warp, p.op, now);
      } else {
        next = std::min(next, in_flight_[i].done);
        ++i;
      }
    }
    return next;
  }
  bool idle() const override { return in_flight_.empty(); }
  engine::Cycle read_shared_operands(std::uint32_t bytes, engine::Cycle now) override {
    operand_reads.push_back(bytes);
    return now + operand_cycles_per_wavefront * ((bytes + 127) / 128);
  }

  std::vector<engine::Cycle> issued_at;        ///< Issue cycle of every op.
  std::vector<std::uint32_t> operand_reads;    ///< Bytes of every matrix-operand read.
  engine::Cycle operand_cycles_per_wavefront = 1;

 private:
  struct Pending {
    std::uint32_t warp;
    std::uint32_t op;
    engine::Cycle done;
  };
  engine::Cycle global_latency_;
  engine::Cycle shared_latency_;
  std::size_t limit_ = 0;
  PipelineBackpressure limit_reason_ = PipelineBackpressure::kNone;
  std::deque<Pending> in_flight_;
};

}  // namespace warpsim::core::testing
