// What a GPU-scope fence costs a warp, alone and beside other warps' memory traffic. The reduce
// kernels of validate/reference/h200/foreign2 (PyTorch's at::reduce_kernel, launch 6) end with
// __threadfence(): MEMBAR.SC.GPU, ERRBAR, CGAERRBAR, CCTL.IVALL; the H200 samples their warps
// stalled on "membar" at the ERRBAR (3.7 % of all samples) where the model charges nothing.
//
// Each CTA's warp 0 (the fencer) waits about 30,000 cycles, has `stores` of its lanes store one
// word each to a line of their own (0, 1 or 32 lines), and times fence.sc.gpu (__threadfence) and
// then a second fence with nothing stored between them. The other warps of the CTA (`others`)
// either exit at once (idle), stream 16-byte loads over 1 GiB (loads), or stream 16-byte stores
// (stores) for the whole time, so that the fence meets an SM and a memory system that are busy.
// `mode` fence.sc.gpu or fence.acq_rel.gpu.
//
// Output (stdout, TSV): grid others stores fence repeat cta first_cycles second_cycles.
//
// Build (from this directory):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o fence fence.cu
#include <cstdio>
#include <vector>

#include "clock_probe.cuh"

namespace {

constexpr int kWarps = 8;
constexpr long long kSpin = 30000;

enum Others { kIdle = 0, kLoads = 1, kStores = 2 };

template <bool kSc>
__device__ __forceinline__ void fence() {
  if (kSc) {
    asm volatile("fence.sc.gpu;" ::: "memory");
  } else {
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  }
}

template <bool kSc>
__global__ void probe(float* lines, float4* stream, size_t stream_n, int others, int stores,
                      float* sink, long long* out) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    const long long start = stamp();
    while (stamp() - start < kSpin) {
    }
    if (lane < stores) lines[(static_cast<size_t>(blockIdx.x) * 32 + lane) * 32] = 1.0f;
    const long long t0 = stamp();
    fence<kSc>();
    const long long t1 = stamp();
    fence<kSc>();
    const long long t2 = stamp();
    if (lane == 0) {
      out[2 * blockIdx.x] = t1 - t0;
      out[2 * blockIdx.x + 1] = t2 - t1;
    }
    return;
  }
  if (others == kIdle) return;
  // The other warps stream for about three times the fencer's wait.
  const size_t threads = static_cast<size_t>(gridDim.x) * (kWarps - 1) * 32;
  size_t i = static_cast<size_t>(blockIdx.x) * (kWarps - 1) * 32 + (threadIdx.x - 32);
  const long long start = stamp();
  float4 acc = {0, 0, 0, 0};
  while (stamp() - start < 3 * kSpin) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const size_t j = (i + u * threads) % stream_n;
      if (others == kLoads) {
        const float4 v = stream[j];
        acc.x += v.x;
        acc.y += v.y;
      } else {
        stream[j] = make_float4(1, 2, 3, 4);
      }
    }
    i = (i + 8 * threads) % stream_n;
  }
  if (acc.x == 12345.0f) sink[0] = acc.y;  // keeps the loads; never true for the zeroed stream
}

}  // namespace

int main() {
  const size_t stream_bytes = size_t{1} << 30;
  float4* stream = nullptr;
  float *lines = nullptr, *sink = nullptr;
  long long* out = nullptr;
  int sms = 0;
  TWIN_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int max_grid = 2 * sms;
  TWIN_CHECK(cudaMalloc(&stream, stream_bytes));
  TWIN_CHECK(cudaMemset(stream, 0, stream_bytes));
  TWIN_CHECK(cudaMalloc(&lines, static_cast<size_t>(max_grid) * 32 * 128));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * 2 * max_grid));
  std::vector<long long> host(2 * max_grid);
  const char* others_name[] = {"idle", "loads", "stores"};
  std::printf("grid\tothers\tstores\tfence\trepeat\tcta\tfirst_cycles\tsecond_cycles\n");
  for (int sc = 1; sc >= 0; --sc) {
    for (const int grid : {1, max_grid}) {
      for (int others = kIdle; others <= kStores; ++others) {
        if (grid == 1 && others != kIdle) continue;
        for (const int stores : {0, 1, 32}) {
          for (int repeat = 0; repeat < 3; ++repeat) {
            const int threads = grid == 1 ? 32 : 32 * kWarps;
            if (sc) {
              probe<true><<<grid, threads>>>(lines, stream, stream_bytes / sizeof(float4), others,
                                             stores, sink, out);
            } else {
              probe<false><<<grid, threads>>>(lines, stream, stream_bytes / sizeof(float4),
                                              others, stores, sink, out);
            }
            TWIN_CHECK(cudaGetLastError());
            TWIN_CHECK(cudaMemcpy(host.data(), out, sizeof(long long) * 2 * grid,
                                  cudaMemcpyDeviceToHost));
            for (int c = 0; c < grid; ++c) {
              std::printf("%d\t%s\t%d\t%s\t%d\t%d\t%lld\t%lld\n", grid, others_name[others], stores,
                          sc ? "sc" : "acq_rel", repeat, c, host[2 * c], host[2 * c + 1]);
            }
          }
        }
      }
    }
  }
  return 0;
}
