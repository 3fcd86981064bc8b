// Shared by the L2 request coalescer probes (lrc_window.cu, lrc_pair.cu): 512 lines of 128 bytes
// read by one warp with ld.global.cg (the L1 neither keeps nor merges them), 8 loads in flight.
#pragma once

constexpr int kLines = 512;
constexpr int kInFlight = 8;

__device__ __forceinline__ float load_cg(const float* p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
  return v;
}

// Reads the kLines lines of `buf`, kInFlight at a time; returns the sum (waits for the results).
__device__ __forceinline__ float read_lines(const float* buf, int lane) {
  float acc[kInFlight] = {};
#pragma unroll 1
  for (int i = 0; i < kLines; i += kInFlight) {
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) acc[k] += load_cg(buf + (i + k) * 32 + lane);
  }
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kInFlight; ++k) sum += acc[k];
  return sum;
}
