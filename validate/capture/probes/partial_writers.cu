// Probe of why lines completed by many partial stores leave the L2 written back more than lines
// written whole (validate/HISTORY.md, thirty-fifth round): beyond the L2, the H200 holds 17 MiB of
// such lines dirty at the end of partial_scatter.cu's completing stream, 25-26 MiB of whole
// lines. Every launch writes every 32-byte sector of an MB-megabyte region completely, from an
// empty L2, 1056 CTAs of 256 threads:
//   mode 0 (whole):    each warp instruction stores one whole line (32 floats, one request);
//   mode 1 (one SM):   each line gets its 32 words as 4-byte stores into one sector of each of 32
//                      lines per instruction (the naive transpose's stores), all from the 8 warps
//                      of one CTA, four instructions each;
//   mode 2 (four SMs): the same stores from 32 warps of four consecutive CTAs, as
//                      partial_scatter.cu's words 8.
// If mode 1 writes back as much as mode 2, being written in part is what costs; if mode 1 writes
// back as mode 0, it is the writers' spread over SMs (and L2 partitions). Profile each launch from
// an empty L2 with one-pass DRAM metrics:
//   partial_writers.sh > validate/reference/h200/partial_writers_<gpu>.tsv
// `partial_writers list` prints one line per launch, in launch order (mode, MB).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"
#include "partial_kernels.cuh"

namespace {

constexpr size_t kMB = size_t{1} << 20;
constexpr int kCtas = 132 * 8;
constexpr int kThreads = 256;
constexpr int kSizes[] = {16, 32, 48, 64};

// Mode 0: warp w of the grid's stride stores line w whole.
__global__ void probe_whole(float* p, size_t floats) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < floats;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = (float)i;
  }
}

// Mode 1: CTA c takes the groups of 32 lines g = c, c + grid, ...; its warp w stores, in rounds
// r = w, w + 8, w + 16, w + 24, word r % 8 of sector r / 8 of each of the group's 32 lines.
__global__ void probe_one_sm(float* p, size_t groups) {
  const size_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (size_t g = blockIdx.x; g < groups; g += gridDim.x) {
    for (size_t r = warp; r < 32; r += blockDim.x / 32) {
      p[(g * 32 + lane) * 32 + (r / 8) * 8 + r % 8] = (float)r;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("mode\tmb\n");
    for (int mode = 0; mode < 3; ++mode) {
      for (int mb : kSizes) std::printf("%d\t%d\n", mode, mb);
    }
    return 0;
  }
  const size_t max_bytes = 64 * kMB;
  float* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, max_bytes));
  TWIN_CHECK(cudaMemset(p, 0, max_bytes));
  for (int mode = 0; mode < 3; ++mode) {
    for (int mb : kSizes) {
      const size_t bytes = mb * kMB;
      if (mode == 0) {
        probe_whole<<<kCtas, kThreads>>>(p, bytes / 4);
      } else if (mode == 1) {
        probe_one_sm<<<kCtas, kThreads>>>(p, bytes / (32 * 128));
      } else {
        partial_kernels::probe_scatter<<<kCtas, kThreads>>>(p, bytes / 32 * 8, 8);
      }
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  }
  TWIN_CHECK(cudaFree(p));
  return 0;
}
