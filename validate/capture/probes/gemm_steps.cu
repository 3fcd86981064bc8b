// When each warp of the gemm_mma_bf16 twin starts each step of K, in the grid of three CTAs a SM
// (m = 1056, n = 384, k = 2048: 396 CTAs, all resident at once). gemm_spread.cu found this grid
// 34 % faster on the GPU than in the model from an empty L2 (68.7 against 92.4 µs, 82.3 once the
// L1 let any number of loads wait on a line), though every step of K brings lines no SM has read:
// the GPU's cold launch costs only 184 cycles a step more than its warm one. If the SMs that share
// A's rows and B's columns drift apart, only the first to ask for a line waits for DRAM; this
// probe gives every warp's start of every step, so that the spread between the CTAs of one
// column (or one row) can be read step by step.
//
// Lane 0 of every warp stores %globaltimer at the top of each step of K (gemm_mma_tile's
// checkpoint). One warm-up launch, then one launch after 512 MB of other lines were read (cold)
// and one right after it (warm).
//
// Output (stdout, TSV): state cta cta_x cta_y warp sm step ns (ns from the launch's first stamp).
//
// Build (from this directory):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o gemm_steps gemm_steps.cu
//   ./gemm_steps | gzip > gemm_steps.tsv.gz
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"
#include "gemm_probe.cuh"

namespace {

constexpr int kM = 1056, kN = 384, kK = 2048, kSteps = kK / 16;
constexpr int kCtas = (kM / 32) * (kN / 32), kWarps = kCtas * 4;

struct Steps {
  unsigned long long* steps;
  __device__ __forceinline__ void operator()(int k0) const {
    if (threadIdx.x % 32 == 0) {
      const int cta = blockIdx.y * gridDim.x + blockIdx.x;
      const int warp = cta * 4 + threadIdx.x / 32;
      steps[static_cast<size_t>(warp) * kSteps + k0 / 16] = gemm_probe::global_ns();
    }
  }
};

__global__ void __launch_bounds__(128, 12)
    probe_steps(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c,
                unsigned long long* times, unsigned* sm, unsigned long long* steps) {
  const int slot = gemm_probe::stamp_start(times, sm);
  twins::gemm_mma_tile<false>(a, b, c, kN, kK, Steps{steps});
  gemm_probe::stamp_end(times, slot);
}

__global__ void flush_l2(const float4* p, size_t n, float* sink) { twins::read_all(p, n, sink); }

}  // namespace

int main() {
  const size_t flush_bytes = size_t{512} << 20;
  float4* flush = nullptr;
  float* sink = nullptr;
  __nv_bfloat16 *a = nullptr, *b = nullptr;
  float* c = nullptr;
  unsigned long long *times = nullptr, *steps = nullptr;
  unsigned* sm = nullptr;
  if (cudaMalloc(&flush, flush_bytes) != cudaSuccess ||
      cudaMemset(flush, 0, flush_bytes) != cudaSuccess ||
      cudaMalloc(&sink, sizeof(float)) != cudaSuccess ||
      cudaMalloc(&a, size_t{kM} * kK * sizeof(__nv_bfloat16)) != cudaSuccess ||
      cudaMalloc(&b, size_t{kK} * kN * sizeof(__nv_bfloat16)) != cudaSuccess ||
      cudaMalloc(&c, size_t{kM} * kN * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&times, size_t{kWarps} * 2 * sizeof(unsigned long long)) != cudaSuccess ||
      cudaMalloc(&sm, size_t{kWarps} * sizeof(unsigned)) != cudaSuccess ||
      cudaMalloc(&steps, size_t{kWarps} * kSteps * sizeof(unsigned long long)) != cudaSuccess) {
    std::fprintf(stderr, "gemm_steps: cudaMalloc failed\n");
    return 1;
  }
  // Small bf16 values (0x3c00 is 0.0078125): the data does not change the timing.
  cudaMemset(a, 0x3c, size_t{kM} * kK * sizeof(__nv_bfloat16));
  cudaMemset(b, 0x3c, size_t{kK} * kN * sizeof(__nv_bfloat16));
  const dim3 grid(kN / 32, kM / 32);
  std::vector<unsigned long long> t(size_t{kWarps} * 2), st(size_t{kWarps} * kSteps);
  std::vector<unsigned> s(kWarps);
  std::printf("state\tcta\tcta_x\tcta_y\twarp\tsm\tstep\tns\n");
  for (int launch = -1; launch < 2; ++launch) {
    if (launch <= 0) flush_l2<<<132 * 8, 256>>>(flush, flush_bytes / 16, sink);
    probe_steps<<<grid, 128>>>(a, b, c, times, sm, steps);
    if (cudaDeviceSynchronize() != cudaSuccess) {
      std::fprintf(stderr, "gemm_steps: launch failed\n");
      return 1;
    }
    if (launch < 0) continue;  // warm-up
    cudaMemcpy(t.data(), times, t.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    cudaMemcpy(s.data(), sm, s.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(st.data(), steps, st.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    unsigned long long first = t[0];
    for (size_t i = 0; i < t.size(); i += 2) first = t[i] < first ? t[i] : first;
    for (int w = 0; w < kWarps; ++w) {
      const int cta = w / 4;
      for (int step = 0; step < kSteps; ++step) {
        std::printf("%s\t%d\t%d\t%d\t%d\t%u\t%d\t%llu\n", launch == 0 ? "cold" : "warm", cta,
                    cta % grid.x, cta / grid.x, w % 4, s[w] & 0xffff, step,
                    st[static_cast<size_t>(w) * kSteps + step] - first);
      }
    }
  }
  return 0;
}
