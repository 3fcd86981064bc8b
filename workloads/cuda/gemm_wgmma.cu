// Hopper tensor twin: a bf16 GEMM C[M x N] (fp32) = A[M x K] * B[N x K]^T on warpgroup-level
// wgmma (HGMMA in SASS), both operands K-major ("TN", as a linear layer stores its weights).
// Each CTA is one warpgroup (128 threads) computing a 64 x 128 tile of C. Per 64-wide K stage
// the threads copy the A (64 x 64) and B (128 x 64) tiles from global memory into shared memory,
// in wgmma's no-swizzle canonical layout (8 x 16-byte core matrices: core matrices adjacent in K
// 128 bytes apart, adjacent in M/N 1024 bytes apart), then issue four m64n128k16 wgmmas from
// shared-memory descriptors, commit the group and wait for it. Single-buffered: no TMA, no
// mbarriers, so the copy and the math of a stage do not overlap (only across CTAs of an SM).
// Needs sm_90a (arch-specific features); elsewhere the point is not listed.
#include <cuda_bf16.h>

#include <cstdint>

#include "twins.cuh"

// Runs at the start of each K stage (phase 0) and once its tiles are in shared memory (phase 1);
// empty in the twin. A probe that includes this file may define it first to time the stages
// (validate/capture/probes/gemm_stages.cu).
#ifndef GEMM_STAGE_HOOK
#define GEMM_STAGE_HOOK(k0, phase)
#endif

namespace {

constexpr int kBm = 64, kBn = 128, kBk = 64;
constexpr uint32_t kLbo = 128;   // bytes between core matrices adjacent in K
constexpr uint32_t kSbo = 1024;  // bytes between core matrices adjacent in M / N (8 K-chunks)

// Byte offset of 16-byte chunk `kc` (8 bf16 along K) of row `row` in a K-major tile.
__device__ __forceinline__ uint32_t tile_offset(int row, int kc) {
  return (row / 8) * kSbo + kc * kLbo + (row % 8) * 16;
}

__device__ __forceinline__ uint64_t descriptor(uint32_t smem_address) {
  return static_cast<uint64_t>((smem_address & 0x3FFFF) >> 4) |
         static_cast<uint64_t>(kLbo >> 4) << 16 | static_cast<uint64_t>(kSbo >> 4) << 32;
}

#define WG_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), \
                 "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])

__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t desc_a,
                                                 uint64_t desc_b) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1, 0, 0;\n}\n"
      : WG_D8(0), WG_D8(8), WG_D8(16), WG_D8(24), WG_D8(32), WG_D8(40), WG_D8(48), WG_D8(56)
      : "l"(desc_a), "l"(desc_b), "r"(1));
#else
  __trap();
#endif
}

__global__ void __launch_bounds__(128) w_gemm_wgmma_bf16(const __nv_bfloat16* __restrict__ a,
                                                         const __nv_bfloat16* __restrict__ b,
                                                         float* __restrict__ c, int m, int n,
                                                         int k) {
  __shared__ __align__(1024) uint8_t smem_a[kBm * kBk * 2];
  __shared__ __align__(1024) uint8_t smem_b[kBn * kBk * 2];
  const int t = threadIdx.x;
  const int m0 = blockIdx.y * kBm, n0 = blockIdx.x * kBn;
  const uint32_t base_a = static_cast<uint32_t>(__cvta_generic_to_shared(smem_a));
  const uint32_t base_b = static_cast<uint32_t>(__cvta_generic_to_shared(smem_b));
  float d[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) d[i] = 0.0f;

  for (int k0 = 0; k0 < k; k0 += kBk) {
    GEMM_STAGE_HOOK(k0, 0);
#pragma unroll
    for (int j = 0; j < kBm * kBk / 8 / 128; ++j) {
      const int i = t + 128 * j, row = i / 8, kc = i % 8;
      *reinterpret_cast<uint4*>(smem_a + tile_offset(row, kc)) =
          *reinterpret_cast<const uint4*>(a + static_cast<size_t>(m0 + row) * k + k0 + kc * 8);
    }
#pragma unroll
    for (int j = 0; j < kBn * kBk / 8 / 128; ++j) {
      const int i = t + 128 * j, row = i / 8, kc = i % 8;
      *reinterpret_cast<uint4*>(smem_b + tile_offset(row, kc)) =
          *reinterpret_cast<const uint4*>(b + static_cast<size_t>(n0 + row) * k + k0 + kc * 8);
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    GEMM_STAGE_HOOK(k0, 1);
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
#pragma unroll
    for (int s = 0; s < kBk / 16; ++s) {  // k16 steps: two core matrices (256 bytes) each
      wgmma_m64n128k16(d, descriptor(base_a + s * 2 * kLbo), descriptor(base_b + s * 2 * kLbo));
    }
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
    __syncthreads();
  }
  // Accumulator fragment: warp w holds rows 16w..16w+15; lane (g = lane/4, q = lane%4) holds,
  // for each 8-column block j, (row g, cols 2q, 2q+1) and (row g + 8, the same cols).
  const int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  const int row = m0 + 16 * w + g;
#pragma unroll
  for (int j = 0; j < kBn / 8; ++j) {
    const int col = n0 + 8 * j + 2 * q;
    *reinterpret_cast<float2*>(c + static_cast<size_t>(row) * n + col) =
        make_float2(d[4 * j], d[4 * j + 1]);
    *reinterpret_cast<float2*>(c + static_cast<size_t>(row + 8) * n + col) =
        make_float2(d[4 * j + 2], d[4 * j + 3]);
  }
}

twins::Point gemm_wgmma_point(int size) {
  twins::Point p{
      "gemm_wgmma_bf16/m=n=k=" + std::to_string(size), "gemm_wgmma_bf16", "tensor", "test",
      twins::kv("m", size) + ";" + twins::kv("n", size) + ";" + twins::kv("k", size), [=] {
        const size_t elems = static_cast<size_t>(size) * size;
        __nv_bfloat16* a = twins::random_bf16(elems, 11);
        __nv_bfloat16* b = twins::random_bf16(elems, 12);
        float* c = static_cast<float*>(twins::poisoned(elems * sizeof(float)));
        twins::settle();
        w_gemm_wgmma_bf16<<<dim3(size / kBn, size / kBm), 128>>>(a, b, c, size, size, size);
        twins::finish_launch("w_gemm_wgmma_bf16");
        twins::check_gemm_bf16("w_gemm_wgmma_bf16", a, b, c, size, true,
                               {{0, 0}, {5, 7}, {37, 101}, {size - 3, size - 9},
                                {size - 1, size / 2 + 3}});
        cudaFree(a);
        cudaFree(b);
        cudaFree(c);
      }};
  p.supported = [] { return twins::compute_capability() == 90; };
  return p;
}

const twins::Register kPoints({gemm_wgmma_point(1024), gemm_wgmma_point(2048),
                               gemm_wgmma_point(4096)});

}  // namespace
