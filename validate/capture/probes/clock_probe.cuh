// Shared by the probes that time a loop from inside a kernel with clock64 (barrier.cu, branch.cu,
// branch_align.cu): the launch-and-read-back loop, and the dependent FFMA chain the branch
// probes run.
#pragma once

#include <cuda_runtime.h>

#include "../../../workloads/cuda/twins.cuh"  // TWIN_CHECK

// Runs `launch` three times (the first two are warm-up) and returns the cycles the kernel wrote to
// `out` on the last run.
template <typename Launch>
long long clock_cycles(Launch launch, long long* out) {
  long long cycles = 0;
  for (int repeat = 0; repeat < 3; ++repeat) {
    launch();
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaMemcpy(&cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
  }
  return cycles;
}

// A chain of `Length` dependent FFMAs on `x`, with constants the compiler cannot fold.
template <int Length>
__device__ __forceinline__ float ffma_chain(float x) {
#pragma unroll
  for (int k = 0; k < Length; ++k) x = fmaf(x, 1.0001f + 0.01f * k, 0.5f - 0.03f * k);
  return x;
}
