// What the queue in front of the L1 tag stage does with loads that miss the L1. lsu_slots.cu
// measured it with L1-resident loads: with one warp per sub-partition a warp is refused after
// 17-19 loads of 8 to 32 lines, then one load enters every 4 x lines cycles (the tag stage's line
// a cycle, shared by the four). The gemm_mma_bf16 twin's warps queue 13 loads of 4 and 8 lines
// each, 12 warps a sub-partition, a fifth of their sectors missing the L1; there Nsight Compute
// shows 0.3 warps per issue stalled on lg_throttle and 44.6 on long_scoreboard on the H200
// (raw.csv), where the model, whose queue holds 16 instructions, shows 35.5 and 9.6. This probe
// repeats lsu_slots's load kernel with lines the L1 does not hold: a warm-up kernel reads the
// buffer with ld.global.cg (into the L2 only), then each load i of warp w touches L lines of its
// own (lane l reading line (w * 32 + i) * L + l * L / 32), every one an L1 miss and an L2 hit. If
// these loads queue as the resident ones do, the stamps rise alike and the queue holds
// instructions whatever they find; if they leave the queue sooner, the tag stage passes misses
// faster than hits.
//
// Output (stdout, TSV, the format of lsu_slots.tsv so that lsu_slots_summary.py reads it):
// kernel (miss_loads) lines warps warp access cycles (clock64 after the access's issue, from the
// warp's stamp before the first). lsu_miss_slots.sh also profiles the kernel's launches for
// their stall reasons.
//
// Build: nvcc -O3 -arch=sm_90 -o lsu_miss_slots lsu_miss_slots.cu
#include <cstdio>

#include "clock_probe.cuh"

namespace {

constexpr int kAccesses = 32;
constexpr int kMaxWarps = 12;
constexpr int kMaxLines = 32;
// Lines the probe reads at most: every warp's 32 loads of 32 lines (1.5 MB).
constexpr size_t kBufferLines = size_t{kMaxWarps} * kAccesses * kMaxLines;

// Puts the buffer into the L2 without the L1: one word of each line.
__global__ void warm_l2(const float* __restrict__ buf, float* sink) {
  float acc = 0;
  for (size_t line = blockIdx.x * blockDim.x + threadIdx.x; line < kBufferLines;
       line += size_t{gridDim.x} * blockDim.x) {
    acc += load_cg(buf + line * 32);
  }
  if (acc == 1234.5f) *sink = acc;
}

template <int kLinesPerLoad>
__global__ void probe_miss_loads(const float* __restrict__ buf, float* sink, long long* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const float* base = buf + (size_t{warp} * kAccesses * kLinesPerLoad +
                             size_t(lane) * kLinesPerLoad / 32) * 32;
  float v[kAccesses];
  long long t[kAccesses + 1];
  __syncthreads();
  t[0] = stamp();
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) {
    v[i] = load_ca(base + size_t{i} * kLinesPerLoad * 32);
    t[i + 1] = stamp();
  }
  float sum = 0;
#pragma unroll
  for (int i = 0; i < kAccesses; ++i) sum += v[i];
  if (sum == 1234.5f) *sink = sum;
  if (lane == 0) {
    for (int i = 0; i < kAccesses; ++i) out[warp * kAccesses + i] = t[i + 1] - t[0];
  }
}

template <int kLinesPerLoad>
void run(const float* buf, float* sink, long long* out, long long* host) {
  for (int warps : {1, 4, 8, 12}) {
    warm_l2<<<132, 256>>>(buf, sink);
    TWIN_CHECK(cudaGetLastError());
    probe_miss_loads<kLinesPerLoad><<<1, warps * 32>>>(buf, sink, out);
    TWIN_CHECK(cudaGetLastError());
    TWIN_CHECK(
        cudaMemcpy(host, out, sizeof(long long) * warps * kAccesses, cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; ++w)
      for (int i = 0; i < kAccesses; ++i)
        std::printf("miss_loads\t%d\t%d\t%d\t%d\t%lld\n", kLinesPerLoad, warps, w, i,
                    host[w * kAccesses + i]);
  }
}

}  // namespace

int main() {
  float* buf = nullptr;
  float* sink = nullptr;
  long long* out = nullptr;
  TWIN_CHECK(cudaMalloc(&buf, kBufferLines * 128));
  TWIN_CHECK(cudaMalloc(&sink, sizeof(float)));
  TWIN_CHECK(cudaMalloc(&out, sizeof(long long) * kMaxWarps * kAccesses));
  TWIN_CHECK(cudaMemset(buf, 0, kBufferLines * 128));
  static long long host[kMaxWarps * kAccesses];
  std::printf("kernel\tlines\twarps\twarp\taccess\tcycles\n");
  run<1>(buf, sink, out, host);
  run<4>(buf, sink, out, host);
  run<8>(buf, sink, out, host);
  run<32>(buf, sink, out, host);
  TWIN_CHECK(cudaFree(buf));
  TWIN_CHECK(cudaFree(sink));
  TWIN_CHECK(cudaFree(out));
  return 0;
}
