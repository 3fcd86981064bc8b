// Achievable HBM bandwidth of a preset, next to the H200's measured on the project's GPU
// (validate/ladder/measured/bandwidth.cu, h200_bandwidth.csv): a streaming read and a streaming
// write of 16-byte accesses, 8 CTAs of 256 threads per SM, each warp over a grid-stride range of
// 512-byte pieces. Bandwidth = the difference of two lengths (bytes over elapsed time), so the
// per-kernel overhead cancels as it does over the measured 1 GiB; the writes span 4x the L2 so
// that the write-back cache cannot hold them. Counters: TBps (simulated), TBps_measured.
// Run: build/release/tests/bench/hbm_bandwidth_bench (WARPSIM_SOURCE_DIR for the CSV; a few
// minutes); --benchmark_filter=Read for the read only.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "arch/loader.h"
#include "sim/gpu/gpu.h"
#include "sim/gpu/gpu_config.h"
#include "traces/builder.h"
#include "traces/in_memory_source.h"

namespace {

using namespace warpsim;  // NOLINT: benchmark file

constexpr std::uint32_t kCtasPerSm = 8;
constexpr std::uint32_t kWarpsPerCta = 8;

// Elapsed SM cycles of a kernel in which every warp moves `per_warp` 512-byte pieces (one
// LDG.E.128 or STG.E.128 each) spaced a grid apart.
double elapsed(const gpu::GpuConfig& config, bool store, int per_warp) {
  const std::uint32_t ctas = static_cast<std::uint32_t>(config.sms) * kCtasPerSm;
  const std::uint64_t warps = std::uint64_t{ctas} * kWarpsPerCta;
  traces::KernelBuilder k("stream", {ctas, 1, 1}, {32 * kWarpsPerCta, 1, 1});
  k.fill_grid([&](traces::WarpBuilder& w, const traces::CtaTrace& cta, std::uint32_t warp) {
    const std::uint64_t first = (std::uint64_t{cta.index.x} * kWarpsPerCta + warp) * 512;
    for (int i = 0; i < per_warp; ++i) {
      const std::uint64_t base = 0x10000000 + first + static_cast<std::uint64_t>(i) * warps * 512;
      const auto lanes = traces::strided_addresses(w.current_mask(), base, 16);
      if (store) {
        w.mem("STG.E.128", {}, {traces::gpr(2), traces::gpr(4)}, lanes);
      } else {
        w.mem("LDG.E.128", {traces::gpr(8 + 4 * static_cast<std::uint32_t>(i % 8))},
              {traces::gpr(2)}, lanes);
      }
    }
    w.add("EXIT");
  });
  traces::InMemoryKernelSource source({std::move(k).build()});
  const auto reports = gpu::simulate(config, source, gpu::SimulationOptions{});
  return stats::to_double(reports.at(0).snapshot.find("gpc__cycles_elapsed.max")->value);
}

double measured(const std::string& kernel) {
  const char* src = std::getenv("WARPSIM_SOURCE_DIR");
  std::ifstream in(std::string(src ? src : ".") + "/validate/ladder/measured/h200_bandwidth.csv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::string name, cell;
    std::getline(fields, name, ',');
    for (int i = 0; i < 4; ++i) std::getline(fields, cell, ',');
    if (name == kernel) return std::stod(cell);
  }
  return 0;  // not found: run from the source tree or set WARPSIM_SOURCE_DIR
}

void run(benchmark::State& state, bool store, int short_run, int long_run) {
  const gpu::GpuConfig config = gpu::gpu_config_from_spec(arch::load_spec("h200").spec);
  double tbps = 0;
  for (auto _ : state) {
    const double cycles = elapsed(config, store, long_run) - elapsed(config, store, short_run);
    const double bytes =
        double(long_run - short_run) * config.sms * kCtasPerSm * kWarpsPerCta * 512;
    tbps = bytes / (cycles / (config.sm_mhz * 1e6)) / 1e12;
  }
  state.counters["TBps"] = tbps;
  state.counters["TBps_measured"] = measured(store ? "write" : "read");
}

// Reads: every line is read once, so the caches cannot serve any (69 MB more in the long run).
void BM_H200StreamingRead(benchmark::State& state) { run(state, false, 8, 24); }
// Writes: 138 MB then 414 MB, well past the 60 MB write-back L2.
void BM_H200StreamingWrite(benchmark::State& state) { run(state, true, 32, 96); }

BENCHMARK(BM_H200StreamingRead)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_H200StreamingWrite)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
