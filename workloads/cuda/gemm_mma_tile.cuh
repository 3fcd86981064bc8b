// The body of the gemm_mma_bf16 twin (gemm.cu), shared with the probe that varies its C stores
// (validate/capture/probes/gemm_stores.cu): one CTA of 4 warps computes a 32 x 32 tile of
// C[M x N] (fp32) = A[M x K] * B[K x N] (bf16, both row-major), each warp a 16 x 16 tile as two
// m16n8k16 mma.sync halves with fragments loaded straight from global memory, K in steps of 16.
// With kVecStores each thread stores its two neighbouring floats as one 8-byte store; otherwise
// as two 4-byte stores (the twin). `checkpoint(k0)` runs at the top of every step of K (the twin
// passes none, which leaves its code as it was; validate/capture/probes/gemm_spread.cu stamps
// the time there).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

namespace twins {

/// gemm_mma_tile's checkpoint when there is none.
struct NoCheckpoint {
  __device__ __forceinline__ void operator()(int) const {}
};

template <bool kVecStores, class Checkpoint = NoCheckpoint>
__device__ __forceinline__ void gemm_mma_tile(const __nv_bfloat16* __restrict__ a,
                                              const __nv_bfloat16* __restrict__ b,
                                              float* __restrict__ c, int n, int k,
                                              Checkpoint checkpoint = {}) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 32 + (warp / 2) * 16;
  const int col0 = blockIdx.x * 32 + (warp % 2) * 16;
  const int g = lane >> 2, t = lane & 3;
  float acc[2][4] = {};
  for (int k0 = 0; k0 < k; k0 += 16) {
    checkpoint(k0);
    const __nv_bfloat16* a_base = a + static_cast<size_t>(row0 + g) * k + k0 + t * 2;
    uint32_t fa[4];
    fa[0] = *reinterpret_cast<const uint32_t*>(a_base);
    fa[1] = *reinterpret_cast<const uint32_t*>(a_base + 8 * static_cast<size_t>(k));
    fa[2] = *reinterpret_cast<const uint32_t*>(a_base + 8);
    fa[3] = *reinterpret_cast<const uint32_t*>(a_base + 8 * static_cast<size_t>(k) + 8);
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      const int col = col0 + j * 8 + g;
      uint32_t fb[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int kk = k0 + t * 2 + h * 8;
        const uint32_t lo = __bfloat16_as_ushort(b[static_cast<size_t>(kk) * n + col]);
        const uint32_t hi = __bfloat16_as_ushort(b[static_cast<size_t>(kk + 1) * n + col]);
        fb[h] = lo | (hi << 16);
      }
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
          "{%8,%9}, {%0,%1,%2,%3};"
          : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
          : "r"(fa[0]), "r"(fa[1]), "r"(fa[2]), "r"(fa[3]), "r"(fb[0]), "r"(fb[1]));
    }
  }
#pragma unroll
  for (int j = 0; j < 2; ++j) {
    const int col = col0 + j * 8 + t * 2;
    float* c0 = c + static_cast<size_t>(row0 + g) * n + col;
    float* c1 = c + static_cast<size_t>(row0 + g + 8) * n + col;
    if constexpr (kVecStores) {
      *reinterpret_cast<float2*>(c0) = make_float2(acc[j][0], acc[j][1]);
      *reinterpret_cast<float2*>(c1) = make_float2(acc[j][2], acc[j][3]);
    } else {
      c0[0] = acc[j][0];
      c0[1] = acc[j][1];
      c1[0] = acc[j][2];
      c1[1] = acc[j][3];
    }
  }
}

}  // namespace twins
