// Achievable HBM bandwidth of a preset, next to the H200's measured on the project's GPU
// (validate/ladder/measured/bandwidth.cu, h200_bandwidth.csv): a streaming read, a streaming
// write and a copy of 16-byte accesses, 8 CTAs of 256 threads per SM, each warp over a
// grid-stride range of 512-byte pieces (the copy, as bandwidth.cu's loop unrolled 8 times, loads
// 8 pieces and then stores them to a second array). Bandwidth = the difference of two lengths (bytes over elapsed time), so the
// per-kernel overhead cancels as it does over the measured 1 GiB; the writes span 4x the L2 so
// that the write-back cache cannot hold them. Counters: TBps (simulated), TBps_measured.
// Run: build/release/tests/bench/hbm_bandwidth_bench (WARPSIM_SOURCE_DIR for the CSV; a few
// minutes); --benchmark_filter=Read for the read only.
#include <benchmark/benchmark.h>

#include <algorithm>
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

enum class Stream { kRead, kWrite, kCopy };

// Elapsed SM cycles of a kernel in which every warp moves `per_warp` 512-byte pieces (one
// LDG.E.128 or STG.E.128 each, both for a copy) spaced a grid apart.
double elapsed(const gpu::GpuConfig& config, Stream stream, int per_warp) {
  const std::uint32_t ctas = static_cast<std::uint32_t>(config.sms) * kCtasPerSm;
  const std::uint64_t warps = std::uint64_t{ctas} * kWarpsPerCta;
  traces::KernelBuilder k("stream", {ctas, 1, 1}, {32 * kWarpsPerCta, 1, 1});
  k.fill_grid([&](traces::WarpBuilder& w, const traces::CtaTrace& cta, std::uint32_t warp) {
    const std::uint64_t first = (std::uint64_t{cta.index.x} * kWarpsPerCta + warp) * 512;
    const std::uint64_t span = std::uint64_t(per_warp) * warps * 512;  // one array
    const auto piece = [&](std::uint64_t array, int i) {
      return traces::strided_addresses(
          w.current_mask(), array + first + static_cast<std::uint64_t>(i) * warps * 512, 16);
    };
    const auto data = [](int i) { return traces::gpr(8 + 4 * static_cast<std::uint32_t>(i % 8)); };
    for (int i = 0; i < per_warp; i += 8) {
      const int group = std::min(8, per_warp - i);
      if (stream != Stream::kWrite) {
        for (int j = i; j < i + group; ++j) {
          w.mem("LDG.E.128", {data(j)}, {traces::gpr(2)}, piece(0x10000000, j));
        }
      }
      if (stream == Stream::kWrite) {
        for (int j = i; j < i + group; ++j) {
          w.mem("STG.E.128", {}, {traces::gpr(2), traces::gpr(4)}, piece(0x10000000, j));
        }
      } else if (stream == Stream::kCopy) {
        for (int j = i; j < i + group; ++j) {
          w.mem("STG.E.128", {}, {traces::gpr(2), data(j)}, piece(0x10000000 + span, j));
        }
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

void run(benchmark::State& state, Stream stream, int short_run, int long_run) {
  const gpu::GpuConfig config = gpu::gpu_config_from_spec(arch::load_spec("h200").spec);
  double tbps = 0;
  for (auto _ : state) {
    const double cycles = elapsed(config, stream, long_run) - elapsed(config, stream, short_run);
    const double bytes = double(long_run - short_run) * config.sms * kCtasPerSm * kWarpsPerCta *
                         512 * (stream == Stream::kCopy ? 2 : 1);
    tbps = bytes / (cycles / (config.sm_mhz * 1e6)) / 1e12;
  }
  state.counters["TBps"] = tbps;
  state.counters["TBps_measured"] =
      measured(stream == Stream::kRead ? "read" : stream == Stream::kWrite ? "write" : "copy");
}

// Reads: every line is read once, so the caches cannot serve any (69 MB more in the long run).
void BM_H200StreamingRead(benchmark::State& state) { run(state, Stream::kRead, 8, 24); }
// Writes: 138 MB then 414 MB, well past the 60 MB write-back L2.
void BM_H200StreamingWrite(benchmark::State& state) { run(state, Stream::kWrite, 32, 96); }
// Copies: as the writes, each piece read first from an array of the same size.
void BM_H200StreamingCopy(benchmark::State& state) { run(state, Stream::kCopy, 32, 96); }

BENCHMARK(BM_H200StreamingRead)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_H200StreamingWrite)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_H200StreamingCopy)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
