// Shared by the L2 request coalescer probes (lrc_window.cu, lrc_pair.cu, lrc_hits.cu,
// lrc_crowd.cu, lrc_gpc.cu): 512 lines of 128 bytes read by one warp with ld.global.cg (the L1 neither keeps
// nor merges them), 8 loads in flight, and the probes' device buffers.
#pragma once

#include "../../../workloads/cuda/twins.cuh"  // TWIN_CHECK
#include "clock_probe.cuh"                      // global_ns, stamp, load_cg

constexpr int kLines = 512;
constexpr int kInFlight = 8;

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

// Reader `reader` of `k` (one warp on each of k SMs): waits until all k have arrived, reads the
// lines with them, and notes its SM, %globaltimer at its start and end and its cycles in
// out[4 * reader ...]. `hold` is the CTA's dynamic shared memory (one CTA per SM). Needs
// clock_probe.cuh.
__device__ __forceinline__ void read_together(const float* buf, int reader, int k, unsigned sm,
                                              volatile int* arrived, float* sink,
                                              unsigned long long* out, int* hold) {
  const int lane = threadIdx.x & 31;
  hold[lane] = lane;
  if (lane == 0) atomicAdd(const_cast<int*>(arrived), 1);
  while (*arrived < k) {
  }
  __syncwarp();
  const unsigned long long start_ns = global_ns();
  const long long start = stamp();
  float sum = read_lines(buf, lane) + hold[lane];
  const long long end = stamp();
  const unsigned long long end_ns = global_ns();
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    out[reader * 4 + 0] = sm;
    out[reader * 4 + 1] = start_ns;
    out[reader * 4 + 2] = end_ns;
    out[reader * 4 + 3] = static_cast<unsigned long long>(end - start);
  }
}

// The probes' device buffers: the lines (zeroed), a sink for results that must not be optimised
// away, `flag_count` flags and `out_count` 64-bit results.
struct ProbeBuffers {
  float* buf = nullptr;
  float* sink = nullptr;
  int* flags = nullptr;
  unsigned long long* out = nullptr;

  ProbeBuffers(int flag_count, int out_count) {
    TWIN_CHECK(cudaMalloc(&buf, sizeof(float) * kLines * 32));
    TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
    TWIN_CHECK(cudaMalloc(&flags, sizeof(int) * flag_count));
    TWIN_CHECK(cudaMalloc(&out, sizeof(unsigned long long) * out_count));
    TWIN_CHECK(cudaMemset(buf, 0, sizeof(float) * kLines * 32));
  }
  ~ProbeBuffers() {
    cudaFree(buf);
    cudaFree(sink);
    cudaFree(flags);
    cudaFree(out);
  }
  ProbeBuffers(const ProbeBuffers&) = delete;
  ProbeBuffers& operator=(const ProbeBuffers&) = delete;
};
