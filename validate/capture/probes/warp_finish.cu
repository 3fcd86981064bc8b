// Probe of the order in which an SM's warp schedulers finish the warps of compute-bound kernels:
// the bodies of the four whole-GPU compute twins (workloads/cuda/compute.cu: dependent and
// independent FFMA chains, __expf + rsqrtf, the integer hash) in one wave of CTAs of 128, 256 and
// 512 threads, 2, 4 and 8 CTAs an SM (as many as fit 2,048 threads). Lane 0 of every warp
// stamps clock64 (the SM's clock) before its loop and after it, with its %smid and %warpid. Two
// launches a case after a warm-up, without a profiler. Prints one row per warp; within an SM the
// stamps say whether the oldest warps run ahead (greedy-then-oldest: finishes spread over the
// run) or all share the issue slots (round robin: finishes together).
//   nvcc -O3 -std=c++17 -arch=native -o warp_finish warp_finish.cu
//   ./warp_finish | gzip > validate/reference/h200/warp_finish_GPU.tsv.gz
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr int kIters = 4096;

struct Stamp {
  long long start;
  long long end;
  unsigned sm;
  unsigned warp;
};

__device__ __forceinline__ long long stamp_start() { return clock64(); }

__device__ __forceinline__ void stamp_end(Stamp* out, long long start) {
  const long long end = clock64();
  if (threadIdx.x % 32 == 0) {
    unsigned s, w;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = Stamp{start, end, s, w};
  }
}

__global__ void p_ffma_dependent(float* out, Stamp* st, float a, float b, int iters) {
  const long long t0 = stamp_start();
  float x = threadIdx.x * 1e-3f + 1.0f;
#pragma unroll 16
  for (int i = 0; i < iters; ++i) x = x * a + b;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
  stamp_end(st, t0);
}

__global__ void p_ffma_independent(float* out, Stamp* st, float a, float b, int iters) {
  const long long t0 = stamp_start();
  float x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = threadIdx.x * 1e-3f + k;
#pragma unroll 4
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = x[k] * a + b;
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  stamp_end(st, t0);
}

__global__ void p_sfu(float* out, Stamp* st, int iters) {
  const long long t0 = stamp_start();
  float x = threadIdx.x * 1e-4f + 0.5f;
#pragma unroll 8
  for (int i = 0; i < iters; ++i) x = rsqrtf(__expf(-x) + 1.0f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
  stamp_end(st, t0);
}

__global__ void p_integer(float* out, Stamp* st, int iters) {
  const long long t0 = stamp_start();
  unsigned x = threadIdx.x * 2654435761u + blockIdx.x;
  unsigned y = x ^ 0x9e3779b9u;
#pragma unroll 8
  for (int i = 0; i < iters; ++i) {
    x = x * 1664525u + y;
    y = (y ^ (x >> 7)) + (x << 3);
  }
  reinterpret_cast<unsigned*>(out)[blockIdx.x * blockDim.x + threadIdx.x] = x ^ y;
  stamp_end(st, t0);
}

void launch(int kernel, int ctas, int threads, float* out, Stamp* st) {
  switch (kernel) {
    case 0: p_ffma_dependent<<<ctas, threads>>>(out, st, 0.999f, 0.5f, kIters); break;
    case 1: p_ffma_independent<<<ctas, threads>>>(out, st, 0.999f, 0.5f, kIters); break;
    case 2: p_sfu<<<ctas, threads>>>(out, st, kIters); break;
    default: p_integer<<<ctas, threads>>>(out, st, kIters); break;
  }
}

}  // namespace

int main() {
  const char* names[] = {"ffma_dependent", "ffma_independent", "sfu", "integer"};
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  const int sms = prop.multiProcessorCount;
  const int most = sms * 2048;  // threads
  float* out = nullptr;
  Stamp* st = nullptr;
  if (cudaMalloc(&out, most * sizeof(float)) != cudaSuccess) return 1;
  if (cudaMalloc(&st, most / 32 * sizeof(Stamp)) != cudaSuccess) return 1;
  std::printf("kernel\tthreads\tctas\trepeat\tcta\twarp\tsm\twarpid\tstart\tend\n");
  for (int k = 0; k < 4; ++k) {
    launch(k, sms, 256, out, st);  // warm-up: code and constants
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    for (int threads : {128, 256, 512}) {
      for (int per_sm : {2, 4, 8}) {
        if (per_sm * threads > 2048) continue;
        const int ctas = sms * per_sm, warps = threads / 32;
        for (int r = 0; r < 2; ++r) {
          launch(k, ctas, threads, out, st);
          if (cudaDeviceSynchronize() != cudaSuccess) return 1;
          std::vector<Stamp> s(ctas * warps);
          cudaMemcpy(s.data(), st, s.size() * sizeof(Stamp), cudaMemcpyDeviceToHost);
          for (int w = 0; w < ctas * warps; ++w) {
            std::printf("%s\t%d\t%d\t%d\t%d\t%d\t%u\t%u\t%lld\t%lld\n", names[k], threads, ctas, r,
                        w / warps, w % warps, s[w].sm, s[w].warp, s[w].start, s[w].end);
          }
        }
      }
    }
  }
  cudaFree(st);
  cudaFree(out);
  return 0;
}
