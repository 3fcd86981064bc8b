// Where a taken branch lands: the branch probe's loop of eight dependent FFMAs (branch.cu,
// body 8) after a prologue of P dependent FMULs, P = 0 … 15, so the loop's first instruction
// lands at 16 different offsets; and the twin w_ffma_dependent's loop (16 dependent FFMAs per
// round, a per-thread counter) timed from inside. One warp; thread 0 reports cycles per round
// (clock64 around the loop). The loop head's address comes from the SASS (branch_align.sh).
//
// Output (stdout, TSV): kernel pad cycles_per_round
//
// Build: nvcc -O3 -arch=sm_90 -o branch_align branch_align.cu
#include <cstdio>

#include "clock_probe.cuh"

template <int Pad>
__global__ void align_loop(int iterations, float seed, float* sink, long long* out) {
  float x = seed * static_cast<float>(threadIdx.x);
#pragma unroll
  for (int k = 0; k < Pad; ++k) x = x * (1.0f + 0.001f * k);
  const long long start = clock64();
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) x = ffma_chain<8>(x);
  const long long stop = clock64();
  if (x == 1234.5f) *sink = x;
  if (threadIdx.x == 0) out[0] = stop - start;
}

__global__ void dependent_loop(float a, float b, int iters, float* sink, long long* out) {
  float x = threadIdx.x * 1e-3f + 1.0f;
  const long long start = clock64();
#pragma unroll 16
  for (int i = 0; i < iters; ++i) x = x * a + b;
  const long long stop = clock64();
  if (x == 1234.5f) *sink = x;
  if (threadIdx.x == 0) out[0] = stop - start;
}

template <typename Launch>
double cycles_per_round(Launch launch, long long* out, int rounds) {
  return static_cast<double>(clock_cycles(launch, out)) / rounds;
}

template <int Pad>
void run_align(float* sink, long long* out) {
  const int iterations = 8192;
  const double c = cycles_per_round(
      [&] { align_loop<Pad><<<1, 32>>>(iterations, 1e-3f, sink, out); }, out, iterations);
  std::printf("align_loop\t%d\t%.3f\n", Pad, c);
  if constexpr (Pad < 15) run_align<Pad + 1>(sink, out);
}

int main() {
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long)));
  std::printf("kernel\tpad\tcycles_per_round\n");
  run_align<0>(sink, out);
  const int iters = 4096;  // the twin's, 256 rounds of 16
  const double c = cycles_per_round(
      [&] { dependent_loop<<<1, 32>>>(0.999f, 0.5f, iters, sink, out); }, out, iters / 16);
  std::printf("dependent_loop\t0\t%.3f\n", c);
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
