// When each CTA of the Hopper GEMM twin starts each K stage and when its tiles are in shared
// memory, on the GPU's global clock: the twin's kernel (workloads/cuda/gemm_wgmma.cu, included
// with its stage hook defined) at 1024 (128 CTAs, one per SM) and 2048 (512 CTAs, up to four per
// SM). The CTAs of one grid column read the same B lines, those of one row the same A lines, so
// how closely they keep in step bounds how many of their reads can join at the L2's request
// coalescer (the model joins about twice the H200's share at 1024: hit_rate_spread.tsv).
// Built with workloads/cuda/twins.cu; gemm_stages.sh runs it.
//
// Output (stdout, TSV, after the runner's POINT lines): size run cta bx by sm stage start_ns
// data_ns, one row per CTA and stage; start_ns is %globaltimer as thread 0 starts the stage's
// loads, data_ns after the barrier that follows them, both less the launch's earliest start.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "clock_probe.cuh"  // global_ns, sm_id

namespace {
constexpr int kMaxCtas = 512, kMaxStages = 32;
__device__ unsigned long long g_stage_ns[kMaxCtas * kMaxStages * 2];
__device__ unsigned int g_cta_sm[kMaxCtas];
}  // namespace

#define GEMM_STAGE_HOOK(k0, phase)                                            \
  if (threadIdx.x == 0) {                                                     \
    const unsigned int cta_ = blockIdx.y * gridDim.x + blockIdx.x;            \
    g_stage_ns[(cta_ * kMaxStages + (k0) / 64) * 2 + (phase)] = global_ns();  \
    if ((k0) == 0 && (phase) == 0) g_cta_sm[cta_] = sm_id();                  \
  }
#include "../../../workloads/cuda/gemm_wgmma.cu"

namespace {

twins::Point timed(int size, int runs) {
  twins::Point p = gemm_wgmma_point(size);
  p.name = "gemm_stages/m=n=k=" + std::to_string(size);
  const auto launch = p.run;
  p.run = [=] {
    const int gx = size / kBn, ctas = gx * (size / kBm), stages = size / kBk;
    for (int run = 0; run < runs; ++run) {
      launch();
      std::vector<unsigned long long> ns(kMaxCtas * kMaxStages * 2);
      std::vector<unsigned int> sm(kMaxCtas);
      TWIN_CHECK(cudaMemcpyFromSymbol(ns.data(), g_stage_ns, ns.size() * sizeof(ns[0])));
      TWIN_CHECK(cudaMemcpyFromSymbol(sm.data(), g_cta_sm, sm.size() * sizeof(sm[0])));
      unsigned long long first = ~0ull;
      for (int c = 0; c < ctas; ++c) first = std::min(first, ns[c * kMaxStages * 2]);
      for (int c = 0; c < ctas; ++c) {
        for (int s = 0; s < stages; ++s) {
          const unsigned long long* at = &ns[(c * kMaxStages + s) * 2];
          std::printf("%d\t%d\t%d\t%d\t%d\t%u\t%d\t%llu\t%llu\n", size, run, c, c % gx, c / gx,
                      sm[c], s, at[0] - first, at[1] - first);
        }
      }
    }
  };
  return p;
}

const twins::Register kStages({timed(1024, 5), timed(2048, 3)});

}  // namespace
