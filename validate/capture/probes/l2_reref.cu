// Probe of what the L2 keeps when a stream of reads goes through it: lines read once, lines read
// twice, lines written, lines written and read again. Sequences of plain kernels (names start
// "probe_"), each after a settle that leaves the L2 full of clean lines; profile with one-pass
// DRAM metrics and --cache-control none (l2_reref.sh), so each kernel sees what the previous
// kernel of its sequence left. Each sequence ends by reading X again: its DRAM reads are the part
// of X that the stream of R MB evicted; the stream's DRAM writes are the dirty lines it evicted.
//   once/X/R          read X; read R MB of other lines; read X
//   twice/X/R         read X twice; read R; read X
//   dirty/X/R         write X; read R; read X
//   dirty_reread/X/R  write X; read X; read R; read X
//   once_copy/X/R     read X; copy R MB of other lines to R MB of others (reads and writes); read X
//   dirty_copy/X/R    write X; copy R MB; read X
// `l2_reref list` prints one line per profiled launch, in launch order (sequence, kernel, MB).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../../workloads/cuda/twins.cuh"

namespace {

constexpr size_t kMB = size_t{1} << 20;
constexpr int kCtas = 132 * 8;
constexpr int kThreads = 256;
constexpr size_t kX = 16;  // MB of the lines whose fate the sequence follows

__global__ void settle_l2(const float4* p, size_t n, float* sink) { twins::read_all(p, n, sink); }

__global__ void probe_write(float4* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    p[i] = make_float4(1.0f, 2.0f, 3.0f, (float)i);
  }
}

__global__ void probe_read(const float4* p, size_t n, float* sink) { twins::read_all(p, n, sink); }

__global__ void probe_copy(const float4* __restrict__ from, float4* __restrict__ to, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    to[i] = from[i];
  }
}

struct Step {
  std::string kernel;  // "read_x", "write_x", "read_stream" or "copy_stream"
  size_t mb;
};
struct Sequence {
  std::string name;
  std::vector<Step> steps;
};

std::vector<Sequence> sequences() {
  const std::vector<std::pair<std::string, std::vector<std::string>>> kinds = {
      {"once", {"read_x"}},
      {"twice", {"read_x", "read_x"}},
      {"dirty", {"write_x"}},
      {"dirty_reread", {"write_x", "read_x"}},
      {"once_copy", {"read_x"}},
      {"dirty_copy", {"write_x"}},
  };
  std::vector<Sequence> s;
  for (const auto& [kind, before] : kinds) {
    const bool copy = kind.find("_copy") != std::string::npos;
    for (size_t r : {8, 16, 24, 32, 48, 64}) {
      Sequence q{kind + "/" + std::to_string(kX) + "/" + std::to_string(r), {}};
      for (const auto& k : before) q.steps.push_back({k, kX});
      q.steps.push_back({copy ? "copy_stream" : "read_stream", r});
      q.steps.push_back({"read_x", kX});
      s.push_back(q);
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seqs = sequences();
  if (argc >= 2 && std::strcmp(argv[1], "list") == 0) {
    std::printf("sequence\tkernel\tmb\n");
    for (const auto& q : seqs) {
      for (const auto& st : q.steps) std::printf("%s\t%s\t%zu\n", q.name.c_str(), st.kernel.c_str(), st.mb);
    }
    return 0;
  }
  const size_t settle_bytes = 512 * kMB;
  const size_t buffer_bytes = 64 * kMB;
  float4 *settle = nullptr, *x = nullptr, *stream = nullptr, *out = nullptr;
  float* sink = nullptr;
  TWIN_CHECK(cudaMalloc(&settle, settle_bytes));
  TWIN_CHECK(cudaMalloc(&x, kX * kMB));
  TWIN_CHECK(cudaMalloc(&stream, buffer_bytes));
  TWIN_CHECK(cudaMalloc(&out, buffer_bytes));
  TWIN_CHECK(cudaMemset(out, 0, buffer_bytes));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMemset(settle, 0, settle_bytes));
  TWIN_CHECK(cudaMemset(x, 0, kX * kMB));
  TWIN_CHECK(cudaMemset(stream, 0, buffer_bytes));
  for (const auto& q : seqs) {
    for (int pass = 0; pass < 2; ++pass) settle_l2<<<kCtas, kThreads>>>(settle, settle_bytes / 16, sink);
    TWIN_CHECK(cudaDeviceSynchronize());
    for (const auto& st : q.steps) {
      const size_t n = st.mb * kMB / 16;
      if (st.kernel == "write_x") probe_write<<<kCtas, kThreads>>>(x, n);
      if (st.kernel == "read_x") probe_read<<<kCtas, kThreads>>>(x, n, sink);
      if (st.kernel == "read_stream") probe_read<<<kCtas, kThreads>>>(stream, n, sink);
      if (st.kernel == "copy_stream") probe_copy<<<kCtas, kThreads>>>(stream, out, n);
      TWIN_CHECK(cudaDeviceSynchronize());
    }
  }
  std::printf("done %zu sequences\n", seqs.size());
  return 0;
}
