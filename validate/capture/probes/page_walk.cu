// Probe of the cost of address translation on load-to-use latency: 132 CTAs (one per SM) of 32 or
// 256 threads; each warp loops over loads of never-revisited 128-byte lines, one in flight (the
// loop's FADD on the last load holds the warp), as coalesced_latency.cu with 32 lanes. Iteration
// k reads, for the warps together, a contiguous window of one line per warp inside region
// (k mod G) of G regions 16 MB apart (each visit to a region moves its window on by the warps'
// lines): G = 1 is one contiguous stream (a new 2 MB page every 15.5 iterations at 1056 warps);
// G = 16, 64, 1024 cycle every iteration to another region, so another page, revisiting a region
// after G iterations. The same DRAM traffic in every shape; what differs is how many pages each
// iteration touches and how soon they recur. Two iteration counts per shape, so that the launch's
// fixed cycles cancel: cycles per iteration = difference of gpc__cycles_elapsed.max / 512.
// Profile each launch from an empty L2 (ncu --cache-control all, as the capture):
//   page_walk.sh > validate/reference/h200/page_walk.tsv
// `page_walk list` prints one line per launch, in launch order (threads, regions, iters).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kCtas = 132;
constexpr int kThreads[] = {32, 256};
constexpr int kRegions[] = {1, 16, 64, 1024};
constexpr int kIters[] = {512, 1024};
constexpr size_t kRegionLines = size_t{1} << 17;  // 16 MB of 128-byte lines

__global__ void probe_walk(const float* __restrict__ in, float* __restrict__ out, int iters,
                           int regions) {
  const int lane = threadIdx.x & 31;
  const size_t warps = (size_t)gridDim.x * blockDim.x / 32;
  const size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
    const size_t line = regions == 1 ? k * warps + warp
                                     : (k % regions) * kRegionLines + (k / regions) * warps + warp;
    acc += in[line * 32 + lane];
  }
  if (acc == 1234.5f) out[0] = acc;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("threads\tregions\titers\n");
    for (int t : kThreads)
      for (int g : kRegions)
        for (int i : kIters) std::printf("%d\t%d\t%d\n", t, g, i);
    return 0;
  }
  // 1024 regions of 16 MB: 16 GiB of address space, of which each launch reads at most 138 MB.
  const size_t bytes = size_t{1024} * kRegionLines * 128;
  float* in = nullptr;
  float* out = nullptr;
  TWIN_CHECK(cudaMalloc(&in, bytes));
  TWIN_CHECK(cudaMalloc(&out, sizeof(float)));
  TWIN_CHECK(cudaMemset(in, 0x3f, bytes));
  TWIN_CHECK(cudaDeviceSynchronize());
  for (int t : kThreads)
    for (int g : kRegions)
      for (int i : kIters) {
        probe_walk<<<kCtas, t>>>(in, out, i, g);
        TWIN_CHECK(cudaGetLastError());
        TWIN_CHECK(cudaDeviceSynchronize());
      }
  TWIN_CHECK(cudaFree(in));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
