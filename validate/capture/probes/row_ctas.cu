// Where and when the H200 runs the CTAs of the row-wise twins (softmax and layernorm at 4096 x
// 1024 and 1024 x 8192; workloads/cuda/rowwise.cu, included with its CTA hook defined): each
// CTA's SM, its start (thread 0, %globaltimer) and its end (the last of its warps to finish).
// The 1024-row kernels fit one wave (1024 CTAs of 256 threads against 132 x 8 slots), yet
// Nsight Compute counts 15 k to 31 k L1 sectors per SM for them (5 to 10 rows' worth;
// reference/h200/raw.csv), so CTAs do not all start at once, or not evenly; how many rows share
// an SM's L1 at a time sets how many of a row's three reads hit there.
// Built with workloads/cuda/twins.cu; row_ctas.sh runs it.
//
// Output (stdout, TSV, after the runner's POINT lines): point run cta sm start_ns first_ns
// second_ns end_ns, one row per CTA: its start, the end of its first and second reductions (the
// first and second reads of the row done; thread 0), and its end, less the launch's earliest
// start.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "clock_probe.cuh"  // global_ns, sm_id

namespace {
constexpr int kMaxCtas = 4096;
__device__ unsigned long long g_start_ns[kMaxCtas];
__device__ unsigned long long g_end_ns[kMaxCtas];
__device__ unsigned long long g_reduced_ns[kMaxCtas * 2];
__device__ unsigned int g_cta_sm[kMaxCtas];
}  // namespace

#define ROW_CTA_HOOK(phase)                                         \
  if ((phase) == 0 && threadIdx.x == 0) {                           \
    g_start_ns[blockIdx.x] = global_ns();                           \
    g_cta_sm[blockIdx.x] = sm_id();                                 \
  } else if ((phase) == 1 && threadIdx.x % 32 == 0) {               \
    atomicMax(&g_end_ns[blockIdx.x], global_ns());                  \
  } else if ((phase) >= 2 && threadIdx.x == 0) {                    \
    g_reduced_ns[blockIdx.x * 2 + (phase) - 2] = global_ns();       \
  }
#include "../../../workloads/cuda/rowwise.cu"

namespace {

twins::Point timed(const char* kernel, int rows, int cols, int runs) {
  twins::Point p = kernel[0] == 's' ? row_point("softmax", rows, cols, w_softmax)
                                    : row_point("layernorm", rows, cols, w_layernorm);
  const std::string name = p.name;
  p.name = "row_ctas/" + name;
  const auto launch = p.run;
  p.run = [=] {
    for (int run = 0; run < runs; ++run) {
      std::vector<unsigned long long> zero(kMaxCtas, 0);
      TWIN_CHECK(cudaMemcpyToSymbol(g_end_ns, zero.data(), zero.size() * sizeof(zero[0])));
      launch();
      std::vector<unsigned long long> start(kMaxCtas), end(kMaxCtas), reduced(kMaxCtas * 2);
      std::vector<unsigned int> sm(kMaxCtas);
      TWIN_CHECK(cudaMemcpyFromSymbol(start.data(), g_start_ns, start.size() * sizeof(start[0])));
      TWIN_CHECK(cudaMemcpyFromSymbol(end.data(), g_end_ns, end.size() * sizeof(end[0])));
      TWIN_CHECK(cudaMemcpyFromSymbol(sm.data(), g_cta_sm, sm.size() * sizeof(sm[0])));
      TWIN_CHECK(cudaMemcpyFromSymbol(reduced.data(), g_reduced_ns,
                                      reduced.size() * sizeof(reduced[0])));
      const unsigned long long first = *std::min_element(start.begin(), start.begin() + rows);
      for (int c = 0; c < rows; ++c) {
        std::printf("%s\t%d\t%d\t%u\t%llu\t%llu\t%llu\t%llu\n", name.c_str(), run, c, sm[c],
                    start[c] - first, reduced[2 * c] - first, reduced[2 * c + 1] - first,
                    end[c] - first);
      }
    }
  };
  return p;
}

const twins::Register kRowCtas({timed("softmax", 4096, 1024, 3), timed("softmax", 1024, 8192, 3),
                                timed("layernorm", 4096, 1024, 3),
                                timed("layernorm", 1024, 8192, 3)});

}  // namespace
