// Probe of what spreads the lives of the gemm_mma_bf16 twin's CTAs within one SM. On GH100 the
// first wave of the 2048 GEMM's CTAs on one SM (12 resident) lives 183 to 262 us from the
// shortest to the longest (rank-averaged over the SMs, gemm_ctas_slots_h100.tsv.gz), the SMs'
// means alike (1 % of the variance between SMs) and one CTA's life barely repeats across
// launches (r 0.1); the model's spread is a third of that. This probe times the twin's body
// (workloads/cuda/gemm_mma_tile.cuh, k = 2048) in grids of exactly one wave, so that every CTA
// starts at once and none follows another on its SM:
//   full2048    m = n = 2048 (4096 CTAs, the reference point), for comparison;
//   wave12      m = 1056, n = 1536: 1584 CTAs, 12 a SM, each its own tile;
//   wave12_same the same grid, every CTA reading A's first 32 rows and B's first 32 columns
//               (its own C tile): the same lines for all, so where its lines sit cannot matter;
//   wave6       m = 1056, n = 768: 792 CTAs, 6 a SM;
//   wave3       m = 1056, n = 384: 396 CTAs, 3 a SM;
//   wave3_mixed m = 704, n = 576: 396 CTAs of 18 columns, so that CTAs 132 apart (an SM's, if
//               the distributor repeats its order) read different columns of B;
//   wave6_mixed m = 704, n = 1152: 792 CTAs of 36 columns, likewise;
//   wave12_progress as wave12, with lane 0 also storing %globaltimer after every 512 of k (the
//               twin's body with a checkpoint; p512, p1024, p1536): whether a CTA's pace is set
//               from its start (a priority) or drifts (a random walk).
// Each warp's lane 0 stores %globaltimer and %smid as the warp starts and %globaltimer after its
// stores, as gemm_ctas.cu does. One warm-up and three timed launches a configuration, no
// profiler; with the argument `cold`, 512 MB of other lines are read before every launch, so that
// each starts with none of its lines in the L2 (as Nsight Compute's --cache-control all and the
// model's cold start have it) rather than all of them. Prints one row per warp: config, launch,
// cta, warp, sm, start_ns, end_ns (from the launch's first start), warp_slot (%warpid), p512,
// p1024, p1536 (0 but in wave12_progress).
//   nvcc -O3 -std=c++17 -arch=sm_90 -o gemm_spread gemm_spread.cu
//   ./gemm_spread [cold] | gzip > gemm_spread.tsv.gz
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"
#include "gemm_probe.cuh"

namespace {

constexpr int kK = 2048;

// `same`: shift A and B back by this CTA's tile so that every CTA reads tile (0, 0)'s lines.
__global__ void __launch_bounds__(128, 12)
    probe_timed(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n, int k, int same,
                unsigned long long* times, unsigned* sm) {
  const int slot = gemm_probe::stamp_start(times, sm);
  if (same != 0) {
    a -= static_cast<size_t>(blockIdx.y) * 32 * k;
    b -= static_cast<size_t>(blockIdx.x) * 32;
  }
  twins::gemm_mma_tile<false>(a, b, c, n, k);
  gemm_probe::stamp_end(times, slot);
}

// Lane 0's time after every 512 of k, into progress[3 * slot + i].
struct Progress {
  unsigned long long* progress;
  int slot;
  __device__ __forceinline__ void operator()(int k0) const {
    if (k0 != 0 && k0 % 512 == 0 && threadIdx.x % 32 == 0) {
      progress[3 * slot + k0 / 512 - 1] = gemm_probe::global_ns();
    }
  }
};

// The twin's body with a checkpoint after every 512 of k.
__global__ void __launch_bounds__(128, 12)
    probe_progress(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n, int k,
                   unsigned long long* times, unsigned* sm, unsigned long long* progress) {
  const int slot = gemm_probe::stamp_start(times, sm);
  twins::gemm_mma_tile<false>(a, b, c, n, k, Progress{progress, slot});
  gemm_probe::stamp_end(times, slot);
}

__global__ void flush_l2(const float4* p, size_t n, float* sink) { twins::read_all(p, n, sink); }

struct Config {
  const char* name;
  int m, n, same;
  bool progress;
};

}  // namespace

