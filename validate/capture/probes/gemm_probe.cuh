// What the probes around the gemm_mma_bf16 twin (gemm_stores.cu, gemm_knee.cu, gemm_ctas.cu,
// gemm_spread.cu) share: the twin's body (workloads/cuda/gemm_mma_tile.cuh), a fill of bf16 inputs
// with small, exact values, and the stamps of where and when each warp runs.
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

/// %globaltimer: ns, one clock for the whole GPU.
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// The warp's slot in the launch (CTA index x 4 + warp; CTAs of 128 threads). Its lane 0 stores
/// the warp's SM and %warpid (sm[slot] = smid | warpid << 16) and its start (times[2 slot]).
__device__ __forceinline__ int stamp_start(unsigned long long* times, unsigned* sm) {
  const int cta = blockIdx.y * gridDim.x + blockIdx.x;
  const int slot = cta * 4 + threadIdx.x / 32;
  if (threadIdx.x % 32 == 0) {
    unsigned s, w;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    sm[slot] = s | w << 16;
    times[2 * slot] = global_ns();
  }
  return slot;
}

/// Lane 0 stores the warp's end (times[2 slot + 1]).
__device__ __forceinline__ void stamp_end(unsigned long long* times, int slot) {
  if (threadIdx.x % 32 == 0) times[2 * slot + 1] = global_ns();
}

}  // namespace gemm_probe
