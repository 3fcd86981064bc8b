// Probe of load-to-use latency by the width of a warp's load and the warps per SM, at low load:
// 132 CTAs (one per SM) of 32 or 256 threads; each warp loops over loads of its own, never
// revisited 128-byte lines, one in flight (the next load waits on nothing, but the loop's FADD on
// the last one holds the warp, as in the reduce_shared_tree twin), and its lanes read 1, 8, 16 or
// 32 distinct floats of the line: one sector (broadcast), one sector, one 64-byte fetch group, the
// whole line. Two iteration counts per shape, so that the launch's fixed cycles cancel:
// cycles per iteration = difference of gpc__cycles_elapsed.max / difference of iterations.
// Profile each launch from an empty L2 (ncu --cache-control all, as the capture):
//   coalesced_latency.sh > validate/reference/h200/coalesced_latency.tsv
// coalesced_latency_trace.py writes the same launches as Accel-Sim traces for the simulator.
// `coalesced_latency list` prints one line per launch, in launch order (threads, lanes, iters).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kCtas = 132;
constexpr int kThreads[] = {32, 256};
constexpr int kLanes[] = {1, 8, 16, 32};
constexpr int kIters[] = {512, 1024};

template <int Lanes>
__global__ void probe_lanes(const float* __restrict__ in, float* __restrict__ out, int iters) {
  const int lane = threadIdx.x & 31;
  const size_t warps = (size_t)gridDim.x * blockDim.x / 32;
  size_t line = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  float acc = 0;
#pragma unroll 1
  for (int k = 0; k < iters; ++k) {
    acc += in[line * 32 + (lane & (Lanes - 1))];
    line += warps;
  }
  if (acc == 1234.5f) out[0] = acc;
}

__global__ void fill(float* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = 1.0f + (float)(i % 1021) * 0.001f;
  }
}

void launch(int threads, int lanes, int iters, const float* in, float* out) {
  switch (lanes) {
    case 1: probe_lanes<1><<<kCtas, threads>>>(in, out, iters); break;
    case 8: probe_lanes<8><<<kCtas, threads>>>(in, out, iters); break;
    case 16: probe_lanes<16><<<kCtas, threads>>>(in, out, iters); break;
    default: probe_lanes<32><<<kCtas, threads>>>(in, out, iters); break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("threads\tlanes\titers\n");
    for (int t : kThreads)
      for (int l : kLanes)
        for (int i : kIters) std::printf("%d\t%d\t%d\n", t, l, i);
    return 0;
  }
  const size_t n = size_t{kCtas} * 256 / 32 * 1024 * 32;  // every line the largest launch reads
  float* in = nullptr;
  float* out = nullptr;
  TWIN_CHECK(cudaMalloc(&in, n * sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(float)));
  fill<<<1024, 256>>>(in, n);
  TWIN_CHECK(cudaDeviceSynchronize());
  for (int t : kThreads)
    for (int l : kLanes)
      for (int i : kIters) {
        launch(t, l, i, in, out);
        TWIN_CHECK(cudaGetLastError());
        TWIN_CHECK(cudaDeviceSynchronize());
      }
  TWIN_CHECK(cudaFree(in));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
