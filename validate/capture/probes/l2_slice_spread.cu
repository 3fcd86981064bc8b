// How the H200's L2 spreads a few lines over its slices: N lines, S lines apart, each taking the
// same number of reductions (RED.E.ADD.F32: every warp's 32 lanes add to the 32 words of one line,
// 16 times), so that Nsight Compute's busiest slice (lts__t_sectors_srcunit_tex_op_red.max) over a
// line's share says how many of the N lines share one slice, and the quietest (.min) whether any
// slice got none. A hash that sends every aligned run of consecutive lines to distinct slices
// gives 1 line per slice up to about the slice count; one that interleaves slices in larger
// chunks puts several neighbouring lines on one. The buffer starts a 64 MiB allocation (2 MiB
// pages, so the pattern's physical offsets within a page are those of the virtual ones).
//
// Runs every (N, S) of kCounts x kStrides; `l2_slice_spread list` prints one line per launch in
// launch order (lines, stride, reductions per line in sectors). Profile with l2_slice_spread.sh.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "../../../workloads/cuda/twins.cuh"  // TWIN_CHECK

namespace {

constexpr int kCounts[] = {8, 32, 128, 512};
constexpr int kStrides[] = {1, 2, 4, 8, 16, 32, 64};
constexpr int kWarpsPerLine = 4;
constexpr int kReps = 16;
constexpr size_t kBytes = size_t{64} << 20;

__global__ void red_lines(float* buf, int stride) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  float* word = buf + static_cast<size_t>(warp / kWarpsPerLine) * stride * 32 + lane;
#pragma unroll 1
  for (int r = 0; r < kReps; ++r) atomicAdd(word, 1.0f);
}

}  // namespace

int main(int argc, char** argv) {
  const bool list = argc > 1 && std::strcmp(argv[1], "list") == 0;
  if (list) std::printf("lines\tstride\tred_sectors_per_line\n");
  float* buf = nullptr;
  if (!list) {
    TWIN_CHECK(cudaMalloc(&buf, kBytes));
    TWIN_CHECK(cudaMemset(buf, 0, kBytes));
  }
  for (int n : kCounts) {
    for (int s : kStrides) {
      if (list) {
        std::printf("%d\t%d\t%d\n", n, s, 4 * kReps * kWarpsPerLine);
        continue;
      }
      const int threads = 128;
      const int blocks = n * kWarpsPerLine * 32 / threads;
      red_lines<<<blocks, threads>>>(buf, s);
      TWIN_CHECK(cudaGetLastError());
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  }
  if (!list) TWIN_CHECK(cudaFree(buf));
  return 0;
}
