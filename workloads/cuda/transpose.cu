// Matrix transpose twins (a seed example): naive (coalesced reads, strided writes), through a
// shared tile float[32][32] (the column read is a 32-way bank conflict) and through float[32][33]
// (padding makes it conflict-free). Blocks of 32 x 8 threads, each thread moves 4 elements.
#include "twins.cuh"

namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void w_transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int Pad>
__global__ void w_transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTile][kTile + Pad];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename Kernel>
twins::Point transpose_point(const char* kernel, int n, Kernel k) {
  return {std::string(kernel) + "/n=" + std::to_string(n), kernel, "transpose", "test",
          twins::kv("n", n), [=] {
            float* in = twins::random_floats((size_t)n * n, 5);
            float* out = static_cast<float*>(twins::poisoned((size_t)n * n * sizeof(float)));
            twins::settle();
            k<<<dim3(n / kTile, n / kTile), dim3(kTile, kRows)>>>(in, out, n);
            twins::finish_launch(kernel);
            cudaFree(in);
            cudaFree(out);
          }};
}

const twins::Register kPoints({
    transpose_point("transpose_naive", 2048, w_transpose_naive),
    transpose_point("transpose_naive", 4096, w_transpose_naive),
    transpose_point("transpose_tile32", 2048, w_transpose_tiled<0>),
    transpose_point("transpose_tile32", 4096, w_transpose_tiled<0>),
    transpose_point("transpose_tile33", 2048, w_transpose_tiled<1>),
    transpose_point("transpose_tile33", 4096, w_transpose_tiled<1>),
});

}  // namespace
