// Streaming twins: copy and saxpy from L2-resident to HBM-bound sizes, and strided copies.
// Grid-stride loops with a fixed grid (4 CTAs of 256 threads per SM on 132 SMs would be the
// natural choice, but the grid is derived from n so that each thread handles a fixed count).
#include "twins.cuh"

namespace {

constexpr int kBlock = 256;

__global__ void w_copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void w_saxpy(float a, const float* __restrict__ x, float* __restrict__ y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// out[i] = in[i * stride]: each warp touches 32 * stride * 4 bytes of input.
__global__ void w_strided_copy(const float* __restrict__ in, float* __restrict__ out, int n,
                               int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(long long)i * stride];
}

twins::Point copy_point(int n) {
  return {"copy/n=" + std::to_string(n), "copy", "streaming", "calibration", twins::kv("n", n),
          [n] {
            float* in = twins::random_floats(n, 1);
            float* out = static_cast<float*>(twins::poisoned(n * sizeof(float)));
            twins::settle();
            w_copy<<<(n + kBlock - 1) / kBlock, kBlock>>>(in, out, n);
            twins::finish_launch("w_copy");
            cudaFree(in);
            cudaFree(out);
          }};
}

twins::Point saxpy_point(int n) {
  return {"saxpy/n=" + std::to_string(n), "saxpy", "streaming", "calibration",
          twins::kv("n", n), [n] {
            float* x = twins::random_floats(n, 2);
            float* y = twins::random_floats(n, 3);
            twins::settle();
            w_saxpy<<<(n + kBlock - 1) / kBlock, kBlock>>>(1.5f, x, y, n);
            twins::finish_launch("w_saxpy");
            cudaFree(x);
            cudaFree(y);
          }};
}

twins::Point strided_point(int n, int stride) {
  return {"strided_copy/n=" + std::to_string(n) + ",stride=" + std::to_string(stride),
          "strided_copy", "streaming", "test",
          twins::kv("n", n) + ";" + twins::kv("stride", stride), [n, stride] {
            float* in = twins::random_floats((size_t)n * stride, 4);
            float* out = static_cast<float*>(twins::poisoned(n * sizeof(float)));
            twins::settle();
            w_strided_copy<<<(n + kBlock - 1) / kBlock, kBlock>>>(in, out, n, stride);
            twins::finish_launch("w_strided_copy");
            cudaFree(in);
            cudaFree(out);
          }};
}

const twins::Register kPoints({
    copy_point(1 << 20), copy_point(1 << 24), copy_point(1 << 26),
    saxpy_point(1 << 20), saxpy_point(1 << 24), saxpy_point(1 << 26),
    strided_point(1 << 21, 1), strided_point(1 << 21, 2), strided_point(1 << 21, 4),
    strided_point(1 << 21, 8), strided_point(1 << 21, 32),
});

}  // namespace
