// Simulation speed of the whole GPU on the H200 preset (SMs, memory pipelines, L2, HBM):
// simulated warp instructions per second of wall time, one thread, for a streaming kernel (copy of
// 4 M floats, generated from its twin's SASS before timing starts) and a tensor-core kernel (every
// SM runs warpgroups looping over HGMMA m64n256k16), on 1 and 2 threads. Target (issue: the SM
// model): at least 1,000,000 warp instructions per second on one core, 1.6x that on two.
// BM_GpuWorkloadModel times the path `warpsim run --workload` takes, generation included: the
// sfu model at 528 CTAs of 256 threads (4,224 warps, all resident, each generated in pieces as it
// runs), on 1 to 16 threads, with the run's peak resident memory.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <optional>
#include <string>
#include <vector>

#include "arch/loader.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "traces/builder.h"
#include "traces/in_memory_source.h"
#include "workloads/workload.h"

namespace {

using namespace warpsim;  // NOLINT: benchmark file

traces::KernelTrace generated(const std::string& model, const std::vector<std::string>& params) {
  const workloads::Workload& w = workloads::find_workload(model);
  auto source = w.make_source(workloads::Params::parse(w.params(), params, model));
  traces::KernelTrace trace;
  source->next_kernel(trace.info);
  traces::CtaTrace cta;
  while (source->next_cta(cta)) trace.ctas.push_back(cta);
  return trace;
}

// 132 CTAs of one warpgroup, each looping ARRIVE; HGMMA m64n256k16 (bf16); DEPBAR.LE 1.
traces::KernelTrace hgmma_kernel(int iterations) {
  traces::KernelBuilder k("hgmma_loop", {132, 1, 1}, {128, 1, 1});
  k.info().registers_per_thread = 168;
  k.fill_grid([&](traces::WarpBuilder& w, const traces::CtaTrace&, std::uint32_t) {
    for (int i = 0; i < iterations; ++i) {
      w.add("WARPGROUP.ARRIVE");
      w.add("HGMMA.64x256x16.F32.BF16", {traces::gpr(24)}, {traces::ureg(4), traces::gpr(24)});
      w.last().flags |= traces::kInstGmmaCommit;
      w.add("WARPGROUP.DEPBAR.LE", {}, {}).imm(1);
    }
    w.add("WARPGROUP.DEPBAR.LE", {}, {}).imm(0);
    w.add("EXIT");
  });
  return std::move(k).build();
}

// Simulates `source` on state.range(0) threads; returns the warp instructions simulated.
std::uint64_t simulate_on_threads(const benchmark::State& state, const gpu::GpuConfig& config,
                                  traces::KernelSource& source) {
  std::uint64_t inst = 0;
  gpu::SimulationOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  gpu::simulate(config, source, options, &inst);
  return inst;
}

void report_rate(benchmark::State& state, std::uint64_t simulated) {
  state.counters["warp_inst_per_s"] =
      benchmark::Counter(static_cast<double>(simulated), benchmark::Counter::kIsRate);
  state.counters["warp_inst"] = static_cast<double>(simulated) / state.iterations();
}

void run(benchmark::State& state, const traces::KernelTrace& kernel) {
  const gpu::GpuConfig config = gpu::gpu_config_from_spec(arch::load_spec("h200").spec);
  std::uint64_t simulated = 0;
  std::optional<traces::InMemoryKernelSource> source;
  for (auto _ : state) {
    state.PauseTiming();
    // CTAs are swapped out of the source, not copied, and the previous iteration's source is
    // freed here (the last one after the loop): the timing covers the simulation alone.
    source.reset();
    source.emplace(std::vector<traces::KernelTrace>{kernel}, "bench", traces::CtaHandOver::kMove);
    state.ResumeTiming();
    simulated += simulate_on_threads(state, config, *source);
  }
  report_rate(state, simulated);
}

void BM_GpuStreamingCopy(benchmark::State& state) {
  static const traces::KernelTrace kernel = generated("copy", {"n=4194304"});
  run(state, kernel);
}

void BM_GpuTensorHgmma(benchmark::State& state) {
  static const traces::KernelTrace kernel = hgmma_kernel(2000);
  run(state, kernel);
}

void BM_GpuWorkloadModel(benchmark::State& state) {
  const gpu::GpuConfig config = gpu::gpu_config_from_spec(arch::load_spec("h200").spec);
  const workloads::Workload& w = workloads::find_workload("sfu");
  const workloads::Params params =
      workloads::Params::parse(w.params(), {"ctas=528", "threads=256", "iters=1024"}, "sfu");
  std::uint64_t simulated = 0;
  for (auto _ : state) {
    auto source = w.make_source(params);
    simulated += simulate_on_threads(state, config, *source);
  }
  report_rate(state, simulated);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// The argument is the number of simulation threads (results are bit-identical for any count).
BENCHMARK(BM_GpuStreamingCopy)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_GpuTensorHgmma)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);
BENCHMARK(BM_GpuWorkloadModel)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Unit(benchmark::kSecond)->UseRealTime()->Iterations(1);

}  // namespace
