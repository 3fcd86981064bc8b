// Dependent-issue latencies of the MIO and SFU operations on the GPU at hand: one warp runs
// `iterations` rounds of a chain of B dependent operations of one kind (`#pragma unroll 1` around
// the round), and lane 0 reports the cycles per round (clock64 around the loop). The difference
// between B = 32 and B = 16, over 16, is one operation's latency, free of the loop's own cost.
//
// Kinds: shfl (SHFL.BFLY, the xor distance cycling 1..16), lds (a shared-memory chase, every lane
// at the same word: one wavefront), ex2 (MUFU.EX2), rsq (MUFU.RSQ).
//
// Output (stdout, TSV): kind body cycles_per_round
//
// Build: nvcc -O3 -arch=sm_90 -o mio_latency mio_latency.cu
#include <cstdio>

#include "clock_probe.cuh"

template <int Body>
__global__ void shfl_chain(int iterations, int seed, int* sink, long long* out) {
  int v = seed + static_cast<int>(threadIdx.x);
  const long long start = clock64();
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < Body; ++k) v = __shfl_xor_sync(0xffffffffu, v, 1 << (k % 5));
  }
  const long long stop = clock64();
  if (v == 0x7fffffff) *sink = v;
  if (threadIdx.x == 0) out[0] = stop - start;
}

template <int Body>
__global__ void lds_chain(int iterations, int seed, int* sink, long long* out) {
  __shared__ int next[256];
  for (int i = static_cast<int>(threadIdx.x); i < 256; i += 32) next[i] = (i * 97 + seed) & 255;
  __syncwarp();
  int p = seed & 255;
  const long long start = clock64();
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < Body; ++k) p = next[p];
  }
  const long long stop = clock64();
  if (p == 0x7fffffff) *sink = p;
  if (threadIdx.x == 0) out[0] = stop - start;
}

template <int Body, bool Rsq>
__global__ void sfu_chain(int iterations, float seed, float* sink, long long* out) {
  float x = seed + 1e-3f * static_cast<float>(threadIdx.x);
  const long long start = clock64();
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < Body; ++k) {
      if (Rsq) {
        asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(x));
      } else {
        asm volatile("ex2.approx.f32 %0, %0;" : "+f"(x));
      }
    }
  }
  const long long stop = clock64();
  if (x == 1234.5f) *sink = x;
  if (threadIdx.x == 0) out[0] = stop - start;
}

template <int Body>
void run(int* isink, float* fsink, long long* out) {
  const int iterations = 4096;
  const auto report = [&](const char* kind, long long cycles) {
    std::printf("%s\t%d\t%.3f\n", kind, Body,
                static_cast<double>(cycles) / static_cast<double>(iterations));
  };
  report("shfl", clock_cycles([&] { shfl_chain<Body><<<1, 32>>>(iterations, 3, isink, out); },
                              out));
  report("lds", clock_cycles([&] { lds_chain<Body><<<1, 32>>>(iterations, 5, isink, out); },
                             out));
  report("ex2", clock_cycles(
                    [&] { sfu_chain<Body, false><<<1, 32>>>(iterations, 0.5f, fsink, out); },
                    out));
  report("rsq", clock_cycles(
                    [&] { sfu_chain<Body, true><<<1, 32>>>(iterations, 2.0f, fsink, out); },
                    out));
}

int main() {
  int* isink = nullptr;
  float* fsink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&isink, sizeof(int)));
  TWIN_CHECK(cudaMalloc(&fsink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long)));
  std::printf("kind\tbody\tcycles_per_round\n");
  run<16>(isink, fsink, out);
  run<32>(isink, fsink, out);
  TWIN_CHECK(cudaFree(isink));
  TWIN_CHECK(cudaFree(fsink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
