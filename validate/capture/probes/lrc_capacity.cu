// Probe of how many lines in flight the L2 request coalescer can track: the CTAs on SMs 124 and
// 125 (next to the same L2 partition, sm_partition.tsv) each run W warps; warp w of both reads
// the same 512 lines (its own 64 KB), 8 loads in flight with ld.global.cg, all started together
// through a counter in global memory, from DRAM (ncu's cache control). With a coalescer that has
// room for every line in flight, the second SM's reads join the first's: 2048 x W sectors joined
// (lrc_pair.tsv, lrc_crowd.tsv). With fewer slots than the 2 x 8 x W lines in flight, joins fall.
// One CTA per SM (dynamic shared memory); the others return at once. W = 1, 2, 4, 8, 16, 32.
//   lrc_capacity.sh > validate/reference/h200/lrc_capacity.tsv
// `lrc_capacity list` prints one line per profiled launch, in launch order (warps, lines).
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

namespace {

constexpr int kLinesPerWarp = 512;
constexpr int kInFlight = 8;
constexpr int kWarps[] = {1, 2, 4, 8, 16, 32};

__device__ __forceinline__ float load_cg(const float* p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__global__ void probe_lrc(const float* buf, volatile int* arrived, float* sink) {
  extern __shared__ int hold[];
  const unsigned sm = sm_id();
  if (sm != 124 && sm != 125) return;
  if (threadIdx.x == 0) {
    atomicAdd(const_cast<int*>(arrived), 1);
    while (*arrived < 2) {
    }
  }
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const float* mine = buf + static_cast<size_t>(warp) * kLinesPerWarp * 32;
  float acc[kInFlight] = {};
#pragma unroll 1
  for (int i = 0; i < kLinesPerWarp; i += kInFlight) {
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) acc[k] += load_cg(mine + (i + k) * 32 + lane);
  }
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kInFlight; ++k) sum += acc[k];
  if (sum != 0.0f) *sink = sum + hold[0];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("warps\tlines\n");
    for (int w : kWarps) std::printf("%d\t%d\n", w, w * kLinesPerWarp);
    return 0;
  }
  int sms = 0, smem = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  if (sms < 126) return 1;
  cudaFuncSetAttribute(probe_lrc, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  const size_t bytes = sizeof(float) * 32 * kLinesPerWarp * 32;
  float* buf = nullptr;
  float* sink = nullptr;
  int* arrived = nullptr;
  if (cudaMalloc(&buf, bytes) != cudaSuccess || cudaMalloc(&sink, 4) != cudaSuccess ||
      cudaMalloc(&arrived, 4) != cudaSuccess) {
    return 1;
  }
  cudaMemset(buf, 0, bytes);
  for (int w : kWarps) {
    cudaMemset(arrived, 0, 4);
    probe_lrc<<<sms, 32 * w, smem>>>(buf, arrived, sink);
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  }
  return 0;
}
