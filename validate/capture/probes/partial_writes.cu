// Probe of the L2's partial (byte-masked) sector writes: does the L2 keep sectors that stores
// filled only in part, or write them back (with a read, for the DRAM's ECC) before the kernel
// ends? One kernel per (bytes per sector, MB): every 32-byte sector of an MB-megabyte region gets
// one store of 4, 16 or 32 bytes at its start, from one thread (a warp covers 32 sectors, 1 KB).
// 32 bytes is the control (whole sectors). Profile each launch from an empty L2 (ncu
// --cache-control all, as the capture) with one-pass DRAM metrics:
//   partial_writes.sh > validate/reference/h200/partial_writes.tsv
// `partial_writes list` prints one line per launch, in launch order (bytes, MB).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"
#include "partial_kernels.cuh"

namespace {

using partial_kernels::probe_partial;

constexpr size_t kMB = size_t{1} << 20;
constexpr int kCtas = 132 * 8;
constexpr int kThreads = 256;
constexpr int kBytes[] = {4, 16, 32};
constexpr int kSizes[] = {1, 2, 4, 8, 12, 16, 24, 32};

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("bytes\tmb\n");
    for (int b : kBytes) {
      for (int mb : kSizes) std::printf("%d\t%d\n", b, mb);
    }
    return 0;
  }
  const size_t max_bytes = 32 * kMB;
  float* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, max_bytes));
  TWIN_CHECK(cudaMemset(p, 0, max_bytes));
  for (int b : kBytes) {
    for (int mb : kSizes) {
      probe_partial<<<kCtas, kThreads>>>(p, mb * kMB / 32, b / 4);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  }
  TWIN_CHECK(cudaFree(p));
  return 0;
}
