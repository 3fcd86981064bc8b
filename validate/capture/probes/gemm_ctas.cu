// Probe of where and when the H200 runs the CTAs of the gemm_mma_bf16 twin (m = n = k = 2048,
// 4096 CTAs of 128 threads, 12 resident per SM): Nsight Compute gives its SMs 172,032 to 208,896
// load requests (28 to 34 CTAs) and 0.95 to 1.16 M active cycles, where an even share is 31. Each
// warp's lane 0 stores %globaltimer (ns, one clock for the GPU) and %smid as the warp starts,
// before the twin's body (workloads/cuda/gemm_mma_tile.cuh), and %globaltimer again after its
// stores, straight to memory so that no register stays live across the body (the twin uses 40).
// Three launches after a warm-up, no profiler; the plain twin kernel is timed with events beside
// it. Prints one row per warp: launch, cta, warp, sm, start_ns, end_ns (from the launch's first
// start), warp_slot (%warpid: the warp's slot on its SM), then a comment line per launch with the
// event times.
//   nvcc -O3 -arch=sm_90 -o gemm_ctas gemm_ctas.cu && ./gemm_ctas | gzip > gemm_ctas.tsv.gz
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "gemm_probe.cuh"

namespace {

constexpr int kN = 2048;
constexpr int kCtas = (kN / 32) * (kN / 32);

__global__ void __launch_bounds__(128, 12)
    probe_timed(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n, int k,
                unsigned long long* times, unsigned* sm) {
  const int slot = gemm_probe::stamp_start(times, sm);
  twins::gemm_mma_tile<false>(a, b, c, n, k);
  gemm_probe::stamp_end(times, slot);
}

__global__ void probe_plain(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, int n,
                            int k) {
  twins::gemm_mma_tile<false>(a, b, c, n, k);
}

}  // namespace

int main() {
  const size_t elems = static_cast<size_t>(kN) * kN;
  __nv_bfloat16 *a = nullptr, *b = nullptr;
  float* c = nullptr;
  unsigned long long* times = nullptr;
  unsigned* sm = nullptr;
  if (cudaMalloc(&a, elems * sizeof(__nv_bfloat16)) != cudaSuccess ||
      cudaMalloc(&b, elems * sizeof(__nv_bfloat16)) != cudaSuccess ||
      cudaMalloc(&c, elems * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&times, kCtas * 4 * 2 * sizeof(unsigned long long)) != cudaSuccess ||
      cudaMalloc(&sm, kCtas * 4 * sizeof(unsigned)) != cudaSuccess) {
    std::fprintf(stderr, "gemm_ctas: cudaMalloc failed\n");
    return 1;
  }
  // Small bf16 values (0x3c00 is 0.0078125): the data does not change the timing.
  cudaMemset(a, 0x3c, elems * sizeof(__nv_bfloat16));
  cudaMemset(b, 0x3c, elems * sizeof(__nv_bfloat16));
  const dim3 grid(kN / 32, kN / 32);
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  probe_timed<<<grid, 128>>>(a, b, c, kN, kN, times, sm);  // warm-up
  probe_plain<<<grid, 128>>>(a, b, c, kN, kN);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "gemm_ctas: warm-up failed\n");
    return 1;
  }
  std::printf("launch\tcta\twarp\tsm\tstart_ns\tend_ns\twarp_slot\n");
  std::vector<unsigned long long> t(kCtas * 4 * 2);
  std::vector<unsigned> s(kCtas * 4);
  for (int launch = 0; launch < 3; ++launch) {
    float plain_ms = 0, timed_ms = 0;
    cudaEventRecord(begin);
    probe_plain<<<grid, 128>>>(a, b, c, kN, kN);
    cudaEventRecord(end);
    cudaEventSynchronize(end);
    cudaEventElapsedTime(&plain_ms, begin, end);
    cudaEventRecord(begin);
    probe_timed<<<grid, 128>>>(a, b, c, kN, kN, times, sm);
    cudaEventRecord(end);
    cudaEventSynchronize(end);
    cudaEventElapsedTime(&timed_ms, begin, end);
    if (cudaGetLastError() != cudaSuccess) {
      std::fprintf(stderr, "gemm_ctas: launch failed\n");
      return 1;
    }
    cudaMemcpy(t.data(), times, t.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    cudaMemcpy(s.data(), sm, s.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    unsigned long long first = t[0];
    for (size_t i = 0; i < t.size(); i += 2) first = t[i] < first ? t[i] : first;
    for (int w = 0; w < kCtas * 4; ++w) {
      std::printf("%d\t%d\t%d\t%u\t%llu\t%llu\t%u\n", launch, w / 4, w % 4, s[w] & 0xffff,
                  t[2 * w] - first, t[2 * w + 1] - first, s[w] >> 16);
    }
    std::printf("# launch %d: plain kernel %.1f us, timed kernel %.1f us (events)\n", launch,
                plain_ms * 1000.0f, timed_ms * 1000.0f);
  }
  return 0;
}
