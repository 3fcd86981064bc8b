// Reduction twins: a shared-memory tree (one __syncthreads per level) and a warp-shuffle reduction
// (__shfl_down_sync, then one shared slot per warp). Each CTA of 256 threads sums a grid-stride
// slice and writes one partial sum.
#include "twins.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kCtas = 528;

__global__ void w_reduce_shared_tree(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float s[kBlock];
  float acc = 0;
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int half = kBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void w_reduce_warp_shuffle(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warp_sums[kBlock / 32];
  float acc = 0;
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += gridDim.x * kBlock) acc += in[i];
  for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < kBlock / 32 ? warp_sums[threadIdx.x] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
  }
}

template <typename Kernel>
twins::Point reduce_point(const char* kernel, int n, Kernel k) {
  return {std::string(kernel) + "/n=" + std::to_string(n), kernel, "reduction", "test",
          twins::kv("n", n) + ";" + twins::kv("ctas", kCtas), [=] {
            float* in = twins::random_floats(n, 6);
            float* out = static_cast<float*>(twins::poisoned(kCtas * sizeof(float)));
            twins::settle();
            k<<<kCtas, kBlock>>>(in, out, n);
            twins::finish_launch(kernel);
            cudaFree(in);
            cudaFree(out);
          }};
}

const twins::Register kPoints({
    reduce_point("reduce_shared_tree", 1 << 22, w_reduce_shared_tree),
    reduce_point("reduce_shared_tree", 1 << 24, w_reduce_shared_tree),
    reduce_point("reduce_warp_shuffle", 1 << 22, w_reduce_warp_shuffle),
    reduce_point("reduce_warp_shuffle", 1 << 24, w_reduce_warp_shuffle),
});

}  // namespace
