// Tensor twin: a bf16 GEMM C[M x N] (fp32) = A[M x K] * B[K x N] on warp-level mma.sync
// (m16n8k16, HMMA in SASS). Each CTA of 4 warps computes a 32 x 32 tile; each warp a 16 x 16
// tile as two m16n8 halves, loading its fragments straight from global memory (A row-major, B
// row-major and gathered into the "col" fragment), K in steps of 16.
#include <cuda_bf16.h>

#include <cstdint>

#include "gemm_mma_tile.cuh"
#include "twins.cuh"

namespace {

__global__ void w_gemm_mma_bf16(const __nv_bfloat16* __restrict__ a,
                                const __nv_bfloat16* __restrict__ b, float* __restrict__ c,
                                int /*m*/, int n, int k) {
  twins::gemm_mma_tile<false>(a, b, c, n, k);
}

twins::Point gemm_point(int size) {
  return {"gemm_mma_bf16/m=n=k=" + std::to_string(size), "gemm_mma_bf16", "tensor", "test",
          twins::kv("m", size) + ";" + twins::kv("n", size) + ";" + twins::kv("k", size), [=] {
            const size_t elems = static_cast<size_t>(size) * size;
            __nv_bfloat16* a = twins::random_bf16(elems, 9);
            __nv_bfloat16* b = twins::random_bf16(elems, 10);
            float* c = static_cast<float*>(twins::poisoned(elems * sizeof(float)));
            twins::settle();
            w_gemm_mma_bf16<<<dim3(size / 32, size / 32), 128>>>(a, b, c, size, size, size);
            twins::finish_launch("w_gemm_mma_bf16");
            twins::check_gemm_bf16("w_gemm_mma_bf16", a, b, c, size, false,
                                   {{5, 7}, {size - 3, size - 9}});
            cudaFree(a);
            cudaFree(b);
            cudaFree(c);
          }};
}

const twins::Register kPoints({gemm_point(1024), gemm_point(2048)});

}  // namespace
