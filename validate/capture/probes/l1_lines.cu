// Probe of the L1's tag-stage throughput by the lines a warp's load touches: 132 CTAs (one per
// SM) of 1024 threads loop over L1-resident loads (a 4 KB buffer, read once before), 8
// independent loads per iteration, each warp instruction spreading its 32 lanes over L lines
// (L = 1: one line, 4 sectors; L = 4, 8, 16, 32: one 32-byte sector of each of L lines). Two
// iteration counts per L, so that the launch's fixed cycles cancel: L1 cycles per load
// instruction = (difference of gpc__cycles_elapsed.max) / (32 warps x 8 x iteration difference).
// Profile each launch (ncu --cache-control all; the buffer is read into the L1 by the first
// iteration):
//   l1_lines.sh > validate/reference/h200/l1_lines.tsv
// `l1_lines list` prints one line per launch, in launch order (lines, iters).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kLines[] = {1, 4, 8, 16, 32};
constexpr int kIters[] = {256, 512};

__device__ __forceinline__ float load_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// Lane l reads word (l / lines) * (8 / (32 / lines) ...) of line (base + l % lines) % 32: with
// `lines` lines per instruction each line gets 32 / lines lanes, which read consecutive words from
// the line's first sector (or, at one line, its 32 words).
__global__ void probe_lines(const float* __restrict__ buf, float* sink, int lines, int iters) {
  const int lane = threadIdx.x & 31;
  const int per_line = 32 / lines;
  const int word = lines == 1 ? lane : lane / lines % per_line;
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const int line = (k * 8 + u + lane % lines) % 32;
      acc += load_ca(buf + line * 32 + (lines == 1 ? word : word % 8));
    }
  }
  if (acc == 1234.5f) *sink = acc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("lines\titers\n");
    for (int l : kLines)
      for (int i : kIters) std::printf("%d\t%d\n", l, i);
    return 0;
  }
  float* buf = nullptr;
  float* sink = nullptr;
  TWIN_CHECK(cudaMalloc(&buf, 32 * 128));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMemset(buf, 0, 32 * 128));
  for (int l : kLines)
    for (int i : kIters) {
      probe_lines<<<132, 1024>>>(buf, sink, l, i);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  TWIN_CHECK(cudaFree(buf));
  TWIN_CHECK(cudaFree(sink));
  return 0;
}
