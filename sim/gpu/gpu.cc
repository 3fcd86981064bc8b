#include "sim/gpu/gpu.h"

#include <cmath>
#include <optional>

#include "arch/error.h"
#include "sim/core/cta_dispatcher.h"
#include "sim/core/sm.h"
#include "sim/core/sm_memory_pipeline.h"
#include "sim/engine/engine.h"
#include "sim/engine/huge_page_arena.h"
#include "sim/gpu/gpu_stats.h"
#include "sim/mem/memory_system.h"

namespace warpsim::gpu {
namespace {

std::uint64_t khz(double mhz) { return static_cast<std::uint64_t>(std::llround(mhz * 1000.0)); }

// Hands one kernel of an outer source to the dispatcher, counting the CTAs read.
class OneKernel final : public traces::KernelSource {
 public:
  OneKernel(const traces::KernelInfo& info, traces::KernelSource& outer)
      : info_(info), outer_(outer) {}
  bool next_kernel(traces::KernelInfo& kernel) override {
    if (given_) return false;
    given_ = true;
    kernel = info_;
    return true;
  }
  bool next_cta(traces::CtaTrace& cta) override { return outer_.next_cta(cta); }
  void stream_warps(std::uint32_t instructions) override { outer_.stream_warps(instructions); }
  std::string describe() const override { return outer_.describe(); }

