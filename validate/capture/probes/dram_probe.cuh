// What the HBM read probes (dram_stride.cu, dram_rowmates.cu) share: a buffer of `floats` ones in
// device memory and a sink for the probe kernels, and the loop that launches each probe and waits
// for it. Not profiled: Nsight Compute takes the kernels named probe_* only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "../../../workloads/cuda/twins.cuh"

namespace dram_probe {

__global__ void fill_ones(float* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = 1.0f;
  }
}

/// Fills `floats` ones and a 2048-float sink, then for k = 0 .. count - 1 calls launch(k, in, out),
/// which enqueues launch k, and waits for it; frees both at the end.
template <typename Launch>
void run(size_t floats, int count, Launch launch) {
  float* in = nullptr;
  float* out = nullptr;
  TWIN_CHECK(cudaMalloc(&in, floats * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, 2048 * sizeof(float)));
  fill_ones<<<4096, 256>>>(in, floats);
  TWIN_CHECK(cudaDeviceSynchronize());
  for (int k = 0; k < count; ++k) {
    launch(k, in, out);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
  }
  TWIN_CHECK(cudaFree(in));
  TWIN_CHECK(cudaFree(out));
}

}  // namespace dram_probe
