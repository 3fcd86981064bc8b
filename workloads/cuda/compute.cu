// Compute twins: dependent and independent FFMA chains (one warp, and the whole GPU), an SFU-heavy
// kernel (__expf, rsqrtf) and an integer kernel. Results are stored so that nothing is dead code.
#include "twins.cuh"

namespace {

constexpr int kIters = 4096;

// One chain per thread: every FFMA waits for the previous one (latency-bound).
__global__ void w_ffma_dependent(float* out, float a, float b, int iters) {
  float x = threadIdx.x * 1e-3f + 1.0f;
#pragma unroll 16
  for (int i = 0; i < iters; ++i) x = x * a + b;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// Eight independent chains per thread (throughput-bound).
__global__ void w_ffma_independent(float* out, float a, float b, int iters) {
  float x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = threadIdx.x * 1e-3f + k;
#pragma unroll 4
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = x[k] * a + b;
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void w_sfu(float* out, int iters) {
  float x = threadIdx.x * 1e-4f + 0.5f;
#pragma unroll 8
  for (int i = 0; i < iters; ++i) x = rsqrtf(__expf(-x) + 1.0f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void w_integer(unsigned* out, int iters) {
  unsigned x = threadIdx.x * 2654435761u + blockIdx.x;
  unsigned y = x ^ 0x9e3779b9u;
#pragma unroll 8
  for (int i = 0; i < iters; ++i) {
    x = x * 1664525u + y;
    y = (y ^ (x >> 7)) + (x << 3);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x ^ y;
}

template <typename Launch>
twins::Point compute_point(const char* kernel, int ctas, int threads, bool calibration,
                           Launch launch) {
  return {std::string(kernel) + "/ctas=" + std::to_string(ctas) + ",threads=" +
              std::to_string(threads),
          kernel, "compute", calibration ? "calibration" : "test",
          twins::kv("ctas", ctas) + ";" + twins::kv("threads", threads) + ";" +
              twins::kv("iters", kIters),
          [=] {
            void* out = twins::poisoned((size_t)ctas * threads * sizeof(float));
            twins::settle();
            launch(out, ctas, threads);
            twins::finish_launch(kernel);
            cudaFree(out);
          }};
}

const twins::Register kPoints({
    compute_point("ffma_dependent", 1, 32, true,
                  [](void* o, int c, int t) {
                    w_ffma_dependent<<<c, t>>>(static_cast<float*>(o), 0.999f, 0.5f, kIters);
                  }),
    compute_point("ffma_dependent", 528, 256, true,
                  [](void* o, int c, int t) {
                    w_ffma_dependent<<<c, t>>>(static_cast<float*>(o), 0.999f, 0.5f, kIters);
                  }),
    compute_point("ffma_independent", 1, 32, true,
                  [](void* o, int c, int t) {
                    w_ffma_independent<<<c, t>>>(static_cast<float*>(o), 0.999f, 0.5f, kIters);
                  }),
    compute_point("ffma_independent", 528, 256, true,
                  [](void* o, int c, int t) {
                    w_ffma_independent<<<c, t>>>(static_cast<float*>(o), 0.999f, 0.5f, kIters);
                  }),
    compute_point("sfu", 1, 32, true,
                  [](void* o, int c, int t) {
                    w_sfu<<<c, t>>>(static_cast<float*>(o), kIters);
                  }),
    compute_point("sfu", 528, 256, true,
                  [](void* o, int c, int t) {
                    w_sfu<<<c, t>>>(static_cast<float*>(o), kIters);
                  }),
    compute_point("integer", 1, 32, false,
                  [](void* o, int c, int t) {
                    w_integer<<<c, t>>>(static_cast<unsigned*>(o), kIters);
                  }),
    compute_point("integer", 528, 256, false,
                  [](void* o, int c, int t) {
                    w_integer<<<c, t>>>(static_cast<unsigned*>(o), kIters);
                  }),
});

}  // namespace
