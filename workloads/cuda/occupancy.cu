// Occupancy twins: one kernel at several shared-memory budgets (dynamic shared memory per CTA) and
// register budgets (__launch_bounds__ minimum CTAs per SM caps the registers per thread). Each
// thread loads 4 floats, runs 128 iterations of 8 independent FFMA chains, stages one value
// through shared memory and stores the result.
#include "twins.cuh"

namespace {

constexpr int kBlock = 256;
constexpr int kCtas = 2112;  // 16 per SM on 132 SMs

template <int MinCtas>
__global__ void __launch_bounds__(kBlock, MinCtas)
    w_occupancy(const float* __restrict__ in, float* __restrict__ out, int iters) {
  extern __shared__ float stage[];
  const int i = blockIdx.x * kBlock + threadIdx.x;
  float x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = in[(i * 4 + (k & 3)) % (kCtas * kBlock)] + k;
#pragma unroll 2
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = fmaf(x[k], 0.999f, 0.25f * k);
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += x[k];
  stage[threadIdx.x] = s;
  __syncthreads();
  out[i] = stage[(threadIdx.x + 1) % kBlock];
}

template <int MinCtas>
twins::Point occupancy_point(int shared_bytes) {
  return {"occupancy/min_ctas=" + std::to_string(MinCtas) + ",shared=" +
              std::to_string(shared_bytes),
          "occupancy", "occupancy", "test",
          twins::kv("min_ctas", MinCtas) + ";" + twins::kv("shared_bytes", shared_bytes) + ";" +
              twins::kv("ctas", kCtas),
          [shared_bytes] {
            const size_t n = (size_t)kCtas * kBlock;
            float* in = twins::random_floats(n * 4, 7);
            float* out = static_cast<float*>(twins::poisoned(n * sizeof(float)));
            const int dyn = shared_bytes < kBlock * 4 ? kBlock * 4 : shared_bytes;
            TWIN_CHECK(cudaFuncSetAttribute(w_occupancy<MinCtas>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));
            twins::settle();
            w_occupancy<MinCtas><<<kCtas, kBlock, dyn>>>(in, out, 128);
            twins::finish_launch("w_occupancy");
            cudaFree(in);
            cudaFree(out);
          }};
}

const twins::Register kPoints({
    occupancy_point<1>(0), occupancy_point<1>(32 << 10), occupancy_point<1>(64 << 10),
    occupancy_point<1>(100 << 10), occupancy_point<4>(0), occupancy_point<8>(0),
});

}  // namespace
