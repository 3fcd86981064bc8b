// Row-wise twins: softmax and layernorm over a rows x cols float matrix, one CTA of 256 threads
// per row; each thread strides over the row, then the CTA reduces (max / sum, mean / variance)
// with warp shuffles and one shared slot per warp.
#include "twins.cuh"

// validate/capture/probes/row_ctas.cu defines this to stamp each CTA's start (phase 0), each
// warp's end (phase 1) and the end of its first and second reductions (phases 2 and 3); the twins
// leave it empty, so their SASS is unchanged.
#ifndef ROW_CTA_HOOK
#define ROW_CTA_HOOK(phase)
#endif

namespace {

constexpr int kBlock = 256;

__device__ float block_reduce(float v, float* shared, bool is_max) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const float o = __shfl_xor_sync(0xffffffffu, v, offset);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = v;
  __syncthreads();
  v = shared[threadIdx.x % (kBlock / 32)];
  for (int offset = 4; offset > 0; offset /= 2) {
    const float o = __shfl_xor_sync(0xffffffffu, v, offset);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  __syncthreads();
  return v;
}

__global__ void w_softmax(const float* __restrict__ in, float* __restrict__ out, int cols) {
  __shared__ float shared[kBlock / 32];
  ROW_CTA_HOOK(0);
  const float* row = in + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kBlock) m = fmaxf(m, row[c]);
  m = block_reduce(m, shared, true);
  ROW_CTA_HOOK(2);
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += kBlock) s += __expf(row[c] - m);
  s = block_reduce(s, shared, false);
  ROW_CTA_HOOK(3);
  const float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += kBlock) {
    out[static_cast<size_t>(blockIdx.x) * cols + c] = __expf(row[c] - m) * inv;
  }
  ROW_CTA_HOOK(1);
}

__global__ void w_layernorm(const float* __restrict__ in, float* __restrict__ out, int cols) {
  __shared__ float shared[kBlock / 32];
  ROW_CTA_HOOK(0);
  const float* row = in + static_cast<size_t>(blockIdx.x) * cols;
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += kBlock) s += row[c];
  const float mean = block_reduce(s, shared, false) / cols;
  ROW_CTA_HOOK(2);
  float v = 0;
  for (int c = threadIdx.x; c < cols; c += kBlock) v += (row[c] - mean) * (row[c] - mean);
  const float rstd = rsqrtf(block_reduce(v, shared, false) / cols + 1e-5f);
  ROW_CTA_HOOK(3);
  for (int c = threadIdx.x; c < cols; c += kBlock) {
    out[static_cast<size_t>(blockIdx.x) * cols + c] = (row[c] - mean) * rstd;
  }
  ROW_CTA_HOOK(1);
}

template <typename Kernel>
twins::Point row_point(const char* kernel, int rows, int cols, Kernel k) {
  return {std::string(kernel) + "/rows=" + std::to_string(rows) + ",cols=" + std::to_string(cols),
          kernel, "rowwise", "test", twins::kv("rows", rows) + ";" + twins::kv("cols", cols),
          [=] {
            const size_t n = static_cast<size_t>(rows) * cols;
            float* in = twins::random_floats(n, 8);
            float* out = static_cast<float*>(twins::poisoned(n * sizeof(float)));
            twins::settle();
            k<<<rows, kBlock>>>(in, out, cols);
            twins::finish_launch(kernel);
            cudaFree(in);
            cudaFree(out);
          }};
}

const twins::Register kPoints({
    row_point("softmax", 4096, 1024, w_softmax), row_point("softmax", 1024, 8192, w_softmax),
    row_point("layernorm", 4096, 1024, w_layernorm),
    row_point("layernorm", 1024, 8192, w_layernorm),
});

}  // namespace
