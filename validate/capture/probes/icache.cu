// How fast an SM fetches instructions it has not run before, and how much code it keeps. Kernels
// we did not write stall on "no_instruction" where the model charges nothing: PyTorch's
// reduce_kernel<128, 4> (validate/reference/h200/foreign2, launch 6) 11.8 % of its warps' stalls,
// CUB's init kernels about half.
//
// Each kernel is one straight run of N FFMAs in eight independent chains, with constants that
// differ along the run so that the compiler can fold none (each FFMA comes with the move of its
// second constant: 32 bytes of SASS, so N = 1 K to 16 K is 32 to 512 KB of code, as icache_sass.txt
// shows), executed twice in a loop by W warps of one CTA (W = 1, 4, 16). Warp 0 stamps clock64 before and after each pass: the first pass fetches
// the code from memory, the second from whatever the SM kept of it.
//
// Output (stdout, TSV): ffmas warps launch pass cycles cycles_per_ffma.
//
// Build (from this directory):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o icache icache.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

template <int N>
__device__ __forceinline__ void ffmas(float (&r)[8]) {
#pragma unroll
  for (int i = 0; i < N; ++i) r[i % 8] = fmaf(r[i % 8], 1.0001f + 1e-7f * i, 0.5f - 3e-7f * i);
}

template <int N>
__global__ void straight(int passes, float* sink, long long* out) {
  float r[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) r[k] = threadIdx.x + k;
#pragma unroll 1
  for (int pass = 0; pass < passes; ++pass) {  // a run-time count: one copy of the code
    const long long t0 = stamp();
    ffmas<N>(r);
    const long long t1 = stamp();
    if (threadIdx.x == 0) out[pass] = t1 - t0;
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += r[k];
  if (s == 1234.5f) sink[threadIdx.x] = s;  // keeps the chains
}

template <int N>
void run(int warps, float* sink, long long* out) {
  for (int launch = 0; launch < 3; ++launch) {
    straight<N><<<1, 32 * warps>>>(2, sink, out);
    TWIN_CHECK(cudaGetLastError());
    long long host[2];
    TWIN_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    for (int pass = 0; pass < 2; ++pass) {
      std::printf("%d\t%d\t%d\t%d\t%lld\t%.3f\n", N, warps, launch, pass, host[pass],
                  static_cast<double>(host[pass]) / N);
    }
  }
}

}  // namespace

int main() {
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, 1024 * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, 2 * sizeof(long long)));
  std::printf("ffmas\twarps\tlaunch\tpass\tcycles\tcycles_per_ffma\n");
  for (const int warps : {1, 4, 16}) {
    run<1024>(warps, sink, out);
    run<2048>(warps, sink, out);
    run<4096>(warps, sink, out);
    run<8192>(warps, sink, out);
    run<16384>(warps, sink, out);
  }
  return 0;
}
