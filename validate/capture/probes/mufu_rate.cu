// How fast an SM's special-function units serve MUFU instructions, and whether they share the MIO
// with shared-memory loads. One CTA of W warps (W = 4, 8, 16, 32; warp w on sub-partition w % 4);
// after a barrier each warp runs 64 rounds of 8 independent MUFU operations (8 chains, so the
// latency is hidden from 2 warps per sub-partition on), then waits for the results:
//   - ex2: MUFU.EX2 (ex2.approx.ftz.f32);
//   - rsq: MUFU.RSQ (rsqrt.approx.ftz.f32);
//   - mix: EX2 and RSQ alternating;
//   - ex2_lds: the even warps run ex2, the odd warps 64 shared loads of 32 ways of conflict each
//     (32 rows of one bank), all issued before their results are used.
// Each warp reports the cycles from the barrier to its last result.
//
// Output (stdout, TSV): kind warps warp cycles
//
// Build: nvcc -O3 -arch=sm_90 -o mufu_rate mufu_rate.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kRounds = 64;
constexpr int kChains = 8;
constexpr int kMaxWarps = 32;

enum Kind { kEx2, kRsq, kMix, kEx2Lds };

__device__ __forceinline__ float rsq(float x) {
  float y;
  asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

template <int K>
__global__ void __launch_bounds__(1024, 1) probe(float seed, float* sink, long long* out) {
  __shared__ int rows[32 * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) rows[i] = i;
  __syncthreads();
  const long long start = stamp();
  float x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = seed + 0.01f * c + 1e-5f * lane;
  float sum = 0;
  if (K == kEx2Lds && (warp & 1)) {
    // 64 distinct loads: load i reads word i % 32 of row (lane + i + i / 32) % 32.
    int acc = 0;
#pragma unroll
    for (int i = 0; i < 64; ++i)
      acc += load_shared(rows + ((lane + i + i / 32) % 32) * 32 + i % 32);
    sum = static_cast<float>(acc);
  } else {
#pragma unroll 1
    for (int r = 0; r < kRounds; ++r) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) {
        if (K == kRsq || (K == kMix && (c & 1))) {
          x[c] = rsq(x[c]);
        } else {
          x[c] = ex2(x[c]) * -0.5f;  // keeps x bounded; the FMUL runs beside the SFU
        }
      }
    }
#pragma unroll
    for (int c = 0; c < kChains; ++c) sum += x[c];
  }
  const long long end = stamp();
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) out[warp] = end - start;
}

}  // namespace

int main() {
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * kMaxWarps));
  static long long host[kMaxWarps];
  std::printf("kind\twarps\twarp\tcycles\n");
  const char* names[] = {"ex2", "rsq", "mix", "ex2_lds"};
  for (int kind = kEx2; kind <= kEx2Lds; ++kind) {
    for (int warps : {4, 8, 16, 32}) {
      for (int repeat = 0; repeat < 3; ++repeat) {  // the last of three runs is kept
        const dim3 block(warps * 32);
        switch (kind) {
          case kEx2:
            probe<kEx2><<<1, block>>>(0.5f, sink, out);
            break;
          case kRsq:
            probe<kRsq><<<1, block>>>(0.5f, sink, out);
            break;
          case kMix:
            probe<kMix><<<1, block>>>(0.5f, sink, out);
            break;
          default:
            probe<kEx2Lds><<<1, block>>>(0.5f, sink, out);
            break;
        }
        TWIN_CHECK(cudaGetLastError());
        TWIN_CHECK(cudaMemcpy(host, out, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
      }
      for (int w = 0; w < warps; ++w)
        std::printf("%s\t%d\t%d\t%lld\n", names[kind], warps, w, host[w]);
    }
  }
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