 private:
  const traces::KernelInfo& info_;
  traces::KernelSource& outer_;
  bool given_ = false;
};

// One kernel on a freshly built GPU; with warm caches its L2 starts from `cache_state` (empty:
// cold) and leaves its contents there.
stats::KernelReport simulate_kernel(const GpuConfig& config, const traces::KernelInfo& info,
                                    traces::KernelSource& source, const SimulationOptions& options,
                                    RunProgress& progress, std::uint64_t start_cycle,
                                    std::vector<mem::SliceContents>& cache_state) {
  engine::Engine engine(engine::EngineOptions{options.threads, 16});
  const engine::ClockDomain& sm_domain = engine.add_clock_domain("sm", khz(config.sm_mhz));
  const engine::ClockDomain& l2_domain = engine.add_clock_domain("l2", khz(config.l2_mhz));
  const engine::ClockDomain& memory_domain =
      engine.add_clock_domain("memory", khz(config.memory_mhz));

  // Declared before the SMs, which use them: one decode table for every SM, and storage on huge
  // pages for the SMs and their copies of the resident CTAs' traces (each tick touches a few
  // lines of many pages).
  core::OpcodeDecoder decoder(config.sm);
  engine::HugePageArena arena(static_cast<std::size_t>(config.sms) *
                              (sizeof(core::Sm) + alignof(core::Sm)));
  std::vector<engine::ArenaPtr<core::Sm>> sms;
  std::vector<core::Sm*> sm_ptrs;
  for (int i = 0; i < config.sms; ++i) {
    sms.push_back(arena.make<core::Sm>("gpu.sm[" + std::to_string(i) + "]", sm_domain, i,
                                       config.sm));
    sms.back()->share_decoder(decoder);
    sms.back()->set_trace_arena(&arena);
    engine.add(*sms.back(), engine::Start::kAsleep);
    sm_ptrs.push_back(sms.back().get());
  }
  mem::MemorySystem memory(engine, config.memory, l2_domain, memory_domain);
  if (config.warm_caches && !cache_state.empty()) memory.restore_cache_state(std::move(cache_state));

  const core::Occupancy occupancy = core::compute_occupancy(config.sm.limits,
                                                            core::kernel_launch(info));
  core::SmMemoryKernelLayout layout;
  layout.shared_carveout_bytes = static_cast<std::uint64_t>(occupancy.carveout_bytes);
  if (info.shared_base_address != 0) {
    layout.shared_window_base = info.shared_base_address;
    layout.shared_window_bytes = static_cast<std::uint64_t>(occupancy.carveout_bytes);
  }
  std::vector<std::unique_ptr<core::SmMemoryPipeline>> pipelines;
  for (int i = 0; i < config.sms; ++i) {
    const mem::MemLink link = memory.attach_sm(*sms[i]);
    core::SmMemoryConfig c = config.sm_memory;
    c.sm_id = static_cast<std::uint32_t>(i);
    pipelines.push_back(std::make_unique<core::SmMemoryPipeline>(
        c, core::SmMemoryPorts{link.request, link.response}));
    pipelines.back()->begin_kernel(layout);
    sms[i]->set_memory_pipeline(*pipelines.back());
  }
  // Each SM's observers (timeline, source profile, CTA log), chained in pairs when several.
  std::vector<std::unique_ptr<core::ObserverPair>> pairs;
  for (int i = 0; i < config.sms; ++i) {
    core::Observer* chain = nullptr;
    for (core::Observer* o :
         {options.cta_log != nullptr ? &options.cta_log->observer(i) : nullptr,
          options.source_profile != nullptr ? &options.source_profile->observer(i) : nullptr,
          options.timeline != nullptr ? &options.timeline->observer(i) : nullptr}) {
      if (o == nullptr) continue;
      if (chain != nullptr) {
        pairs.push_back(std::make_unique<core::ObserverPair>(*o, *chain));
        o = pairs.back().get();
      }
      chain = o;
    }
    if (chain != nullptr) sms[i]->set_observer(chain);
  }
  if (options.timeline != nullptr) {
    options.timeline->start_kernel(info.name, info.opcodes, start_cycle);
  }
  if (options.source_profile != nullptr) {
    options.source_profile->start_kernel(info.name, info.opcodes);
  }
  if (options.cta_log != nullptr) options.cta_log->start_kernel(info.name);

  OneKernel one(info, source);
  core::DispatcherConfig dispatch = config.dispatch;
  dispatch.kernel_launch_overhead_cycles = 0;  // one kernel per GPU: the gap is reported instead
  core::CtaDispatcher dispatcher("gpu.dispatcher", sm_domain, engine, sm_ptrs, one, config.sm,
                                 dispatch);
  engine.set_watchdog_cycles(options.watchdog_cycles, "sm");

  const engine::Time slice = sm_domain.duration(options.progress_cycles);
  const std::uint64_t retired_before = progress.ctas_retired;
  progress.ctas_total += info.cta_count();
  // The kernel ends when its last CTA has retired and the memory system has acknowledged every
  // write of its SMs: the memory's counters are taken then, as Nsight Compute's are, and the
  // simulation runs on until the memory is idle (write-backs the L2 has still queued).
  const auto ended = [&dispatcher, &pipelines] {
    if (!dispatcher.done()) return false;
    for (const auto& p : pipelines) {
      if (p->unacknowledged_writes() != 0) return false;
    }
    return true;
  };
  std::optional<mem::MemorySystemCounters> at_end;
  while (true) {
    engine::RunLimits limits{engine.now() + slice, {}};
    if (!at_end) limits.stop_when = ended;
    const engine::RunResult r = engine.run(limits);
    if (!at_end && ended()) at_end = memory.counters();
    std::uint64_t retired = 0, issued = 0;
    for (const auto* sm : sm_ptrs) {
      retired += sm->counters().ctas_retired;
      issued += sm->counters().total_issued();
    }
    progress.ctas_retired = retired_before + retired;
    progress.simulated_cycles = start_cycle + sm_domain.cycle_at(engine.now());
    if (options.progress) {
      RunProgress shown = progress;
      shown.warp_instructions += issued;
      options.progress(shown);
    }
    if (r.reason == engine::StopReason::kIdle) break;
  }
  if (!dispatcher.done() || dispatcher.kernels().empty()) {
    throw InternalError("kernel " + info.name + ": the simulation stopped before every CTA "
                        "retired (" + std::to_string(progress.ctas_retired - retired_before) +
                        " of " + std::to_string(info.cta_count()) + ")");
  }
  if (options.source_profile != nullptr) options.source_profile->end_kernel();
  if (options.cta_log != nullptr) options.cta_log->end_kernel();
  stats::KernelReport report =
      kernel_report(config, info, dispatcher.kernels().front(), sm_ptrs, pipelines, memory,
                    *at_end);
  if (config.warm_caches) cache_state = memory.take_cache_state();
  return report;
}

}  // namespace

std::vector<stats::KernelReport> simulate(const GpuConfig& config, traces::KernelSource& source,
                                          const SimulationOptions& options,
                                          std::uint64_t* warp_instructions) {
  std::vector<stats::KernelReport> reports;
  RunProgress progress;
  traces::KernelInfo info;
  std::uint64_t cycle = 0;
  std::vector<mem::SliceContents> cache_state;  // the L2's contents between kernels (warm caches)
  source.stream_warps(options.warp_piece_instructions);
  while (source.next_kernel(info)) {
    info.validate(source.describe());
    reports.push_back(
        simulate_kernel(config, info, source, options, progress, cycle, cache_state));
    const stats::Sample* elapsed = reports.back().snapshot.find("gpc__cycles_elapsed.max");
    const stats::Sample* inst = reports.back().snapshot.find("smsp__inst_executed.sum");
    cycle += elapsed ? static_cast<std::uint64_t>(stats::to_double(elapsed->value)) : 0;
    cycle += config.dispatch.kernel_launch_overhead_cycles;
    progress.warp_instructions += inst ? static_cast<std::uint64_t>(stats::to_double(inst->value)) : 0;
    ++progress.kernels_done;
  }
  if (warp_instructions != nullptr) *warp_instructions = progress.warp_instructions;
  return reports;
}

}  // namespace warpsim::gpu
