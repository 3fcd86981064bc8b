// The cost of a CTA barrier on the GPU at hand: one CTA of T threads runs `iterations` rounds of
// 16 back-to-back __syncthreads() and thread 0 reports the cycles per barrier (clock64 around
// the loop). With nothing between the barriers every warp arrives as soon as it is released, so
// the figure is the barrier's release latency plus one issue.
//
// Output (stdout, TSV): threads cycles_per_barrier
//
// Build: nvcc -O3 -arch=sm_90 -o barrier barrier.cu
#include <cstdio>
#include <cstdlib>

#include "clock_probe.cuh"

__global__ void barrier_loop(int iterations, long long* out) {
  const long long start = clock64();
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) __syncthreads();
  }
  const long long stop = clock64();
  if (threadIdx.x == 0) out[0] = stop - start;
}

int main() {
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long)));
  const int iterations = 4096;
  std::printf("threads\tcycles_per_barrier\n");
  for (int threads : {32, 64, 128, 256, 512, 1024}) {
    const long long cycles =
        clock_cycles([&] { barrier_loop<<<1, threads>>>(iterations, out); }, out);
    std::printf("%d\t%.3f\n", threads,
                static_cast<double>(cycles) / (16.0 * static_cast<double>(iterations)));
  }
  TWIN_CHECK(cudaFree(out));
  return 0;
}
