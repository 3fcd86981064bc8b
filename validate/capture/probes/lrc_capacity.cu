// Probe of how many lines in flight the L2 request coalescer can track: P pairs of SMs (2p, 2p + 1:
// the two SMs of a TPC, next to the same L2 partition, sm_partition.tsv) each run W warps per SM;
// warp w of both SMs of pair p reads the same 512 lines (its own 64 KB of the pair's region),
// 8 loads in flight with ld.global.cg, all started together through a counter in global memory,
// from DRAM (ncu's cache control). With a coalescer that has room for every line in flight, the
// second SM's reads join the first's: 2048 x P x W sectors joined (lrc_pair.tsv, lrc_crowd.tsv).
// With fewer slots than the 16 x P x W lines in flight, joins fall. One CTA per SM (dynamic
// shared memory); the SMs of other pairs return at once.
//   lrc_capacity.sh > validate/reference/h200/lrc_capacity.tsv
// `lrc_capacity list` prints one line per profiled launch, in launch order (pairs, warps, lines).
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "clock_probe.cuh"  // sm_id
#include "lrc_reads.cuh"

namespace {

constexpr int kLinesPerWarp = kLines;  // lrc_reads.cuh: 512 lines, 8 loads in flight

struct Launch {
  int pairs, warps;
};
constexpr Launch kLaunches[] = {{1, 1}, {1, 8}, {1, 32}, {8, 32}, {33, 32}, {66, 8}, {66, 32}};
constexpr int kMaxWarps = 32;

__global__ void probe_lrc(const float* buf, int pairs, volatile int* arrived, float* sink) {
  extern __shared__ int hold[];
  const unsigned pair = sm_id() / 2;
  if (pair >= static_cast<unsigned>(pairs)) return;
  if (threadIdx.x == 0) {
    atomicAdd(const_cast<int*>(arrived), 1);
    while (*arrived < 2 * pairs) {
    }
  }
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const float* mine =
      buf + (static_cast<size_t>(pair) * kMaxWarps + warp) * kLinesPerWarp * 32;
  const float sum = read_lines(mine, lane);
  if (sum != 0.0f) *sink = sum + hold[0];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("pairs\twarps\tlines\n");
    for (const Launch& l : kLaunches) {
      std::printf("%d\t%d\t%d\n", l.pairs, l.warps, l.pairs * l.warps * kLinesPerWarp);
    }
    return 0;
  }
  int sms = 0, smem = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  if (sms < 132) return 1;
  cudaFuncSetAttribute(probe_lrc, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  const size_t bytes = sizeof(float) * 32 * kLinesPerWarp * kMaxWarps * 66;
  float* buf = nullptr;
  float* sink = nullptr;
  int* arrived = nullptr;
  if (cudaMalloc(&buf, bytes) != cudaSuccess || cudaMalloc(&sink, 4) != cudaSuccess ||
      cudaMalloc(&arrived, 4) != cudaSuccess) {
    return 1;
  }
  cudaMemset(buf, 0, bytes);
  for (const Launch& l : kLaunches) {
    cudaMemset(arrived, 0, 4);
    probe_lrc<<<sms, 32 * l.warps, smem>>>(buf, l.pairs, arrived, sink);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  }
  return 0;
}
