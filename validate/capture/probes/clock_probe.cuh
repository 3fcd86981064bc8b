// Shared by the probes that time a loop from inside a kernel with clock64 (barrier.cu, branch.cu,
// branch_align.cu, data_array.cu, lds_rate.cu, mufu_rate.cu, mio_order.cu, lrc_pair.cu,
// lrc_crowd.cu, sm_partition.cu, flash_steps.cu, lsu_slots.cu, lsu_miss_slots.cu, l1_merge.cu):
// the launch-and-read-back loop, the dependent FFMA chain the branch probes run, a clock64 stamp,
// 32-bit global loads cached in the L1 or in the L2 only and a 32-bit shared load that the
// compiler keeps in place, the %globaltimer and %smid registers and one MUFU.EX2.
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

// clock64, kept in order with the memory operations around it.
__device__ __forceinline__ long long stamp() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// One 32-bit global load cached in L1 (LDG.E with ld.global.ca) that the compiler keeps in place.
__device__ __forceinline__ float load_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// One 32-bit global load cached in the L2 only (ld.global.cg), kept in order with the memory
// operations around it.
__device__ __forceinline__ float load_cg(const float* p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
  return v;
}

// One 32-bit shared load (LDS) that the compiler neither moves nor merges with another.
__device__ __forceinline__ int load_shared(const int* p) {
  int v;
  asm volatile("ld.shared.s32 %0, [%1];"
               : "=r"(v)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p)))
               : "memory");
  return v;
}

// %globaltimer, ns (comparable between SMs).
__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// The SM the calling warp runs on (%smid).
__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// One MUFU.EX2 (ex2.approx.ftz.f32).
__device__ __forceinline__ float ex2(float x) {
  float y;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
