// Probe of what a partially written sector costs the L2 when each store request carries one
// sector, as in the naive transpose's column writes (partial_writes.cu's warps write 8 lines of 4
// sectors each per instruction). Every warp instruction here stores 4 bytes into each of 32
// different lines, one sector of each:
//   words 1: every 32-byte sector of an MB-megabyte region gets one 4-byte store (the 4-byte
//            partial-write probe's bytes, in 4x as many requests);
//   words 8: every sector gets all 8 of its words, from 8 instructions (it completes).
// Profile each launch from an empty L2 (ncu --cache-control all, as the capture) with one-pass
// DRAM metrics:
//   partial_scatter.sh > validate/reference/h200/partial_scatter.tsv
// `partial_scatter list` prints one line per launch, in launch order (words, MB).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"
#include "partial_kernels.cuh"

namespace {

using partial_kernels::probe_scatter;

constexpr size_t kMB = size_t{1} << 20;
constexpr int kCtas = 132 * 8;
constexpr int kThreads = 256;
struct Launch {
  int words;
  int mb;
};
constexpr Launch kLaunches[] = {{1, 1}, {1, 4}, {1, 8}, {1, 16}, {1, 32},
                                {8, 1}, {8, 2}, {8, 4}, {8, 8}, {8, 16},
                                {8, 24}, {8, 32}, {8, 48}, {8, 64}};

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("words\tmb\n");
    for (const Launch& x : kLaunches) std::printf("%d\t%d\n", x.words, x.mb);
    return 0;
  }
  const size_t max_bytes = 64 * kMB;
  float* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, max_bytes));
  TWIN_CHECK(cudaMemset(p, 0, max_bytes));
  for (const Launch& x : kLaunches) {
    probe_scatter<<<kCtas, kThreads>>>(p, x.mb * kMB / 32 * x.words, x.words);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaDeviceSynchronize());
  }
  TWIN_CHECK(cudaFree(p));
  return 0;
}
