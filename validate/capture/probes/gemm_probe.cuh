// What the probes around the gemm_mma_bf16 twin (gemm_stores.cu, gemm_knee.cu) share: the twin's
// body (workloads/cuda/gemm_mma_tile.cuh) and a fill of bf16 inputs with small, exact values.
#pragma once

#include <cuda_bf16.h>

#include <cstddef>

#include "../../../workloads/cuda/gemm_mma_tile.cuh"

namespace gemm_probe {

/// Writes p[0, n) with values in [-0.5, 0.5] that bf16 holds exactly (grid-stride).
__global__ void fill_bf16(__nv_bfloat16* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = __float2bfloat16(static_cast<float>((i * 2654435761u) % 17) / 16.0f - 0.5f);
  }
}

}  // namespace gemm_probe
