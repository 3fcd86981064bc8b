// Probe of how long a warp that has ended waits for its stores to leave the SM (Nsight Compute's
// `drain` stall). Every warp writes N whole 128-byte lines of its own, back to back, then exits:
// with 4-byte stores (STG.E, one line an instruction) or 16-byte stores (STG.E.128, four lines an
// instruction), at one warp an SM (132 CTAs of 32 threads), eight (132 x 256), 64 (1056 x 256) and
// in eight waves of 64 (8448 x 256). Two more launch kinds put the shared-memory data path in the
// way: each warp first runs K dependent 32-way conflicted shared loads (32 wavefronts each), then
// writes one line. A warp's drain is smsp__average_warps_issue_stalled_drain_per_issue_active
// times its instructions (smsp__inst_executed.sum / smsp__warps_launched.sum). Profile with
// --cache-control all, as the reference's points:
//   store_drain.sh > validate/reference/h200/store_drain.tsv
// `store_drain list` prints one line per profiled launch, in launch order.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

namespace {

constexpr int kMaxWarps = 8448 * 8;
constexpr int kMaxLines = 8;

template <int N>
__global__ void probe_store32(float* out) {
  const size_t warp = (blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) >> 5;
  float* p = out + warp * N * 32 + (threadIdx.x & 31);
#pragma unroll
  for (int k = 0; k < N; ++k) p[k * 32] = static_cast<float>(k + 1);
}

template <int N>
__global__ void probe_store128(float4* out) {
  const size_t warp = (blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) >> 5;
  float4* p = out + warp * N * 32 + (threadIdx.x & 31);
#pragma unroll
  for (int k = 0; k < N; ++k) p[k * 32] = make_float4(k, k, k, k);
}

template <int K>
__global__ void probe_conflict_store(float* out, int salt) {
  __shared__ float tile[32 * 33];
  const int lane = threadIdx.x & 31;
  for (int i = threadIdx.x; i < 32 * 33; i += blockDim.x) tile[i] = static_cast<float>(i ^ salt);
  __syncthreads();
  // Lane l reads word 32 l (+ the running index): all lanes in bank 0 or one bank, 32 ways.
  int index = 0;
  float sum = 0.f;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const float v = tile[lane * 32 + (index & 1)];
    sum += v;
    index = static_cast<int>(v) & 1;  // the next address depends on this load
  }
  const size_t warp = (blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) >> 5;
  out[warp * 32 + lane] = sum;
}

struct Grid {
  int ctas;
  int threads;
};
constexpr Grid kGrids[] = {{132, 32}, {132, 256}, {1056, 256}, {8448, 256}};

template <typename F>
void each_launch(F&& f) {
  for (const Grid& g : kGrids) {
    f("store32", 1, g);
    f("store32", 2, g);
    f("store32", 4, g);
    f("store32", 8, g);
    f("store128", 1, g);
    f("store128", 2, g);
  }
  f("conflict_store", 4, Grid{1056, 256});
  f("conflict_store", 16, Grid{1056, 256});
}

}  // namespace

int main(int argc, char** argv) {
  const bool list = argc > 1 && std::strcmp(argv[1], "list") == 0;
  if (list) {
    std::printf("kind\tn\tctas\tthreads\n");
    each_launch([](const char* kind, int n, Grid g) {
      std::printf("%s\t%d\t%d\t%d\n", kind, n, g.ctas, g.threads);
    });
    return 0;
  }
  void* out = nullptr;
  const size_t bytes = static_cast<size_t>(kMaxWarps) * kMaxLines * 4 * 128;
  if (cudaMalloc(&out, bytes) != cudaSuccess) return 1;
  bool ok = true;
  each_launch([&](const char* kind, int n, Grid g) {
    auto* f = static_cast<float*>(out);
    auto* f4 = static_cast<float4*>(out);
    const bool s32 = std::strcmp(kind, "store32") == 0;
    const bool s128 = std::strcmp(kind, "store128") == 0;
    if (s32 && n == 1) probe_store32<1><<<g.ctas, g.threads>>>(f);
    if (s32 && n == 2) probe_store32<2><<<g.ctas, g.threads>>>(f);
    if (s32 && n == 4) probe_store32<4><<<g.ctas, g.threads>>>(f);
    if (s32 && n == 8) probe_store32<8><<<g.ctas, g.threads>>>(f);
    if (s128 && n == 1) probe_store128<1><<<g.ctas, g.threads>>>(f4);
    if (s128 && n == 2) probe_store128<2><<<g.ctas, g.threads>>>(f4);
    if (!s32 && !s128 && n == 4) probe_conflict_store<4><<<g.ctas, g.threads>>>(f, 0);
    if (!s32 && !s128 && n == 16) probe_conflict_store<16><<<g.ctas, g.threads>>>(f, 0);
    ok = ok && cudaDeviceSynchronize() == cudaSuccess;
  });
  cudaFree(out);
  return ok ? 0 : 1;
}
