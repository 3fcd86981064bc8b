// Test neighbours of the SM memory pipeline: a fixed-latency memory system that answers every
// request a set number of its cycles after it arrives (recording each request with its arrival
// cycle), and a minimal SM component that issues scripted memory ops into an SmMemoryPipeline and
// records completions.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arch/op_class.pb.h"
#include "sim/core/memory_pipeline.h"
#include "sim/core/sm_memory_pipeline.h"
#include "sim/engine/component.h"
#include "sim/engine/engine.h"
#include "sim/engine/port.h"
#include "sim/mem/mem_request.h"
#include "traces/isa/opcode_info.h"
#include "traces/warp_trace.h"

namespace warpsim::core::testing {

/// Answers every request `latency` cycles after its arrival; records what it received.
class MockMemory : public engine::Component {
 public:
  struct Received {
    mem::MemRequest request;
    engine::Cycle arrived = 0;
  };

  MockMemory(std::string name, const engine::ClockDomain& domain, engine::Cycle latency)
      : Component(std::move(name), domain), latency_(latency) {}

  void attach(const SmMemoryPorts& ports) {
    in_ = ports.requests;
    out_ = ports.responses;
  }

  engine::Cycle tick(engine::Cycle now) override {
    while (in_ != nullptr && in_->has_message()) {
      const mem::MemRequest request = in_->pop();
      received.push_back({request, now});
      pending_.push_back({now + latency_, mem::response_to(request)});
    }
    std::size_t kept = 0;
    for (const auto& [due, response] : pending_) {
      if (due <= now) {
        out_->send(response);
      } else {
        pending_[kept++] = {due, response};
      }
    }
    pending_.resize(kept);
    note_progress();
    engine::Cycle next = engine::kSleep;
    for (const auto& entry : pending_) next = std::min(next, entry.first);
    return next;
  }

  bool busy() const override { return !pending_.empty(); }

  /// Sends `response` unsolicited at the memory's first tick.
  void inject(const mem::MemResponse& response) { pending_.push_back({0, response}); }

  std::vector<Received> received;

 private:
  engine::Cycle latency_;
  engine::Port<mem::MemRequest>* in_ = nullptr;
  engine::Port<mem::MemResponse>* out_ = nullptr;
  std::vector<std::pair<engine::Cycle, mem::MemResponse>> pending_;
};

/// One scripted op: issued at `cycle` (or as soon after as the pipeline accepts it).
struct ScriptedOp {
  engine::Cycle cycle = 0;
  MemoryOp op;
};

/// A completion as the sink saw it.
struct Completion {
  std::uint32_t warp_slot = 0;
  std::uint32_t op_id = 0;
  engine::Cycle at = 0;
  engine::Cycle reported = 0;  // the cycle of the advance() call that reported it
};

/// A minimal SM: advances the pipeline, then issues its script in order and asks for the
/// acknowledgement notices due, then sleeps until the pipeline's next cycle or the next scripted
/// op or request; records completions, notices and refusals.
class ScriptedSm : public engine::Component, public CompletionSink {
 public:
  ScriptedSm(std::string name, const engine::ClockDomain& domain)
      : Component(std::move(name), domain) {}

  void attach(const SmMemoryConfig& config, const SmMemoryPorts& ports) {
    pipeline = std::make_unique<SmMemoryPipeline>(config, ports);
  }

  engine::Cycle tick(engine::Cycle now) override {
    now_ = now;
    pipeline->advance(now, *this);
    while (next_ < script.size() && script[next_].cycle <= now) {
      const MemoryOp& op = script[next_].op;
      const PipelineBackpressure why = pipeline->can_accept(*op.info, op.sub_partition);
      if (why != PipelineBackpressure::kNone) {
        refusals.push_back({now, why});
        break;
      }
      pipeline->issue(op, now);
      issued_at.push_back(now);
      ++next_;
    }
    while (next_notify_ < notify_at.size() && notify_at[next_notify_].first <= now) {
      pipeline->notify_acknowledged(notify_at[next_notify_++].second, now);
    }
    note_progress();
    engine::Cycle next = pipeline->next_cycle();
    if (next_ < script.size()) next = std::min(next, std::max(script[next_].cycle, now + 1));
    if (next_notify_ < notify_at.size()) {
      next = std::min(next, std::max(notify_at[next_notify_].first, now + 1));
    }
    return std::max(next, now + 1);  // a notice asked for now comes with the next advance
  }

  void complete(std::uint32_t warp_slot, std::uint32_t op_id, engine::Cycle at) override {
    completions.push_back({warp_slot, op_id, at, now_});
  }

  void acknowledged(std::uint32_t warp_slot, engine::Cycle at) override {
    acknowledgements.emplace_back(warp_slot, at);
  }

  bool busy() const override {
    return next_ < script.size() || next_notify_ < notify_at.size() || !pipeline->idle();
  }

  std::vector<ScriptedOp> script;
  std::vector<engine::Cycle> issued_at;
  std::vector<Completion> completions;
  std::vector<std::pair<engine::Cycle, PipelineBackpressure>> refusals;
  /// (cycle, warp slot): when to ask for a warp's acknowledgement notice, in cycle order.
  std::vector<std::pair<engine::Cycle, std::uint32_t>> notify_at;
  /// (warp slot, cycle) of every notice received.
  std::vector<std::pair<std::uint32_t, engine::Cycle>> acknowledgements;
  std::unique_ptr<SmMemoryPipeline> pipeline;

