// Trace-file size and read speed: a mix of generated workloads (streaming, transpose, GEMM,
// softmax, divergence) written once as an uncompressed Accel-Sim trace and as .wstrace, then read
// back CTA by CTA through each format's KernelSource. Counters: file bytes, the size ratio
// (.traceg bytes / .wstrace bytes) and warp instructions per second; the read-speed ratio is the
// ratio of the two benchmarks' times. The acceptance targets are .wstrace ≥5× smaller and ≥3×
// faster to read than the uncompressed .traceg.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "traces/accelsim/accelsim_source.h"
#include "traces/in_memory_source.h"
#include "traces/trace_files.h"
#include "traces/wstrace/wstrace_reader.h"
#include "workloads/workload.h"

namespace warpsim::traces {
namespace {

struct Files {
  std::string dir;
  uint64_t traceg_bytes = 0;
  uint64_t wstrace_bytes = 0;
  uint64_t instructions = 0;
};

/// Concatenates the kernels of a few workloads (as one generated trace) and writes both files.
const Files& files() {
  static const Files f = [] {
    Files out;
    out.dir = (std::filesystem::temp_directory_path() / "warpsim_trace_bench").string();
    std::filesystem::remove_all(out.dir);
    std::filesystem::create_directories(out.dir);
    const std::vector<std::pair<std::string, std::vector<std::string>>> mix = {
        {"saxpy", {"n=1048576"}},           {"transpose_naive", {"n=1024"}},
        {"gemm_mma_bf16", {"m=512", "n=512", "k=512"}}, {"softmax", {"rows=512", "cols=1024"}},
        {"divergent_4way", {"ctas=64", "iters=64"}},
    };
    std::vector<KernelTrace> kernels;
    for (const auto& [name, args] : mix) {
      const workloads::Workload& w = workloads::find_workload(name);
      auto source = w.make_source(workloads::Params::parse(w.params(), args, name));
      KernelInfo info;
      while (source->next_kernel(info)) {
        KernelTrace k{info, {}};
        CtaTrace cta;
        while (source->next_cta(cta)) {
          out.instructions += cta.instruction_count();
          k.ctas.push_back(cta);
        }
        kernels.push_back(std::move(k));
      }
    }
    InMemoryKernelSource a(kernels);
    out.traceg_bytes = write_trace(a, out.dir + "/accelsim", TraceFormat::kAccelSim).bytes;
    InMemoryKernelSource b(std::move(kernels));
    out.wstrace_bytes = write_trace(b, out.dir + "/trace.wstrace", TraceFormat::kWstrace).bytes;
    return out;
  }();
  return f;
}

uint64_t read_everything(KernelSource& source) {
  KernelInfo info;
  CtaTrace cta;
  uint64_t instructions = 0;
  while (source.next_kernel(info)) {
    while (source.next_cta(cta)) instructions += cta.instruction_count();
  }
  return instructions;
}

void report(benchmark::State& state, uint64_t bytes) {
  const Files& f = files();
  state.counters["file_bytes"] = static_cast<double>(bytes);
  state.counters["size_ratio_traceg_over_wstrace"] =
      static_cast<double>(f.traceg_bytes) / static_cast<double>(f.wstrace_bytes);
  state.counters["warp_inst_per_s"] = benchmark::Counter(
      static_cast<double>(f.instructions), benchmark::Counter::kIsIterationInvariantRate);
  state.SetBytesProcessed(static_cast<int64_t>(bytes * state.iterations()));
}

void BM_ReadTraceg(benchmark::State& state) {
  const Files& f = files();
  for (auto _ : state) {
    accelsim::AccelSimSource source(f.dir + "/accelsim/kernelslist.g");
    benchmark::DoNotOptimize(read_everything(source));
  }
  report(state, f.traceg_bytes);
}
BENCHMARK(BM_ReadTraceg)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_ReadWstrace(benchmark::State& state) {
  const Files& f = files();
  for (auto _ : state) {
    wstrace::WstraceSource source(f.dir + "/trace.wstrace");
    benchmark::DoNotOptimize(read_everything(source));
  }
  report(state, f.wstrace_bytes);
}
BENCHMARK(BM_ReadWstrace)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace warpsim::traces
