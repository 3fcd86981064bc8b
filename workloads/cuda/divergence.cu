// Divergence twins (a seed example): `if (i % 2 == 0) expensive_a else expensive_b`, and 4- and
// 8-way variants: lane i runs branch i % ways. The branch bodies differ in length and shape so the
// compiler cannot fuse them into one predicated loop.
#include "twins.cuh"

namespace {

constexpr int kIters = 512;

template <int J>
__device__ __forceinline__ float expensive(float x, int iters) {
#pragma unroll 1
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k <= J; ++k) x = fmaf(x, 1.0001f + 0.01f * k + 0.1f * J, 0.5f - 0.03f * k);
  }
  return x;
}

template <int Ways>
__global__ void w_divergent(float* out, int iters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = threadIdx.x * 1e-3f;
  const int branch = i % Ways;
  if (branch == 0) {
    x = expensive<0>(x, iters);
  } else if (branch == 1) {
    x = expensive<1>(x, iters);
  } else if (Ways > 2 && branch == 2) {
    x = expensive<2>(x, iters);
  } else if (Ways > 2 && branch == 3) {
    x = expensive<3>(x, iters);
  } else if (Ways > 4 && branch == 4) {
    x = expensive<4>(x, iters);
  } else if (Ways > 4 && branch == 5) {
    x = expensive<5>(x, iters);
  } else if (Ways > 4 && branch == 6) {
    x = expensive<6>(x, iters);
  } else if (Ways > 4) {
    x = expensive<7>(x, iters);
  }
  out[i] = x;
}

template <int Ways>
twins::Point divergent_point(int ctas) {
  const std::string kernel = "divergent_" + std::to_string(Ways) + "way";
  return {kernel + "/ctas=" + std::to_string(ctas), kernel, "divergence", "test",
          twins::kv("ways", Ways) + ";" + twins::kv("ctas", ctas) + ";" + twins::kv("iters", kIters),
          [ctas, kernel] {
            float* out = static_cast<float*>(twins::poisoned((size_t)ctas * 256 * sizeof(float)));
            twins::settle();
            w_divergent<Ways><<<ctas, 256>>>(out, kIters);
            twins::finish_launch(kernel.c_str());
            cudaFree(out);
          }};
}

const twins::Register kPoints({
    divergent_point<2>(132), divergent_point<2>(1056), divergent_point<4>(132),
    divergent_point<4>(1056), divergent_point<8>(132), divergent_point<8>(1056),
});

}  // namespace
