// A test bench for the SM issue core: an engine with one SM clock domain, one Sm with a
// fixed-latency mock memory pipeline, an observer that records issues and stalls, and helpers to
// build a kernel, launch its CTAs and run to completion.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/occupancy.h"
#include "sim/core/sm.h"
#include "sim/engine/engine.h"
#include "tests/sim/core/mock_memory_pipeline.h"
#include "traces/builder.h"

namespace warpsim::core::testing {

/// Records the observer events.
class RecordingObserver final : public Observer {
 public:
  void on_issue(const IssueEvent& e) override { issues.push_back(e); }
  void on_stall(const StallEvent& e) override { stalls.push_back(e); }
  void on_cta_launch(const CtaEvent& e) override { launches.push_back(e); }
  void on_cta_retire(const CtaEvent& e) override { retires.push_back(e); }
  void on_reconvergence(const ReconvergenceEvent& e) override { reconvergences.push_back(e); }

  /// Issue cycles of warp slot `slot`.
  std::vector<engine::Cycle> issue_cycles(int slot) const {
    std::vector<engine::Cycle> out;
    for (const IssueEvent& e : issues) {
      if (e.warp_slot == slot) out.push_back(e.cycle);
    }
    return out;
  }
  /// Warp slots in issue order.
  std::vector<int> issue_order() const {
    std::vector<int> out;
    for (const IssueEvent& e : issues) out.push_back(e.warp_slot);
    return out;
  }

  std::vector<IssueEvent> issues;
  std::vector<StallEvent> stalls;
  std::vector<CtaEvent> launches;
  std::vector<CtaEvent> retires;
  std::vector<ReconvergenceEvent> reconvergences;
};

/// One SM, a mock pipeline and an engine.
class SmBench {
 public:
  explicit SmBench(SmConfig config = {}, engine::Cycle global_latency = 400,
                   engine::Cycle shared_latency = 30)
      : config_(std::move(config)),
        pipeline_(global_latency, shared_latency),
        domain_(engine_.add_clock_domain("sm", 1'000'000)),
        sm_("gpu.sm[0]", domain_, 0, config_, pipeline_) {
    engine_.add(sm_);
    sm_.set_observer(&observer_);
  }

  /// Launches every CTA of `kernel` at cycle 0 and runs until the SM is idle. Returns the cycle
  /// after the last event.
  engine::Cycle run(traces::KernelTrace& kernel) {
    start(kernel);
    for (traces::CtaTrace& cta : kernel.ctas) sm_.launch_cta(cta, 0);
    engine_.run();
    return sm_.current_cycle();
  }

  /// As run(), with the CTAs handed over by stage_cta for cycle `at` (> 0), after the SM's
  /// first, idle tick at cycle 0; the SM is woken at `at`.
  engine::Cycle run_staged(traces::KernelTrace& kernel, engine::Cycle at) {
    engine_.run();
    start(kernel);
    for (traces::CtaTrace& cta : kernel.ctas) sm_.stage_cta(cta, at);
    engine_.wake(sm_, at);
    engine_.run();
    return sm_.current_cycle();
  }

  /// Starts `kernel` on the SM.
  void start(const traces::KernelTrace& kernel) {
    KernelLaunch launch;
    launch.threads_per_cta = static_cast<int>(kernel.info.block.volume());
    launch.registers_per_thread = static_cast<int>(kernel.info.registers_per_thread);
    launch.static_shared_bytes = kernel.info.static_shared_bytes;
    sm_.start_kernel(kernel.info, compute_occupancy(config_.limits, launch));
  }

  Sm& sm() { return sm_; }
  MockMemoryPipeline& pipeline() { return pipeline_; }
  RecordingObserver& observer() { return observer_; }
  engine::Engine& engine() { return engine_; }

 private:
  SmConfig config_;
  MockMemoryPipeline pipeline_;
  engine::Engine engine_;
  const engine::ClockDomain& domain_;
  RecordingObserver observer_;
  Sm sm_;
};

/// A kernel of `ctas` CTAs of `threads` threads, each warp built by `fn(builder, cta, warp)`.
inline traces::KernelTrace make_kernel(
    std::uint32_t ctas, std::uint32_t threads,
    const std::function<void(traces::WarpBuilder&, const traces::CtaTrace&, std::uint32_t)>& fn,
    traces::Isa isa = traces::Isa::kSm90) {
  traces::KernelBuilder k("test_kernel", {ctas, 1, 1}, {threads, 1, 1}, isa);
  k.info().registers_per_thread = 32;
  k.fill_grid(fn);
  return std::move(k).build();
}

}  // namespace warpsim::core::testing