 private:
  std::size_t next_ = 0;
  std::size_t next_notify_ = 0;
  engine::Cycle now_ = 0;
};

/// Lane addresses of a warp access.
using Lanes = std::array<std::uint64_t, kWarpLanes>;

/// Lane i at base + i * stride_bytes.
inline Lanes strided(std::uint64_t base, std::uint64_t stride_bytes) {
  Lanes lanes{};
  for (int i = 0; i < kWarpLanes; ++i) lanes[static_cast<std::size_t>(i)] = base + i * stride_bytes;
  return lanes;
}

/// An OpcodeInfo for tests.
inline traces::OpcodeInfo opcode(traces::MemSpace space, traces::AccessKind access,
                                 int width_bytes = 4, arch::OpClass op_class = arch::LOAD_STORE) {
  traces::OpcodeInfo info;
  info.mnemonic = "TEST";
  info.base = "TEST";
  info.op_class = op_class;
  info.space = space;
  info.access = access;
  info.width_bytes = static_cast<std::uint16_t>(width_bytes);
  info.known = true;
  return info;
}

/// An engine at 1 GHz with a ScriptedSm ("sm") and a MockMemory ("zmem") joined by ports.
class Bench {
 public:
  explicit Bench(const SmMemoryConfig& config = {}, engine::Cycle memory_latency = 100)
      : domain_(engine_.add_clock_domain("sm", 1'000'000)),
        sm_(engine_.emplace<ScriptedSm>("sm", domain_)),
        memory_(engine_.emplace<MockMemory>("zmem", domain_, memory_latency)) {
    const SmMemoryPorts ports = connect_sm_memory_ports(engine_, sm_, memory_, config);
    memory_.attach(ports);
    sm_.attach(config, ports);
    engine_.set_watchdog_cycles(100'000, "sm");
    warp_.instructions.reserve(4096);
  }

  /// Adds an op issued at `cycle` by `smsp`; returns its op id (its index).
  std::uint32_t add(engine::Cycle cycle, const traces::OpcodeInfo& info, const Lanes& lanes,
                    std::uint32_t mask = 0xffffffffu, int smsp = 0, bool with_addresses = true) {
    traces::WarpInstruction inst;
    inst.active_mask = mask;
    inst.mem_width = info.width_bytes;
    warp_.instructions.push_back(inst);
    traces::WarpInstruction& stored = warp_.instructions.back();
    if (with_addresses) {
      std::vector<std::uint64_t> active;
      for (int lane = 0; lane < kWarpLanes; ++lane) {
        if ((mask >> lane & 1u) != 0) active.push_back(lanes[static_cast<std::size_t>(lane)]);
      }
      warp_.set_lane_addresses(stored, active);
    }
    return script(cycle, info, stored, smsp);
  }

  /// Adds a TMA copy issued at `cycle`: `bytes` bytes from each of `addresses` an equal share,
  /// as Accel-Sim v6's TMA fields give them; returns its op id.
  std::uint32_t add_copy(engine::Cycle cycle, const traces::OpcodeInfo& info,
                         const std::vector<std::uint64_t>& addresses, std::uint32_t bytes) {
    traces::WarpInstruction inst;
    inst.active_mask = 1;
    warp_.instructions.push_back(inst);
    traces::WarpInstruction& stored = warp_.instructions.back();
    traces::TmaInfo tma;
    tma.bytes = bytes;
    tma.address_offset = static_cast<std::uint32_t>(warp_.addresses.size());
    tma.address_count = static_cast<std::uint32_t>(addresses.size());
    warp_.addresses.insert(warp_.addresses.end(), addresses.begin(), addresses.end());
    warp_.mutable_extras(stored).tma = tma;
    return script(cycle, info, stored, 0);
  }

  /// Runs until nothing is left to do.
  void run() { engine_.run(); }

  /// The completion of op `id` (fails the test when it did not complete exactly once).
  Completion completion(std::uint32_t id) const {
    Completion found;
    int count = 0;
    for (const Completion& c : sm_.completions) {
      if (c.op_id == id) {
        found = c;
        ++count;
      }
    }
    if (count != 1) {
      throw std::runtime_error("op " + std::to_string(id) + " completed " + std::to_string(count) +
                               " times");
    }
    return found;
  }
  /// Completion cycle of op `id`.
  engine::Cycle done(std::uint32_t id) const { return completion(id).at; }

  SmMemoryPipeline& pipeline() { return *sm_.pipeline; }
  const SmMemoryCounters& counters() const { return sm_.pipeline->counters(); }
  ScriptedSm& sm() { return sm_; }
  MockMemory& memory() { return memory_; }
  engine::Engine& engine() { return engine_; }

 private:
  // Appends the op of `stored` (an instruction of warp_) to the SM's script; returns its id.
  std::uint32_t script(engine::Cycle cycle, const traces::OpcodeInfo& info,
                       const traces::WarpInstruction& stored, int smsp) {
    const auto id = static_cast<std::uint32_t>(sm_.script.size());
    MemoryOp op;
    op.warp_slot = static_cast<std::uint32_t>(smsp);
    op.op_id = id;
    op.sub_partition = smsp;
    op.inst = &stored;
    op.info = &info;
    op.warp = &warp_;
    sm_.script.push_back({cycle, op});
    return id;
  }

  engine::Engine engine_;
  const engine::ClockDomain& domain_;
  ScriptedSm& sm_;
  MockMemory& memory_;
  traces::WarpTrace warp_;
};

}  // namespace warpsim::core::testing
