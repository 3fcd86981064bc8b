// Probe of the L2's bandwidth on lines it already holds: how many sectors a cycle the slices give
// to reads and take from writes when every SM streams 16-byte accesses at them.
// One CTA of 1024 threads per SM (132); CTA c reads (or writes) in pass p the share (c + p) mod 132
// of a buffer of 132 shares, so no SM touches a line twice within 132 passes and every access goes
// to the L2 (no L1 hits), while the whole buffer stays in the L2. Launches (names start "probe_";
// profile with --cache-control none, l2_bandwidth.sh, so each finds the lines the one before left):
//   warm/K       reads the buffer of K KiB shares twice: it brings the lines into the L2
//   read/K       16 passes of 16-byte loads over the buffer (every line a hit)
//   write/K      16 passes of 16-byte stores over it (whole sectors, lines already held)
// for shares of 32, 64 and 128 KiB (4.1, 8.3 and 16.5 MiB). lts__cycles_elapsed gives the L2's
// clock against the SMs' (gpc__cycles_elapsed).
//   l2_bandwidth.sh > validate/reference/h200/l2_bandwidth.tsv
// `l2_bandwidth list` prints one line per profiled launch (variant, kernel, share KiB, passes).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr int kCtas = 132;
constexpr int kThreads = 1024;
constexpr int kPasses = 16;
constexpr int kShareKiB[] = {32, 64, 128};

__global__ void probe_read(const float4* __restrict__ buf, int share, int passes, float* sink) {
  float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int p = 0; p < passes; ++p) {
    const float4* s = buf + static_cast<size_t>((blockIdx.x + p) % gridDim.x) * share;
#pragma unroll 4
    for (int i = threadIdx.x; i < share; i += blockDim.x) {
      const float4 v = s[i];
      acc.x += v.x;
      acc.y += v.y;
      acc.z += v.z;
      acc.w += v.w;
    }
  }
  if (acc.x + acc.y + acc.z + acc.w == 12345.0f) *sink = acc.x;
}

__global__ void probe_write(float4* __restrict__ buf, int share, int passes) {
  for (int p = 0; p < passes; ++p) {
    float4* s = buf + static_cast<size_t>((blockIdx.x + p) % gridDim.x) * share;
#pragma unroll 4
    for (int i = threadIdx.x; i < share; i += blockDim.x) {
      s[i] = make_float4(1.0f, 2.0f, 3.0f, static_cast<float>(p));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "list") == 0) {
    std::printf("variant\tkernel\tshare_kib\tpasses\n");
    for (int k : kShareKiB) {
      std::printf("warm/%d\tprobe_read\t%d\t2\n", k, k);
      std::printf("read/%d\tprobe_read\t%d\t%d\n", k, k, kPasses);
      std::printf("write/%d\tprobe_write\t%d\t%d\n", k, k, kPasses);
    }
    return 0;
  }
  float* sink = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  for (int k : kShareKiB) {
    const int share = k * 1024 / 16;  // float4 elements a share
    const size_t bytes = static_cast<size_t>(kCtas) * share * 16;
    float4* buf = nullptr;
    TWIN_CHECK(cudaMalloc(&buf, bytes));
    TWIN_CHECK(cudaMemset(buf, 0, bytes));
    TWIN_CHECK(cudaDeviceSynchronize());
    probe_read<<<kCtas, kThreads>>>(buf, share, 2, sink);
    probe_read<<<kCtas, kThreads>>>(buf, share, kPasses, sink);
    probe_write<<<kCtas, kThreads>>>(buf, share, kPasses);
    TWIN_CHECK(cudaDeviceSynchronize());
    TWIN_CHECK(cudaFree(buf));
  }
  TWIN_CHECK(cudaFree(sink));
  return 0;
}
