// CUDA twins of warpsim's workload models: the registry every twin file adds its points to, and
// the helpers they share. A point is one kernel launch at one size; `twins run` launches every
// point once, in registry order, so that a profiler's launch order maps to the point list.
// Every measured kernel's name starts with "w_"; set-up kernels do not, so a profiler filters them.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#define TWIN_CHECK(call)                                                                    \
  do {                                                                                      \
    cudaError_t err_ = (call);                                                              \
    if (err_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                   cudaGetErrorString(err_));                                               \
      std::exit(1);                                                                         \
    }                                                                                       \
  } while (0)

namespace twins {

/// One measured launch: `name` is unique ("copy/n=16777216"), `kernel` the model it twins,
/// `category` groups points in reports, `role` is "calibration" (may set architecture
/// parameters) or "test" (held out), `params` are the workload parameters as "k=v;k=v".
struct Point {
  std::string name;
  std::string kernel;
  std::string category;
  std::string role;
  std::string params;
  std::function<void()> run;  ///< Allocates, initialises, launches the w_ kernel once, frees.
  /// Whether this GPU can run the point (e.g. wgmma needs sm_90a); empty: every GPU. `list` and
  /// `run` both skip unsupported points, so launch order still maps to the listed points.
  std::function<bool()> supported{};
};

std::vector<Point>& registry();

struct Register {
  explicit Register(std::vector<Point> points) {
    for (auto& p : points) registry().push_back(std::move(p));
  }
};

/// Compute capability of device 0 as major * 10 + minor (90 for the H100 / H200).
int compute_capability();
/// Device buffer filled with deterministic pseudo-random floats in [-1, 1) (never zeros).
float* random_floats(size_t n, unsigned seed);
/// Device buffer of n bf16 values: random_floats(n, seed) times `scale`, rounded to bf16.
__nv_bfloat16* random_bf16(size_t n, unsigned seed, float scale = 1.0f);
/// Checks C (fp32, size x size) against a float64 product of the same bf16 inputs at the (row,
/// column) pairs `at`: C = A B with B stored K x N, or C = A Bᵀ with B stored N x K
/// (`b_transposed`). Exits 1 naming `kernel` on a mismatch.
void check_gemm_bf16(const char* kernel, const __nv_bfloat16* a, const __nv_bfloat16* b,
                     const float* c, int size, bool b_transposed,
                     std::initializer_list<std::pair<int, int>> at);
/// Uninitialised device buffer of n bytes, poisoned with 0xFF.
void* poisoned(size_t bytes);
/// Reads p[0, n) (grid-stride) and sums it, storing the sum only if it equals a value it never
/// takes, so that the reads stay: the settle's read and the L2 probes' read kernel.
__device__ inline void read_all(const float4* p, size_t n, float* sink) {
  float acc = 0.0f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    const float4 v = p[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 12345.0f) *sink = acc;
}
/// With TWINS_SETTLE=1 in the environment: reads a buffer ten times the L2 so that no line the
/// set-up wrote is still dirty when the measured kernel starts; otherwise does nothing.
void settle();
/// Checks the last launch and synchronises.
void finish_launch(const char* what);

inline std::string kv(const std::string& k, long long v) { return k + "=" + std::to_string(v); }

}  // namespace twins
