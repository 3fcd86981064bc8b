// In what order the MIO serves a MUFU, a shuffle or a light shared load that arrives behind
// queued conflicted shared loads: in its own sub-partition, and from another one.
//
// One CTA of 2 warps (warp 0 on sub-partition 0, warp 1 on sub-partition 1). Warp 0 issues n
// shared loads of 32 ways of conflict each (32 rows of one bank; n = 0, 2, 4, 8, 16), all before
// their results are used. Then, after `delay` cycles of clock64 from the barrier:
//   - self_<op>: warp 0 itself issues one <op> right behind its loads;
//   - other_<op>: warp 1 issues one <op> (warp 0's loads were issued at the barrier);
// where <op> is ex2 (MUFU.EX2), shfl (SHFL.IDX), lds1 (a one-wavefront LDS) or ffma (FFMA, not an
// MIO instruction: the control). The reporting warp stamps clock64 right before the op and after
// an instruction that uses its result: the op's latency as that warp sees it. Warp 0 also reports
// when its loads' results are in.
//
// Output (stdout, TSV): case n op_cycles loads_cycles (from the barrier; the last of three runs)
//
// Build: nvcc -O3 -arch=sm_90 -o mio_order mio_order.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

enum Op { kEx2, kShfl, kLds1, kFfma };

__device__ __forceinline__ float use(float y) {
  float z;
  asm volatile("add.f32 %0, %1, 0f3F800000;" : "=f"(z) : "f"(y));
  return z;
}

// One op of kind `op` on `x`, timed from right before it to right after its result is used.
template <int K>
__device__ __forceinline__ float timed_op(float x, const int* words, int lane, long long* cycles) {
  const long long t0 = stamp();
  float y;
  if (K == kEx2) {
    y = ex2(x);
  } else if (K == kShfl) {
    y = __shfl_sync(0xffffffffu, x, (lane + 1) & 31);
  } else if (K == kLds1) {
    y = static_cast<float>(load_shared(words + lane));
  } else {
    asm volatile("fma.rn.f32 %0, %1, %1, %1;" : "=f"(y) : "f"(x));
  }
  const float z = use(y);
  *cycles = stamp() - t0;
  return z;
}

template <int K, bool Self, int N>
__global__ void probe(int delay, float seed, float* sink, long long* out) {
  __shared__ int rows[32 * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) rows[i] = i;
  __syncthreads();
  const long long start = stamp();
  const float x = seed + 1e-5f * lane;
  float sum = 0;
  long long op_cycles = -1, loads_cycles = -1;
  if (warp == 0) {
    int v[N > 0 ? N : 1] = {};
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = load_shared(rows + ((lane + i) % 32) * 32 + i % 32);
    if (Self) sum += timed_op<K>(x, rows, lane, &op_cycles);
    int acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc += v[i];
    sum += static_cast<float>(acc);
    loads_cycles = stamp() - start;
  } else if (!Self) {
    while (stamp() - start < delay) {
    }
    sum += timed_op<K>(x, rows, lane, &op_cycles);
  }
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    out[2 * warp] = op_cycles;
    out[2 * warp + 1] = loads_cycles;
  }
}

template <int K, bool Self, int N>
void run_n(const char* name, float* sink, long long* out) {
  long long host[4];
  for (int repeat = 0; repeat < 3; ++repeat) {
    probe<K, Self, N><<<1, 64>>>(40, 0.5f, sink, out);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
  }
  const long long op = Self ? host[0] : host[2];
  std::printf("%s\t%d\t%lld\t%lld\n", name, N, op, host[1]);
}

template <int K, bool Self>
void run(const char* name, float* sink, long long* out) {
  run_n<K, Self, 0>(name, sink, out);
  run_n<K, Self, 2>(name, sink, out);
  run_n<K, Self, 4>(name, sink, out);
  run_n<K, Self, 8>(name, sink, out);
  run_n<K, Self, 16>(name, sink, out);
}

}  // namespace

int main() {
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * 4));
  std::printf("case\tn\top_cycles\tloads_cycles\n");
  run<kEx2, true>("self_ex2", sink, out);
  run<kShfl, true>("self_shfl", sink, out);
  run<kLds1, true>("self_lds1", sink, out);
  run<kFfma, true>("self_ffma", sink, out);
  run<kEx2, false>("other_ex2", sink, out);
  run<kShfl, false>("other_shfl", sink, out);
  run<kLds1, false>("other_lds1", sink, out);
  run<kFfma, false>("other_ffma", sink, out);
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
