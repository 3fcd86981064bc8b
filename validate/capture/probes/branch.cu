// The cost of a loop's taken branch on the GPU at hand: one CTA of T threads runs `iterations`
// rounds of a loop whose body is a dependent chain of B FFMAs (`#pragma unroll 1`, a uniform
// counter, so the loop is the divergence twins' shape: UIADD3, B FFMAs, ISETP, BRA), and thread 0
// reports the cycles per round (clock64 around the loop). With one warp per scheduler, or two,
// the round is the warp's latency: the compiler's stall counts of the round's instructions plus
// what the taken branch costs beyond its own; with eight per scheduler it is the issue rate.
//
// A second kernel, `skip`, adds to each round a forward branch that is never taken.
//
// Output (stdout, TSV): kernel (loop or skip) body threads cycles_per_iteration
//
// Build: nvcc -O3 -arch=sm_90 -o branch branch.cu
#include <cstdio>
#include <cstdlib>

#include "clock_probe.cuh"

template <int Body>
__global__ void branch_loop(int iterations, float seed, float* sink, long long* out) {
  float x = seed * static_cast<float>(threadIdx.x);
  const long long start = clock64();
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) x = ffma_chain<Body>(x);
  const long long stop = clock64();
  if (x == 1234.5f) *sink = x;  // keeps the chain; never true for these seeds
  if (threadIdx.x == 0) out[0] = stop - start;
}

// The same loop with a forward branch in each round that is never taken: it skips a block the
// compiler will not predicate (the loop's index never equals `never`).
template <int Body>
__global__ void branch_skip(int iterations, int never, float seed, float* sink, long long* out) {
  float x = seed * static_cast<float>(threadIdx.x);
  const long long start = clock64();
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
    x = ffma_chain<Body>(x);
    if (i == never) x = sinf(x) * cosf(x * 3.0f) + expf(x);
  }
  const long long stop = clock64();
  if (x == 1234.5f) *sink = x;
  if (threadIdx.x == 0) out[0] = stop - start;
}

template <int Body>
void run(float* sink, long long* out) {
  const int iterations = 8192;
  for (int threads : {32, 128, 256, 1024}) {
    const long long loop = clock_cycles(
        [&] { branch_loop<Body><<<1, threads>>>(iterations, 1e-3f, sink, out); }, out);
    std::printf("loop\t%d\t%d\t%.3f\n", Body, threads,
                static_cast<double>(loop) / static_cast<double>(iterations));
    const long long skip = clock_cycles(
        [&] { branch_skip<Body><<<1, threads>>>(iterations, -1, 1e-3f, sink, out); }, out);
    std::printf("skip\t%d\t%d\t%.3f\n", Body, threads,
                static_cast<double>(skip) / static_cast<double>(iterations));
  }
}

int main() {
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long)));
  std::printf("kernel\tbody\tthreads\tcycles_per_iteration\n");
  run<1>(sink, out);
  run<2>(sink, out);
  run<3>(sink, out);
  run<4>(sink, out);
  run<8>(sink, out);
  run<16>(sink, out);
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
