// How many loads may wait on one line the L1 is fetching. The model gives each MSHR entry a
// bounded list of waiting instructions (sm_memory_config.h, l1_mshr_merge_slots); a lookup that
// finds the list full stalls the tag stage until the line's data returns, and every lookup behind
// it waits that long too. The gemm_mma_bf16 twin's warps load each line of B twice, and three
// CTAs of one SM often read the same columns, so a line can gather a dozen waiters.
//
// One CTA of W warps on one SM. Every round, after a barrier, each warp stamps, loads the round's
// shared line S (P loads, lanes reading the whole line: P waiters per warp), then a line of its
// own, O_w, and stores O_w's word to shared memory (which waits for the data), stamps, stores S's
// words, stamps. A warm-up kernel has read every line with ld.global.cg from all 132 SMs, so each
// line sits in both L2 partitions and every load misses the L1 and hits the near L2. If a full
// waiter list stalls the tag stage, the warps whose S loads come after the list fills see their
// own line arrive one L2 round trip late; if not, every warp's own line takes about one round
// trip, whatever W x P.
//
// Output (stdout, TSV): shared_loads warps round warp own shared (cycles from the warp's first
// stamp of the round to the stamp after its own line's data, and after the shared line's).
//
// Build: nvcc -O3 -arch=sm_90 -o l1_merge l1_merge.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kRounds = 8;
constexpr int kMaxWarps = 32;
// Each round: the shared line, then one line per warp.
constexpr int kLinesPerRound = 1 + kMaxWarps;
constexpr size_t kBufferLines = size_t{kRounds} * kLinesPerRound;

// Every CTA reads every sector (one word of each per thread), so that both L2 partitions hold a
// copy of every line.
__global__ void warm_l2(const float* __restrict__ buf, float* sink) {
  float acc = 0;
  for (size_t sector = threadIdx.x; sector < kBufferLines * 4; sector += blockDim.x) {
    acc += load_cg(buf + sector * 8);
  }
  if (acc == 1234.5f) *sink = acc;
}

template <int kSharedLoads>
__global__ void probe_merge(const float* __restrict__ buf, long long* out) {
  __shared__ volatile float words[kMaxWarps * 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  long long own[kRounds], shared[kRounds];
#pragma unroll
  for (int r = 0; r < kRounds; ++r) {
    const float* s = buf + size_t(r) * kLinesPerRound * 32;
    const float* o = s + size_t(1 + warp) * 32;
    __syncthreads();
    const long long t0 = stamp();
    const float a = load_ca(s + lane);
    float a2 = 0, a3 = 0, a4 = 0;
    if (kSharedLoads >= 2) a2 = load_ca(s + (lane ^ 16));
    if (kSharedLoads >= 4) {
      a3 = load_ca(s + (lane ^ 8));
      a4 = load_ca(s + (lane ^ 24));
    }
    const float b = load_ca(o + lane);
    words[threadIdx.x] = b;
    const long long t1 = stamp();
    words[threadIdx.x] = a + a2 + a3 + a4;
    const long long t2 = stamp();
    own[r] = t1 - t0;
    shared[r] = t2 - t0;
  }
  if (lane == 0) {
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
      out[(warp * kRounds + r) * 2] = own[r];
      out[(warp * kRounds + r) * 2 + 1] = shared[r];
    }
  }
}

template <int kSharedLoads>
void run(const float* buf, float* sink, long long* out, long long* host) {
  for (int warps : {1, 2, 4, 6, 8, 12, 16, 24, 32}) {
    // Three launches; the last is kept (the first two load the code and constants).
    for (int repeat = 0; repeat < 3; ++repeat) {
      warm_l2<<<132, 256>>>(buf, sink);
      TWIN_CHECK(cudaGetLastError());
      probe_merge<kSharedLoads><<<1, warps * 32>>>(buf, out);
      TWIN_CHECK(cudaGetLastError());
    }
    TWIN_CHECK(cudaMemcpy(host, out, sizeof(long long) * warps * kRounds * 2,
                          cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; ++w)
      for (int r = 0; r < kRounds; ++r)
        std::printf("%d\t%d\t%d\t%d\t%lld\t%lld\n", kSharedLoads, warps, r, w,
                    host[(w * kRounds + r) * 2], host[(w * kRounds + r) * 2 + 1]);
  }
}

}  // namespace

int main() {
  float* buf = nullptr;
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&buf, kBufferLines * 128));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * kMaxWarps * kRounds * 2));
  TWIN_CHECK(cudaMemset(buf, 0, kBufferLines * 128));
  static long long host[kMaxWarps * kRounds * 2];
  std::printf("shared_loads\twarps\tround\twarp\town\tshared\n");
  run<1>(buf, sink, out, host);
  run<2>(buf, sink, out, host);
  run<4>(buf, sink, out, host);
  TWIN_CHECK(cudaFree(buf));
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
