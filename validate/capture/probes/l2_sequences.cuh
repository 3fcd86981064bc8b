// What the L2 sequence probes (dirty_l2.cu, l2_reref.cu) share: plain grid-stride kernels over
// 16-byte elements (kernel names start "probe_", which their scripts profile), the settle that
// leaves the L2 full of clean lines before each sequence, the sequence table and its `list`
// output (one line per profiled launch, in launch order), and zeroed device buffers.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"

namespace l2seq {

constexpr size_t kMB = size_t{1} << 20;
constexpr int kCtas = 132 * 8;
constexpr int kThreads = 256;

__global__ void settle_l2(const float4* p, size_t n, float* sink) { twins::read_all(p, n, sink); }

__global__ void probe_write(float4* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = make_float4(1.0f, 2.0f, 3.0f, (float)i);
  }
}

__global__ void probe_read(const float4* p, size_t n, float* sink) { twins::read_all(p, n, sink); }

struct Step {
  std::string kernel;  // what the probe launches for this step
  size_t mb;
};
struct Sequence {
  std::string name;
  std::vector<Step> steps;
};

/// With `list` as the first argument: prints the launches (sequence, `kernel_prefix` + kernel,
/// MB) and returns true.
inline bool list_requested(int argc, char** argv, const std::vector<Sequence>& seqs,
                           const char* kernel_prefix) {
  if (argc < 2 || std::strcmp(argv[1], "list") != 0) return false;
  std::printf("sequence\tkernel\tmb\n");
  for (const auto& q : seqs) {
    for (const auto& st : q.steps) {
      std::printf("%s\t%s%s\t%zu\n", q.name.c_str(), kernel_prefix, st.kernel.c_str(), st.mb);
    }
  }
  return true;
}

/// A device buffer of `bytes`, zeroed.
inline float4* zeroed(size_t bytes) {
  float4* p = nullptr;
  TWIN_CHECK(cudaMalloc(&p, bytes));
  TWIN_CHECK(cudaMemset(p, 0, bytes));
  return p;
}

/// Runs every sequence after a settle (512 MB of other lines read twice: the L2 is then full of
/// clean lines that no probe kernel touches): `launch(step, elements)` launches one step's
/// kernel over `elements` 16-byte elements, and each launch is waited for.
template <class Launch>
void run_sequences(const std::vector<Sequence>& seqs, Launch launch) {
  const size_t settle_bytes = 512 * kMB;
  float4* settle_lines = zeroed(settle_bytes);
  float* sink = nullptr;
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  for (const auto& q : seqs) {
    for (int pass = 0; pass < 2; ++pass) {
      settle_l2<<<kCtas, kThreads>>>(settle_lines, settle_bytes / 16, sink);
    }
    TWIN_CHECK(cudaDeviceSynchronize());
    for (const auto& st : q.steps) {
      launch(st, st.mb * kMB / 16, sink);
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  }
  std::printf("done %zu sequences\n", seqs.size());
}

}  // namespace l2seq