int main(int argc, char** argv) {
  const bool cold = argc > 1 && std::string(argv[1]) == "cold";
  const size_t flush_bytes = size_t{512} << 20;
  float4* flush = nullptr;
  float* sink = nullptr;
  if (cold && (cudaMalloc(&flush, flush_bytes) != cudaSuccess ||
               cudaMemset(flush, 0, flush_bytes) != cudaSuccess ||
               cudaMalloc(&sink, sizeof(float)) != cudaSuccess)) {
    std::fprintf(stderr, "gemm_spread: cudaMalloc failed\n");
    return 1;
  }
  const Config configs[] = {{"full2048", 2048, 2048, 0, false},
                            {"wave12", 1056, 1536, 0, false},
                            {"wave12_same", 1056, 1536, 1, false},
                            {"wave6", 1056, 768, 0, false},
                            {"wave3", 1056, 384, 0, false},
                            {"wave3_mixed", 704, 576, 0, false},
                            {"wave6_mixed", 704, 1152, 0, false},
                            {"wave12_progress", 1056, 1536, 0, true}};
  const size_t max_mn = 2048;
  __nv_bfloat16 *a = nullptr, *b = nullptr;
  float* c = nullptr;
  unsigned long long* times = nullptr;
  unsigned* sm = nullptr;
  unsigned long long* progress = nullptr;
  const int max_warps = (2048 / 32) * (2048 / 32) * 4;
  if (cudaMalloc(&a, max_mn * kK * sizeof(__nv_bfloat16)) != cudaSuccess ||
      cudaMalloc(&b, max_mn * kK * sizeof(__nv_bfloat16)) != cudaSuccess ||
      cudaMalloc(&c, max_mn * max_mn * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&times, max_warps * 2 * sizeof(unsigned long long)) != cudaSuccess ||
      cudaMalloc(&sm, max_warps * sizeof(unsigned)) != cudaSuccess ||
      cudaMalloc(&progress, max_warps * 3 * sizeof(unsigned long long)) != cudaSuccess) {
    std::fprintf(stderr, "gemm_spread: cudaMalloc failed\n");
    return 1;
  }
  // Small bf16 values (0x3c00 is 0.0078125): the data does not change the timing.
  cudaMemset(a, 0x3c, max_mn * kK * sizeof(__nv_bfloat16));
  cudaMemset(b, 0x3c, max_mn * kK * sizeof(__nv_bfloat16));
  cudaMemset(progress, 0, max_warps * 3 * sizeof(unsigned long long));
  std::printf("config\tlaunch\tcta\twarp\tsm\tstart_ns\tend_ns\twarp_slot\tp512\tp1024\tp1536\n");
  for (const Config& cfg : configs) {
    const dim3 grid(cfg.n / 32, cfg.m / 32);
    const int warps = static_cast<int>(grid.x * grid.y) * 4;
    std::vector<unsigned long long> t(static_cast<size_t>(warps) * 2);
    std::vector<unsigned> s(static_cast<size_t>(warps));
    std::vector<unsigned long long> p(static_cast<size_t>(warps) * 3, 0);
    for (int launch = -1; launch < 3; ++launch) {
      if (cold) flush_l2<<<132 * 8, 256>>>(flush, flush_bytes / 16, sink);
      if (cfg.progress) {
        probe_progress<<<grid, 128>>>(a, b, c, cfg.n, kK, times, sm, progress);
      } else {
        probe_timed<<<grid, 128>>>(a, b, c, cfg.n, kK, cfg.same, times, sm);
      }
      if (cudaDeviceSynchronize() != cudaSuccess) {
        std::fprintf(stderr, "gemm_spread: %s launch failed\n", cfg.name);
        return 1;
      }
      if (launch < 0) continue;  // warm-up
      cudaMemcpy(t.data(), times, t.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
      cudaMemcpy(s.data(), sm, s.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
      if (cfg.progress) {
        cudaMemcpy(p.data(), progress, p.size() * sizeof(unsigned long long),
                   cudaMemcpyDeviceToHost);
      }
      unsigned long long first = t[0];
      for (size_t i = 0; i < t.size(); i += 2) first = t[i] < first ? t[i] : first;
      for (int w = 0; w < warps; ++w) {
        const auto since = [&](unsigned long long x) { return x == 0 ? 0ull : x - first; };
        std::printf("%s\t%d\t%d\t%d\t%u\t%llu\t%llu\t%u\t%llu\t%llu\t%llu\n", cfg.name, launch,
                    w / 4, w % 4, s[w] & 0xffff, t[2 * w] - first, t[2 * w + 1] - first, s[w] >> 16,
                    since(p[3 * w]), since(p[3 * w + 1]), since(p[3 * w + 2]));
      }
    }
  }
  return 0;
}
