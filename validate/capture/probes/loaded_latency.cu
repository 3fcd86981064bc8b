// HBM load-to-use latency under load on the GPU at hand: CTA 0 (one thread) chases pointers through
// a 1 GiB buffer (random 128-byte lines: every hop misses the L2) and reports cycles per hop
// (clock64), while the other `streamers` CTAs (512 threads each, one per SM) stream float4 reads
// (`read`) or copies (`copy`) over a 2 GiB region until the chase ends. The streamers' DRAM
// bandwidth is the bytes they moved over the chase's time (clock rate from the device).
//
// Each run starts its chase on lines no earlier run visited, so that none is left in the L2.
//
// Output (stdout, TSV): mode streamers hops cycles_per_hop stream_gbps
//
// Build: nvcc -O3 -arch=sm_90 -o loaded_latency loaded_latency.cu
#include <cstdio>
#include <cstdint>
#include <vector>
#include <random>

#include "clock_probe.cuh"

namespace {

constexpr size_t kChaseBytes = size_t{1} << 30;
constexpr size_t kStreamBytes = size_t{1} << 31;
constexpr int kHops = 4096;

__global__ void loaded(const uint64_t* chase, uint64_t first, const float4* src, float4* dst, size_t n4,
                       bool copy, volatile int* done, unsigned long long* moved, float* sink,
                       long long* out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x != 0) return;
    uint64_t p = first;
    const long long start = clock64();
    for (int h = 0; h < kHops; ++h) p = chase[p];
    const long long stop = clock64();
    *done = 1;
    __threadfence();
    out[0] = stop - start;
    out[1] = static_cast<long long>(p);
    return;
  }
  // Streamers: grid-stride passes over the region until the chase is done.
  const size_t stride = static_cast<size_t>(gridDim.x - 1) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x - 1) * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  unsigned long long bytes = 0;
  while (*done == 0) {
    for (int k = 0; k < 64; ++k) {
      const float4 v = src[i];
      if (copy) {
        dst[i] = v;
        bytes += 32;
      } else {
        acc += v.x + v.y + v.z + v.w;
        bytes += 16;
      }
      i += stride;
      if (i >= n4) i -= n4;
    }
  }
  if (acc == 1234.5f) *sink = acc;
  atomicAdd(moved, bytes);
}

}  // namespace

int main() {
  int sms = 0, khz = 0;
  TWIN_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  TWIN_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  // A random cycle over the chase buffer's 128-byte lines (8 uint64 per line, the first used).
  const size_t lines = kChaseBytes / 128;
  std::vector<uint64_t> order(lines);
  for (size_t i = 0; i < lines; ++i) order[i] = i;
  std::mt19937_64 rng(7);
  for (size_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
  std::vector<uint64_t> next(kChaseBytes / 8, 0);
  for (size_t i = 0; i < lines; ++i) next[order[i] * 16] = order[(i + 1) % lines] * 16;
  uint64_t* chase = nullptr;
  float4* src = nullptr;
  float4* dst = nullptr;
  int* done = nullptr;
  unsigned long long* moved = nullptr;
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&chase, kChaseBytes));
  TWIN_CHECK(cudaMemcpy(chase, next.data(), kChaseBytes, cudaMemcpyHostToDevice));
  TWIN_CHECK(cudaMalloc(&src, kStreamBytes));
  TWIN_CHECK(cudaMalloc(&dst, kStreamBytes));
  TWIN_CHECK(cudaMemset(src, 0, kStreamBytes));
  TWIN_CHECK(cudaMalloc(&done, sizeof(int)));
  TWIN_CHECK(cudaMalloc(&moved, sizeof(unsigned long long)));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, 2 * sizeof(long long)));
  const size_t n4 = kStreamBytes / sizeof(float4);
  uint64_t first = 0;  // each run starts where no earlier run went: its lines are not in the L2
  std::printf("mode\tstreamers\thops\tcycles_per_hop\tstream_gbps\n");
  for (int copy = 0; copy < 2; ++copy) {
    for (int streamers : {0, 8, 16, 33, 66, 99, sms - 1}) {
      for (int repeat = 0; repeat < 2; ++repeat) {  // the first is a warm-up
        TWIN_CHECK(cudaMemset(done, 0, sizeof(int)));
        TWIN_CHECK(cudaMemset(moved, 0, sizeof(unsigned long long)));
        first = (first + 16 * (kHops + 1)) % (kChaseBytes / 8);
        loaded<<<1 + streamers, 512>>>(chase, order[first / 16] * 16, src, dst, n4, copy != 0,
                                       done, moved, sink, out);
        TWIN_CHECK(cudaGetLastError());
        TWIN_CHECK(cudaDeviceSynchronize());
      }
      long long cycles[2] = {0, 0};
      unsigned long long bytes = 0;
      TWIN_CHECK(cudaMemcpy(cycles, out, sizeof cycles, cudaMemcpyDeviceToHost));
      TWIN_CHECK(cudaMemcpy(&bytes, moved, sizeof bytes, cudaMemcpyDeviceToHost));
      const double seconds = static_cast<double>(cycles[0]) / (khz * 1e3);
      std::printf("%s\t%d\t%d\t%.1f\t%.0f\n", copy != 0 ? "copy" : "read", streamers, kHops,
                  static_cast<double>(cycles[0]) / kHops, bytes / seconds / 1e9);
    }
  }
  cudaFree(chase);
  cudaFree(src);
  cudaFree(dst);
  return 0;
}
