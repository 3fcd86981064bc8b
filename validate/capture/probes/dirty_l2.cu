// Probe of the L2's write-back behaviour: when does a GPU write dirty lines to DRAM?
// Sequences of plain kernels (names start "probe_"), each sequence after a settle that leaves the
// L2 full of clean lines. Profile with one-pass DRAM metrics and --cache-control none, so that a
// kernel sees the dirty lines the previous kernel of its sequence left:
//   write/W       writes W MB of fresh lines (write-back within a write stream)
//   write_read/W/R  writes W MB, then a second kernel reads R MB of other lines
//   read_write/R/W  reads R MB, then writes W MB (do dirty lines leave before older clean ones?)
//   idle/W        writes W MB, then a kernel that touches no memory for about 20 ms
// `dirty_l2 list` prints one line per profiled launch, in launch order (sequence, kernel, W, R).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"

namespace {

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

__global__ void probe_idle(long long cycles, float* sink) {
  const long long start = clock64();
  float x = 1.0f;
  while (clock64() - start < cycles) x = x * 0.999f + 0.001f;
  if (x == 12345.0f) *sink = x;
}

struct Step {
  std::string kernel;  // "write", "read" or "idle"
  size_t mb;
};
struct Sequence {
  std::string name;
  std::vector<Step> steps;
};

std::vector<Sequence> sequences() {
  std::vector<Sequence> s;
  for (size_t w : {4, 8, 16, 24, 32, 40, 48, 64, 96, 128, 256}) {
    s.push_back({"write/" + std::to_string(w), {{"write", w}}});
  }
  for (size_t w : {16, 32}) {
    for (size_t r : {4, 8, 16, 24, 32, 48, 64, 96, 128, 256}) {
      s.push_back({"write_read/" + std::to_string(w) + "/" + std::to_string(r),
                   {{"write", w}, {"read", r}}});
    }
  }
  for (size_t r : {16, 32, 64}) {
    for (size_t w : {16, 32, 48}) {
      s.push_back({"read_write/" + std::to_string(r) + "/" + std::to_string(w),
                   {{"read", r}, {"write", w}}});
    }
  }
  s.push_back({"idle/16", {{"write", 16}, {"idle", 0}, {"read", 1}}});
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seqs = sequences();
  if (argc >= 2 && std::strcmp(argv[1], "list") == 0) {
    std::printf("sequence\tkernel\tmb\n");
    for (const auto& q : seqs) {
      for (const auto& st : q.steps) std::printf("%s\tprobe_%s\t%zu\n", q.name.c_str(), st.kernel.c_str(), st.mb);
    }
    return 0;
  }
  const size_t settle_bytes = 512 * kMB;
  const size_t buffer_bytes = 256 * kMB;
  float4 *settle = nullptr, *a = nullptr, *b = nullptr;
  float* sink = nullptr;
  TWIN_CHECK(cudaMalloc(&settle, settle_bytes));
  TWIN_CHECK(cudaMalloc(&a, buffer_bytes));
  TWIN_CHECK(cudaMalloc(&b, buffer_bytes));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMemset(settle, 0, settle_bytes));
  TWIN_CHECK(cudaMemset(a, 0, buffer_bytes));
  TWIN_CHECK(cudaMemset(b, 0, buffer_bytes));
  for (const auto& q : seqs) {
    for (int pass = 0; pass < 2; ++pass) settle_l2<<<kCtas, kThreads>>>(settle, settle_bytes / 16, sink);
    TWIN_CHECK(cudaDeviceSynchronize());
    for (const auto& st : q.steps) {
      const size_t n = st.mb * kMB / 16;
      if (st.kernel == "write") probe_write<<<kCtas, kThreads>>>(a, n);
      if (st.kernel == "read") probe_read<<<kCtas, kThreads>>>(b, n, sink);
      if (st.kernel == "idle") probe_idle<<<1, 32>>>(40'000'000LL, sink);
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  }
  std::printf("done %zu sequences\n", seqs.size());
  return 0;
}
