// When each FlashAttention CTA starts each block of keys, on the GPU's global clock: the twin's
// kernel (workloads/cuda/flash_attention.cu, included with its block hook defined) at seq 2048 with
// 4 heads (one CTA per SM) and 12 heads (three per SM). Whether CTAs of one head, which read the
// same K and V blocks, stay in step shows how many of their reads can join at the L2's request
// coalescer. Built with workloads/cuda/twins.cu; flash_steps.sh runs it.
//
// Output (stdout, TSV, after the runner's POINT lines): heads run cta head sm block ns, one row
// per CTA and block; ns is %globaltimer at the block's start (thread 0), less the earliest of
// the launch.
#include <cstdio>
#include <vector>

#include "clock_probe.cuh"  // global_ns, sm_id

namespace {
constexpr int kMaxCtas = 384, kMaxBlocks = 32;
__device__ unsigned long long g_block_ns[kMaxCtas * kMaxBlocks];
__device__ unsigned int g_cta_sm[kMaxCtas];
}  // namespace

#define FLASH_BLOCK_HOOK(kv0)                                              \
  if (threadIdx.x == 0) {                                                  \
    const unsigned int cta_ = blockIdx.y * gridDim.x + blockIdx.x;         \
    g_block_ns[cta_ * kMaxBlocks + (kv0) / 64] = global_ns();              \
    if ((kv0) == 0) g_cta_sm[cta_] = sm_id();                              \
  }

#include "../../../workloads/cuda/flash_attention.cu"

namespace {

twins::Point timed(int heads, int seq, int runs) {
  twins::Point p = attention_point(heads, seq);
  p.name = "flash_steps/heads=" + std::to_string(heads) + ",seq=" + std::to_string(seq);
  const auto launch = p.run;
  p.run = [=] {
    const int ctas = heads * seq / 64, blocks = seq / 64;
    for (int run = 0; run < runs; ++run) {
      launch();
      std::vector<unsigned long long> ns(kMaxCtas * kMaxBlocks);
      std::vector<unsigned int> sm(kMaxCtas);
      TWIN_CHECK(cudaMemcpyFromSymbol(ns.data(), g_block_ns, ns.size() * sizeof(ns[0])));
      TWIN_CHECK(cudaMemcpyFromSymbol(sm.data(), g_cta_sm, sm.size() * sizeof(sm[0])));
      unsigned long long first = ~0ull;
      for (int c = 0; c < ctas; ++c) first = std::min(first, ns[c * kMaxBlocks]);
      for (int c = 0; c < ctas; ++c) {
        for (int b = 0; b < blocks; ++b) {
          std::printf("%d\t%d\t%d\t%d\t%u\t%d\t%llu\n", heads, run, c % (seq / 64), c / (seq / 64),
                      sm[c], b, ns[c * kMaxBlocks + b] - first);
        }
      }
    }
  };
  return p;
}

const twins::Register kSteps({timed(4, 2048, 3), timed(12, 2048, 3)});

}  // namespace
