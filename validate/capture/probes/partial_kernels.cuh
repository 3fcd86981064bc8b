// The partial-write probes' store kernels, shared by partial_writes.cu, partial_scatter.cu and
// partial_full.cu (kernel names start "probe_", which their scripts profile).
//   probe_partial: every 32-byte sector of a region gets one store of `floats` floats at its
//                  start (1: 4 bytes, 4: 16 bytes, 8: the whole sector), from one thread (a warp
//                  covers 32 sectors, 1 KB).
//   probe_scatter: every warp instruction stores 4 bytes into one sector of each of 32 different
//                  lines; words 1: one store per sector, words 8: all 8 words of every sector,
//                  from 8 instructions (it completes).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace partial_kernels {

// The grid-stride stores of probe_partial, for the probes that add to them (partial_tail.cu).
__device__ __forceinline__ void store_partial(float* p, size_t sectors, int floats) {
  for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s < sectors;
       s += (size_t)gridDim.x * blockDim.x) {
    float* at = p + s * 8;
    if (floats == 8) {
      reinterpret_cast<float4*>(at)[0] = make_float4(1.0f, 2.0f, 3.0f, (float)s);
      reinterpret_cast<float4*>(at)[1] = make_float4(5.0f, 6.0f, 7.0f, (float)s);
    } else if (floats == 4) {
      reinterpret_cast<float4*>(at)[0] = make_float4(1.0f, 2.0f, 3.0f, (float)s);
    } else {
      at[0] = (float)s;
    }
  }
}

__global__ void probe_partial(float* p, size_t sectors, int floats) {
  store_partial(p, sectors, floats);
}

// Store slot i: warp w = i / 32 and lane l = i % 32 write line (group * 32 + l), where a group of
// 32 lines takes 4 warps (words 1: warp k of the group writes word 0 of sector k) or 32 warps
// (words 8: warp r writes word r % 8 of sector r / 8).
__global__ void probe_scatter(float* p, size_t slots, int words) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < slots;
       i += (size_t)gridDim.x * blockDim.x) {
    const size_t w = i / 32, l = i % 32;
    const size_t per_group = 4 * size_t(words);
    const size_t group = w / per_group, r = w % per_group;
    const size_t sector = r / words, word = r % words;
    p[(group * 32 + l) * 32 + sector * 8 + word] = (float)i;
  }
}

}  // namespace partial_kernels
