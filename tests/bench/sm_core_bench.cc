// Simulation speed of the SM issue core: simulated warp instructions per second for an
// FFMA-heavy kernel on 132 SMs (H100/H200 defaults) with a fixed-latency mock memory pipeline,
// on one thread. Target: ≥ 1,000,000 warp instructions per second.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/core/cta_dispatcher.h"
#include "sim/core/sm.h"
#include "sim/engine/engine.h"
#include "tests/sim/core/mock_memory_pipeline.h"
#include "traces/builder.h"
#include "traces/in_memory_source.h"

namespace {

using namespace warpsim;  // NOLINT: benchmark file

constexpr int kSms = 132;

traces::KernelTrace ffma_kernel(std::uint32_t ctas, int iterations) {
  traces::KernelBuilder k("ffma_heavy", {ctas, 1, 1}, {256, 1, 1});
  k.info().registers_per_thread = 64;
  k.fill_grid([&](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t warp) {
    w.add("S2R", {traces::gpr(0)});
    w.mem("LDG.E", {traces::gpr(2)}, {traces::gpr(4)},
          traces::strided_addresses(w.current_mask(), 0x10000 + warp * 128, 4));
    for (int i = 0; i < iterations; ++i) {
      for (std::uint32_t a = 0; a < 4; ++a) {
        w.add("FFMA", {traces::gpr(10 + a)}, {traces::gpr(2), traces::gpr(3), traces::gpr(10 + a)});
      }
      w.add("IMAD", {traces::gpr(5)}, {traces::gpr(5), traces::gpr(6), traces::gpr(7)});
    }
    w.mem("STG.E", {}, {traces::gpr(4), traces::gpr(10)},
          traces::strided_addresses(w.current_mask(), 0x80000 + warp * 128, 4));
    w.add("EXIT");
  });
  return std::move(k).build();
}

void BM_SmCoreFfmaHeavy(benchmark::State& state) {
  const traces::KernelTrace kernel = ffma_kernel(kSms * 8, 40);
  core::SmConfig config;
  std::uint64_t simulated = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<traces::KernelTrace> kernels{kernel};
    traces::InMemoryKernelSource source(std::move(kernels));
    engine::Engine engine;
    const engine::ClockDomain& sm_clock = engine.add_clock_domain("sm", 1'980'000);
    std::vector<std::unique_ptr<core::testing::MockMemoryPipeline>> pipelines;
    std::vector<std::unique_ptr<core::Sm>> sms;
    std::vector<core::Sm*> pointers;
    for (int i = 0; i < kSms; ++i) {
      pipelines.push_back(std::make_unique<core::testing::MockMemoryPipeline>(500, 30));
      sms.push_back(std::make_unique<core::Sm>("gpu.sm[" + std::to_string(i) + "]", sm_clock, i,
                                               config, *pipelines.back()));
      engine.add(*sms.back(), engine::Start::kAsleep);
      pointers.push_back(sms.back().get());
    }
    core::CtaDispatcher dispatcher("gpu.dispatcher", sm_clock, engine, pointers, source, config);
    state.ResumeTiming();
    engine.run();
    state.PauseTiming();
    for (const auto& sm : sms) simulated += sm->counters().total_issued();
    state.ResumeTiming();
  }
  state.counters["warp_inst_per_s"] =
      benchmark::Counter(static_cast<double>(simulated), benchmark::Counter::kIsRate);
  state.counters["warp_inst"] = static_cast<double>(simulated) / state.iterations();
}

BENCHMARK(BM_SmCoreFfmaHeavy)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
